// A ctypes-loadable library for python_interpreter_frames_test: the production frame walk,
// run inside a real CPython. Loaded with ctypes.CDLL, its call runs with the GIL released
// (as a PyTorch op's launch does); with ctypes.PyDLL, with the GIL held.
#include <cstdio>
#include <string>

#include "inject/python_frames.h"

using gpuscope::inject::FindPythonApi;
using gpuscope::inject::PythonFrame;
using gpuscope::inject::PythonFrameWalker;

// Writes "gil=<0|1> detached=<0|1>" and then one "file:line:function" line per frame,
// innermost first, into `out`; returns the number of frames, -1 without a complete API.
extern "C" __attribute__((visibility("default"))) int gpuscope_probe_walk(char* out, int size) {
  static gpuscope::inject::PythonApi api = FindPythonApi();
  if (!api.complete()) return -1;
  static PythonFrameWalker walker(api);
  PythonFrame frames[64];
  const std::size_t count = walker.Walk(frames, 64);
  std::string text = "gil=" + std::to_string(api.gil_check()) +
                     " detached=" + std::to_string(walker.reads_detached_threads() ? 1 : 0) + "\n";
  for (std::size_t i = 0; i < count; ++i) {
    text += frames[i].code->file + ":" + std::to_string(frames[i].line) + ":" +
            frames[i].code->function + "\n";
  }
  std::snprintf(out, static_cast<std::size_t>(size), "%s", text.c_str());
  return static_cast<int>(count);
}
