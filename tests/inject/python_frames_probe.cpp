// A ctypes-loadable library for python_interpreter_frames_test and
// bench/python_frame_walk.py: the production frame walk, run inside a real CPython. Loaded
// with ctypes.CDLL, its calls run with the GIL released (as a PyTorch op's launch does); with
// ctypes.PyDLL, with the GIL held.
#include <cstdio>
#include <string>

#include "inject/python_frames.h"

namespace {

using gpuscope::inject::FindPythonApi;
using gpuscope::inject::PythonApi;
using gpuscope::inject::PythonFrame;
using gpuscope::inject::PythonFrameWalker;

const PythonApi& Api() {
  static const PythonApi api = FindPythonApi();
  return api;
}

// The production walker, or (`api_only`) one through the C API alone, as on a version whose
// layout is not known.
PythonFrameWalker& Walker(bool api_only) {
  static PythonFrameWalker walker(Api());
  static PythonFrameWalker api_walker([] {
    PythonApi without_layout = Api();
    without_layout.detached = {};
    return without_layout;
  }());
  return api_only ? api_walker : walker;
}

}  // namespace

// Writes "gil=<0|1> reader=<0|1>" and then one "file:line:function" line per frame,
// innermost first, into `out`; returns the number of frames, -1 without a complete API.
extern "C" __attribute__((visibility("default"))) int gpuscope_probe_walk(char* out, int size,
                                                                        int api_only) {
  if (!Api().complete()) return -1;
  PythonFrameWalker& walker = Walker(api_only != 0);
  PythonFrame frames[64];
  const std::size_t count = walker.Walk(frames, 64);
  std::string text = "gil=" + std::to_string(Api().gil_check()) +
                     " reader=" + std::to_string(walker.reads_detached_threads() ? 1 : 0) + "\n";
  for (std::size_t i = 0; i < count; ++i) {
    text += frames[i].code->file + ":" + std::to_string(frames[i].line) + ":" +
            frames[i].code->function + "\n";
  }
  std::snprintf(out, static_cast<std::size_t>(size), "%s", text.c_str());
  return static_cast<int>(count);
}

// The walk alone, nothing formatted; `max` 0: no walk, the cost of the call itself.
extern "C" __attribute__((visibility("default"))) int gpuscope_probe_walk_only(int max,
                                                                             int api_only) {
  if (!Api().complete()) return -1;
  if (max <= 0) return 0;
  PythonFrame frames[128];
  return static_cast<int>(Walker(api_only != 0).Walk(frames, max > 128 ? 128 : max));
}
