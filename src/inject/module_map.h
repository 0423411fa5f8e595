// The objects mapped into this process (the program and its shared libraries), with the
// address range, load bias and GNU build id of each: what the CLI needs to symbolise native
// return addresses after the run (`--backtrace`). Read from the dynamic linker's list
// (dl_iterate_phdr) and the objects' notes in memory; no file is opened.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpuscope::inject {

struct LoadedModule {
  std::string path;         // absolute where the linker knows it; the program's from /proc/self/exe
  std::uint64_t start = 0;  // lowest mapped address of its loadable segments
  std::uint64_t end = 0;    // one past the highest
  std::uint64_t bias = 0;   // added to the object's ELF addresses
  std::string build_id;     // lower-case hex; empty without a build-id note
};

// Objects without a path on disk (the vDSO) are left out.
std::vector<LoadedModule> LoadedModules();

}  // namespace gpuscope::inject
