#include "analysis/call_sites.h"

#include <array>
#include <cstdio>
#include <string_view>

#include "util/demangle.h"

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

// The CUDA runtime linked into the program (nvcc links it statically by default), the helpers
// CUDA's headers inline into it (`__cudaLaunchKernel_helper`, `__cudaPushCallConfiguration`) and
// the launch stubs nvcc generates for `kernel<<<...>>>`: the user's frame is their caller.
bool IsCudaRuntimeFunction(std::string_view function) {
  const std::string_view name = BareName(function);
  constexpr std::array<std::string_view, 4> kPrefixes = {"cuda", "__cuda", "__device_stub",
                                                         "cudart::"};
  for (std::string_view prefix : kPrefixes) {
    if (name.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

// The host stubs nvcc generates into the program (`*.cudafe1.stub.c`).
bool IsNvccStub(std::string_view file) { return file.ends_with(".stub.c"); }

// nvcc's host function named after a kernel (`scale(float*, int, float)`, which `scale<<<>>>`
// calls) calls the kernel's stub `__device_stub__Z5scalePfif`: the stub's name is the kernel's
// mangled name behind "__device_stub_", so the function just outside a stub frame with that name
// demangled is nvcc's, although its line is the kernel's definition (#line in the stub file).
std::string KernelHostFunctionOf(const StoredFrame& stub) {
  constexpr std::string_view kStub = "__device_stub_";
  const std::string_view name = BareName(stub.function);
  if (name.substr(0, kStub.size()) != kStub) return {};
  return Demangle(name.substr(kStub.size()));
}

// The driver, the runtime, CUDA's libraries, CUPTI, gpuscope and the C library: never a call
// site, not even a fallback.
bool IsCudaOrTool(const StoredFrame& frame) {
  if (IsCudaRuntimeFunction(frame.function) || IsNvccStub(frame.file)) return true;
  const std::string_view module = BaseName(frame.module);
  constexpr std::array<std::string_view, 7> kLibraries = {
      "libcuda.", "libcudart", "libcupti", "libgpuscope", "libnv", "libcu", "libc.so"};
  for (std::string_view prefix : kLibraries) {
    if (module.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

// A framework's native code (PyTorch's dispatcher and kernels, CuPy's and Numba's extension
// modules, the Python interpreter): a call site only when nothing of the user's is on the stack,
// as on autograd's backward thread, which runs no Python.
bool IsFrameworkNative(const StoredFrame& frame) {
  const std::string_view module = frame.module;
  if (module.find("/site-packages/") != std::string_view::npos ||
      module.find("/dist-packages/") != std::string_view::npos) {
    return true;
  }
  const std::string_view base = BaseName(module);
  constexpr std::array<std::string_view, 6> kLibraries = {"libtorch", "libc10",   "libcaffe2",
                                                          "libpython", "python3", "libffi"};
  for (std::string_view prefix : kLibraries) {
    if (base.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

std::string Hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace

std::size_t CallSiteFrame(const std::vector<StoredFrame>& stack) {
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t library_python = kNone, framework_native = kNone;
  for (std::size_t i = 0; i < stack.size(); ++i) {
    const StoredFrame& frame = stack[i];
    if (i > 0 && frame.kind == model::FrameKind::kNative && !frame.function.empty() &&
        frame.function == KernelHostFunctionOf(stack[i - 1])) {
      continue;
    }
    if (frame.kind == model::FrameKind::kPython) {
      if (IsUserPython(frame.file)) return i;
      if (library_python == kNone) library_python = i;
    } else if (!IsCudaOrTool(frame)) {
      if (!IsFrameworkNative(frame)) {
        // Unsymbolized frames outside a known module give nothing to go by: not the user's.
        if (!frame.function.empty() || !frame.module.empty()) return i;
      } else if (framework_native == kNone) {
        framework_native = i;
      }
    }
  }
  if (library_python != kNone) return library_python;
  return framework_native != kNone ? framework_native : 0;
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
