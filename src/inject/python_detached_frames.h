// The Python frames of a thread that has released the GIL. PyTorch, CuPy and ctypes release it
// around their calls into CUDA, so the launches `--backtrace` is for are made without it, and
// CPython's C API may not be called then. But the thread's own frames cannot change until it
// takes the GIL back, and the code objects they run stay alive while they run, so the frames
// are read from CPython's structures directly, as py-spy and austin read another process.
//
// The layout of those structures changes with every minor version; it is written here for
// the versions whose layout is known (DetachedFrameLayoutFor). Each pointer followed is
// checked first: the thread state must belong to the main interpreter, a code object must
// have PyCode_Type, a name PyUnicode_Type. A check that fails ends the walk instead of
// misreading; a version without a layout is said once (CallStacks) and walks only with the
// GIL held.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace gpuscope::inject {

// Byte offsets into CPython's structures, for one minor version on a 64-bit build without
// Py_DEBUG or free threading (the only builds with a stable object header).
struct DetachedFrameLayout {
  std::size_t thread_interpreter = 0;   // PyThreadState.interp
  std::size_t thread_cframe = 0;        // PyThreadState.cframe (3.11, 3.12)
  std::size_t cframe_current = 0;       // _PyCFrame.current_frame
  // 3.13 keeps the frame in the thread state: PyThreadState.current_frame.
  std::optional<std::size_t> thread_current;
  std::size_t frame_code = 0;           // _PyInterpreterFrame.f_code (f_executable)
  std::size_t frame_previous = 0;       // _PyInterpreterFrame.previous
  std::size_t frame_instruction = 0;    // _PyInterpreterFrame.prev_instr (instr_ptr)
  std::size_t frame_owner = 0;          // _PyInterpreterFrame.owner (a char)
  int owner_generator = 1;              // FRAME_OWNED_BY_GENERATOR
  int owner_c_stack = -1;               // FRAME_OWNED_BY_CSTACK (shim frames), -1 where none
  std::size_t code_filename = 0;        // PyCodeObject.co_filename
  std::size_t code_qualname = 0;        // PyCodeObject.co_qualname
  std::size_t code_line_table = 0;      // PyCodeObject.co_linetable
  std::size_t code_first_traceable = 0; // PyCodeObject._co_firsttraceable (code units)
  std::size_t code_instructions = 0;    // PyCodeObject.co_code_adaptive
  std::size_t compact_ascii_size = 0;   // sizeof(PyASCIIObject): an ASCII string's text
  std::size_t compact_unicode_size = 0; // sizeof(PyCompactUnicodeObject): other strings' text
};

// The layout of CPython 3.<minor>, where known (3.11, 3.12 and 3.13).
std::optional<DetachedFrameLayout> DetachedFrameLayoutFor(unsigned long python_version_hex);

// What the reader needs from the process's CPython, found by dlsym. None of these takes the
// GIL or allocates: PyGILState_GetThisThreadState reads a thread-local, PyInterpreterState_Main
// a global, PyCode_Addr2Line the code object's line table.
struct DetachedFrameApi {
  void* (*this_thread_state)() = nullptr;      // PyGILState_GetThisThreadState
  void* (*main_interpreter)() = nullptr;       // PyInterpreterState_Main
  int (*address_to_line)(void*, int) = nullptr;  // PyCode_Addr2Line
  const void* code_type = nullptr;             // &PyCode_Type
  const void* unicode_type = nullptr;          // &PyUnicode_Type

  bool complete() const;
};

// One frame as read: its code object (alive while the thread is in the call) and the byte
// offset of its last instruction started, which LineOf turns into a line.
struct DetachedFrame {
  const void* code = nullptr;
  int instruction = 0;
};

// What tells a code object cached by its address from a later one at the same address: its
// name objects and line table, which it holds and which die with it.
struct CodeIdentity {
  const void* file = nullptr;
  const void* function = nullptr;
  const void* line_table = nullptr;
  bool operator==(const CodeIdentity&) const = default;
};

class DetachedFrameReader {
 public:
  DetachedFrameReader(DetachedFrameLayout layout, DetachedFrameApi api)
      : layout_(layout), api_(api) {}

  // At most `max` frames of the calling thread, innermost first; 0 when it has no Python
  // thread state or runs no Python code. Only the calling thread's own frames are read: they
  // change only while it runs Python code, so this holds with or without the GIL.
  std::size_t Read(DetachedFrame* out, std::size_t max) const;

  // The line of a frame read, as PyFrame_GetLineNumber gives it (PyCode_Addr2Line: it
  // decodes the line table from its start, the costly part of a walk, so callers cache it).
  std::uint32_t LineOf(const DetachedFrame& frame) const;

  // A code object's co_filename and co_qualname, read the same way; empty when a name is not
  // a compact str.
  std::string FileOf(const void* code) const;
  std::string FunctionOf(const void* code) const;
  CodeIdentity IdentityOf(const void* code) const;

 private:
  std::string Text(const void* string) const;

  DetachedFrameLayout layout_;
  DetachedFrameApi api_;
};

}  // namespace gpuscope::inject
