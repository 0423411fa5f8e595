#include "analysis/call_sites.h"

#include <array>
#include <cstdio>
#include <string_view>

namespace gpuscope::analysis {
namespace {

using store::StoredFrame;

std::string_view BaseName(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Library code a user does not write: installed packages, the standard library (a
// `lib/pythonX.Y/` directory outside site-packages), frozen and generated modules.
bool IsUserPython(std::string_view file) {
  if (file.empty() || file.front() == '<') return false;  // <frozen ...>, <string>
  if (file.find("/site-packages/") != std::string_view::npos) return false;
  if (file.find("/dist-packages/") != std::string_view::npos) return false;
  if (file.find("/lib/python") != std::string_view::npos) return false;
  return true;
}

// A function's name without its return type and parameters: "cudaError cudaLaunchKernel<char>(
// char const*, ...)" -> "cudaLaunchKernel<char>".
std::string_view BareName(std::string_view function) {
  function = function.substr(0, function.find('('));
  const std::size_t template_start = function.find('<');
  const std::size_t space = function.substr(0, template_start).rfind(' ');
  return space == std::string_view::npos ? function : function.substr(space + 1);
}

// The CUDA runtime linked into the program (nvcc links it statically by default) and the launch
// stubs nvcc generates for `kernel<<<...>>>`: the user's frame is their caller.
bool IsCudaRuntimeFunction(std::string_view function) {
  const std::string_view name = BareName(function);
  constexpr std::array<std::string_view, 4> kPrefixes = {"cuda", "__cudart", "__device_stub",
                                                         "cudart::"};
  for (std::string_view prefix : kPrefixes) {
    if (name.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

// The driver, the runtime, CUDA's libraries, CUPTI, gpuscope and the C library's start-up.
bool IsUserNative(const StoredFrame& frame) {
  if (IsCudaRuntimeFunction(frame.function)) return false;
  const std::string_view module = BaseName(frame.module);
  if (module.empty()) return !frame.function.empty();  // unsymbolized: nothing to go by
  constexpr std::array<std::string_view, 7> kLibraries = {
      "libcuda.", "libcudart", "libcupti", "libgpuscope", "libnv", "libcu", "libc.so"};
  for (std::string_view prefix : kLibraries) {
    if (module.substr(0, prefix.size()) == prefix) return false;
  }
  return true;
}

std::string Hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace

std::size_t CallSiteFrame(const std::vector<StoredFrame>& stack) {
  std::size_t fallback = stack.size();
  for (std::size_t i = 0; i < stack.size(); ++i) {
    const StoredFrame& frame = stack[i];
    if (frame.kind == model::FrameKind::kPython) {
      if (IsUserPython(frame.file)) return i;
      if (fallback == stack.size()) fallback = i;
    } else if (IsUserNative(frame)) {
      return i;
    }
  }
  return fallback == stack.size() ? 0 : fallback;
}

std::string FrameLabel(const StoredFrame& frame) {
  if (frame.kind == model::FrameKind::kPython) {
    return std::string(BaseName(frame.file)) + ":" + std::to_string(frame.line) + " " +
           frame.function;
  }
  std::string where;
  if (!frame.file.empty()) {
    where = std::string(BaseName(frame.file)) + ":" + std::to_string(frame.line);
  } else if (!frame.module.empty()) {
    where = std::string(BaseName(frame.module));
  }
  if (frame.function.empty()) {
    return where.empty() ? Hex(frame.address) : Hex(frame.address) + " (" + where + ")";
  }
  return where.empty() ? frame.function : frame.function + " (" + where + ")";
}

std::string CallSiteLabel(const std::vector<StoredFrame>& stack) {
  if (stack.empty()) return "[no call stack]";
  return FrameLabel(stack[CallSiteFrame(stack)]);
}

std::string StackText(const std::vector<StoredFrame>& stack, std::size_t max_frames) {
  std::string text;
  std::size_t shown = 0;
  for (std::size_t i = CallSiteFrame(stack); i < stack.size(); ++i) {
    if (shown == max_frames) return text + " < ...";
    if (shown++ > 0) text += " < ";
    text += FrameLabel(stack[i]);
  }
  return text;
}

}  // namespace gpuscope::analysis
