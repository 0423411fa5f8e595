// C++ symbol demangling for kernel names (nvcc emits Itanium-ABI names).
#pragma once

#include <string>
#include <string_view>

namespace gpuscope {

// The demangled form of `mangled` with its parameter list ("add(int, int, int*)"), or
// `mangled` itself when it is not a mangled C++ name (extern "C" kernels, Triton, ...).
std::string Demangle(std::string_view mangled);

// The function name without its parameter list or return type
// ("void ns::add<int>(int*)" -> "ns::add<int>"); Nsight Compute's "function" name base.
std::string FunctionBaseName(std::string_view demangled);

}  // namespace gpuscope
