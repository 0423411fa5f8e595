#include "inject/python_detached_frames.h"

#include <cstring>

namespace gpuscope::inject {
namespace {

// The object header of a release build: ob_refcnt, then ob_type.
constexpr std::size_t kObjectType = 8;
// PyASCIIObject: ob_refcnt, ob_type, length, hash, then the state bits (the same offset and
// bits in 3.11 to 3.13: interned:2, kind:3, compact:1, ascii:1).
constexpr std::size_t kStringLength = 16;
constexpr std::size_t kStringState = 32;
// Deeper chains are not real programs; the bound keeps a corrupt chain from looping.
constexpr std::size_t kMaxChain = 4096;

template <typename T>
T Load(const void* base, std::size_t offset) {
  T value;
  std::memcpy(&value, static_cast<const char*>(base) + offset, sizeof(T));
  return value;
}

const void* TypeOf(const void* object) { return Load<const void*>(object, kObjectType); }

void AppendUtf8(std::string& out, std::uint32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

}  // namespace

std::optional<DetachedFrameLayout> DetachedFrameLayoutFor(unsigned long python_version_hex) {
  const unsigned long major = (python_version_hex >> 24) & 0xFF;
  const unsigned long minor = (python_version_hex >> 16) & 0xFF;
  if (major != 3) return std::nullopt;
  DetachedFrameLayout layout;
  // 3.11 and 3.12: prev, next, interp; then seven ints (eight with padding) before cframe.
  layout.thread_interpreter = 16;
  layout.thread_cframe = 56;
  layout.code_filename = 112;
  layout.code_qualname = 128;
  layout.code_line_table = 136;
  if (minor == 11) {
    // Include/internal/pycore_frame.h of 3.11: f_func, f_globals, f_builtins, f_locals,
    // f_code, frame_obj, previous, prev_instr, stacktop, is_entry, owner.
    layout.cframe_current = 8;  // after `uint8_t use_tracing`
    layout.frame_code = 32;
    layout.frame_previous = 48;
    layout.frame_instruction = 56;
    layout.frame_owner = 69;
    layout.code_first_traceable = 168;
    layout.code_instructions = 184;
    layout.compact_ascii_size = 48;    // with the wstr pointer 3.12 removed
    layout.compact_unicode_size = 72;  // utf8_length, utf8, wstr_length
    return layout;
  }
  if (minor == 12 || minor == 13) {
    // 3.12: f_code, previous, f_funcobj, f_globals, f_builtins, f_locals, frame_obj,
    // prev_instr, stacktop, return_offset, owner; shim frames owned by the C stack. 3.13's
    // frame is the same with f_executable and instr_ptr (LASTI's base as prev_instr was).
    layout.cframe_current = 0;
    layout.frame_code = 0;
    layout.frame_previous = 8;
    layout.frame_instruction = 56;
    layout.frame_owner = 70;
    layout.owner_c_stack = 3;
    layout.code_first_traceable = 176;
    layout.code_instructions = 192;
    layout.compact_ascii_size = 40;
    layout.compact_unicode_size = 56;  // utf8_length, utf8
    if (minor == 13) {
      // The thread state holds the frame (after eval_breaker, _status, _whence, state and six
      // more ints), and the code object gained co_executors before the fields read here.
      layout.thread_current = 72;
      layout.code_first_traceable += 8;
      layout.code_instructions += 8;
    }
    return layout;
  }
  return std::nullopt;
}

bool DetachedFrameApi::complete() const {
  return this_thread_state != nullptr && main_interpreter != nullptr &&
         address_to_line != nullptr && code_type != nullptr && unicode_type != nullptr;
}

std::size_t DetachedFrameReader::Read(DetachedFrame* out, std::size_t max) const {
  const void* thread = api_.this_thread_state();
  if (thread == nullptr || max == 0) return 0;
  // A subinterpreter's thread, or an offset that is wrong for this build: not read.
  if (Load<const void*>(thread, layout_.thread_interpreter) != api_.main_interpreter()) return 0;
  const void* frame = nullptr;
  if (layout_.thread_current) {
    frame = Load<const void*>(thread, *layout_.thread_current);
  } else if (const void* cframe = Load<const void*>(thread, layout_.thread_cframe)) {
    frame = Load<const void*>(cframe, layout_.cframe_current);
  }
  std::size_t count = 0;
  for (std::size_t steps = 0; frame != nullptr && count < max && steps < kMaxChain; ++steps) {
    const int owner = Load<char>(frame, layout_.frame_owner);
    if (owner == layout_.owner_c_stack) {  // CPython's shim frame: no code of the program
      frame = Load<const void*>(frame, layout_.frame_previous);
      continue;
    }
    const void* code = Load<const void*>(frame, layout_.frame_code);
    if (code == nullptr || TypeOf(code) != api_.code_type) break;  // not a frame as we know it
    const char* instruction = Load<const char*>(frame, layout_.frame_instruction);
    const char* first = static_cast<const char*>(code) + layout_.code_instructions;
    // A frame still being set up (before its first traceable instruction) is not a line
    // of the program yet: skipped, as CPython's own frame walk skips it.
    const auto first_traceable = Load<int>(code, layout_.code_first_traceable);
    const bool incomplete =
        owner != layout_.owner_generator && instruction < first + 2 * first_traceable;
    if (!incomplete) {
      // The byte offset of the last instruction started, as PyFrame_GetLineNumber computes it.
      out[count++] = DetachedFrame{code, static_cast<int>(instruction - first)};
    }
    frame = Load<const void*>(frame, layout_.frame_previous);
  }
  return count;
}

std::uint32_t DetachedFrameReader::LineOf(const DetachedFrame& frame) const {
  const int line = api_.address_to_line(const_cast<void*>(frame.code), frame.instruction);
  return line > 0 ? static_cast<std::uint32_t>(line) : 0;
}

CodeIdentity DetachedFrameReader::IdentityOf(const void* code) const {
  return CodeIdentity{Load<const void*>(code, layout_.code_filename),
                      Load<const void*>(code, layout_.code_qualname),
                      Load<const void*>(code, layout_.code_line_table)};
}

std::string DetachedFrameReader::FileOf(const void* code) const {
  return Text(IdentityOf(code).file);
}

std::string DetachedFrameReader::FunctionOf(const void* code) const {
  return Text(IdentityOf(code).function);
}

std::string DetachedFrameReader::Text(const void* string) const {
  if (string == nullptr || TypeOf(string) != api_.unicode_type) return {};
  const auto state = Load<std::uint32_t>(string, kStringState);
  const unsigned kind = (state >> 2) & 7;
  const bool compact = ((state >> 5) & 1) != 0;
  const bool ascii = ((state >> 6) & 1) != 0;
  const auto length = Load<std::int64_t>(string, kStringLength);
  // Legacy (non-compact) strings keep their text elsewhere; names are never such strings.
  if (!compact || length < 0 || length > (1 << 20)) return {};
  const char* data = static_cast<const char*>(string) +
                     (ascii ? layout_.compact_ascii_size : layout_.compact_unicode_size);
  std::string text;
  text.reserve(static_cast<std::size_t>(length));
  for (std::int64_t i = 0; i < length; ++i) {
    std::uint32_t c = 0;
    switch (kind) {
      case 1: c = Load<std::uint8_t>(data, static_cast<std::size_t>(i)); break;
      case 2: c = Load<std::uint16_t>(data, static_cast<std::size_t>(i) * 2); break;
      case 4: c = Load<std::uint32_t>(data, static_cast<std::size_t>(i) * 4); break;
      default: return {};
    }
    AppendUtf8(text, c);
  }
  return text;
}

}  // namespace gpuscope::inject
