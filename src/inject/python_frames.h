// The Python frames of the calling thread (file:line:function), for `--backtrace` in CPython
// programs. gpuscope is built without Python headers and links no libpython.
//
// Where this CPython's layout is known (python_detached_frames.h: 3.11 to 3.13), the frames
// are read from CPython's structures, with or without the GIL: PyTorch and CuPy launch with
// it released, and the read costs far less than the C API (which makes a frame object for
// every frame it walks). Lines are cached per code object and instruction, since decoding
// the line table is the costly part; a code object is cached by its address, checked against
// its name objects and line table before each use.
//
// Elsewhere the C API, found with dlsym(RTLD_DEFAULT) at first use, walks the frames, only
// while the calling thread holds the GIL (PyGILState_Check): gpuscope never calls into Python
// from a thread that may not. That cache keeps a reference to each code object, so that its
// address cannot name another code object while it is cached.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "inject/python_detached_frames.h"

namespace gpuscope::inject {

// The part of CPython's C API the walk uses (stable ABI since 3.9). Plain function pointers,
// so that tests can walk frames of their own.
struct PythonApi {
  int (*initialized)() = nullptr;                   // Py_IsInitialized
  int (*gil_check)() = nullptr;                     // PyGILState_Check
  void* (*current_frame)() = nullptr;               // PyEval_GetFrame: borrowed
  void* (*frame_back)(void*) = nullptr;             // PyFrame_GetBack: new reference
  void* (*frame_code)(void*) = nullptr;             // PyFrame_GetCode: new reference
  int (*frame_line)(void*) = nullptr;               // PyFrame_GetLineNumber
  void (*incref)(void*) = nullptr;                  // Py_IncRef
  void (*decref)(void*) = nullptr;                  // Py_DecRef
  void* (*get_attr)(void*, const char*) = nullptr;  // PyObject_GetAttrString: new reference
  const char* (*utf8)(void*) = nullptr;             // PyUnicode_AsUTF8: borrowed
  void (*clear_error)() = nullptr;                  // PyErr_Clear
  // For threads without the GIL: the version (Py_Version, 3.11+) picks the layout.
  DetachedFrameApi detached;
  unsigned long version = 0;

  bool complete() const;
};

// The API of the CPython in this process; incomplete when the process runs none (or one
// older than 3.9, which lacks PyFrame_GetBack).
PythonApi FindPythonApi();

// A code object's names, fetched once; the address stays valid as long as the cache lives.
struct PythonCode {
  std::string file;      // co_filename
  std::string function;  // co_qualname where there is one (3.11+), else co_name
};

struct PythonFrame {
  const PythonCode* code = nullptr;
  std::uint32_t line = 0;
};

class PythonFrameWalker {
 public:
  explicit PythonFrameWalker(PythonApi api);
  PythonFrameWalker(const PythonFrameWalker&) = delete;
  PythonFrameWalker& operator=(const PythonFrameWalker&) = delete;

  // Fills `out` with at most `max` frames of the calling thread, innermost first; 0 when the
  // thread runs no Python code, or has released the GIL on a version whose layout is not
  // known. Call only with a complete API.
  std::size_t Walk(PythonFrame* out, std::size_t max);

  // Whether frames are read from CPython's structures (a known layout for this version), so
  // that threads that released the GIL are walked too.
  bool reads_detached_threads() const { return detached_.has_value(); }

  std::size_t cached_code_objects() const;

 private:
  // A code object read from CPython's structures, with the lines of the instructions seen.
  struct DetachedCode {
    CodeIdentity identity;
    std::unique_ptr<PythonCode> code;
    std::unordered_map<int, std::uint32_t> lines;  // instruction byte offset -> line
  };

  std::size_t WalkDetached(PythonFrame* out, std::size_t max);
  DetachedCode& DetachedCodeOf(const void* code);  // with mutex_ held
  const PythonCode* CodeOf(void* code);            // with mutex_ held
  std::string Text(void* object, const char* attribute);

  PythonApi api_;
  std::optional<DetachedFrameReader> detached_;
  // Holding the GIL serialises the threads of one interpreter; the mutex also covers
  // free-threaded builds and subinterpreters.
  mutable std::mutex mutex_;
  std::unordered_map<void*, std::unique_ptr<PythonCode>> codes_;  // each key holds a reference
  std::unordered_map<const void*, DetachedCode> detached_codes_;
  // Entries replaced because their address now names another code object: stacks captured
  // earlier still point at them.
  std::vector<std::unique_ptr<PythonCode>> retired_codes_;
};

}  // namespace gpuscope::inject
