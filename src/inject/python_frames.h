// The Python frames of the calling thread (file:line:function), for `--backtrace` in CPython
// programs. gpuscope is built without Python headers and links no libpython: the C API is
// found in the process with dlsym(RTLD_DEFAULT) the first time it is needed, and used only
// while the calling thread holds the GIL (PyGILState_Check), so gpuscope never calls into
// Python from a thread that may not. A thread that has released the GIL (PyTorch does around
// every op) is read without the API, from CPython's structures (python_detached_frames.h),
// on the versions whose layout is known. Each code object's file and function name are
// fetched once and cached; with the GIL the cache keeps a reference to the code object, so
// that its address cannot be reused by another code object while it is cached; without it,
// an entry is checked against the code object's name objects before it is used.
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

  // Whether threads that released the GIL are read too (a known layout for this version).
  bool reads_detached_threads() const { return detached_.has_value(); }
  unsigned long version() const { return api_.version; }

  std::size_t cached_code_objects() const;

 private:
  std::size_t WalkDetached(PythonFrame* out, std::size_t max);
  const PythonCode* CodeOf(void* code);                  // with mutex_ held
  const PythonCode* DetachedCodeOf(const void* code);    // with mutex_ held
  std::string Text(void* object, const char* attribute);

  // A code object named without the GIL: valid while its name objects are the ones read.
  struct DetachedCode {
    std::pair<const void*, const void*> names;
    std::unique_ptr<PythonCode> code;
  };

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
