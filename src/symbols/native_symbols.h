// Native return addresses of a traced process turned into function, file and line, after the
// run, with elfutils (libdwfl) reading the ELF files the process had mapped (its module map,
// recorded in the report). CUPTI-free and report-free: addresses and modules in, symbols out.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gpuscope::symbols {

// An object the process had mapped: [start, end) held its segments, `bias` was added to its
// ELF addresses.
struct Module {
  std::string path;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint64_t bias = 0;
};

struct Symbol {
  int module = -1;       // index into the modules given; -1: the address is in none of them
  std::string function;  // demangled; empty: no symbol covers the address
  std::string file;      // source file of the call; empty: no line information
  std::uint32_t line = 0;
};

// One Symbol per address, in order. The addresses are return addresses: the call is the
// instruction before, so that is what is looked up (the line of the call, not of the next
// statement). A module whose file is gone or unreadable here leaves its addresses with the
// module only. Never fails.
std::vector<Symbol> Symbolize(std::span<const Module> modules,
                              std::span<const std::uint64_t> addresses);

}  // namespace gpuscope::symbols
