// The cubins of the modules the program loads, kept while source counters are asked for, so
// that the report can carry the cubin of each profiled function (its SASS and line table are
// read from it after the run, on any machine). JIT-compiled code (Numba, CuPy, Triton, NVRTC)
// exists nowhere else. Keyed by CUPTI's cubin CRC, which SASS-metric and PC-sampling records
// carry.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

namespace gpuscope::cupti {

class ModuleCubins {
 public:
  using Image = std::shared_ptr<const std::vector<std::uint8_t>>;

  // A module was loaded (CUPTI_CBID_RESOURCE_MODULE_LOADED): copies its cubin, if it is one
  // (an ELF image; PTX-only modules have none until JIT-compiled, which loads another).
  void OnModuleLoaded(const void* cubin, std::size_t size);

  // The image with `crc` the first time it is asked for (so a report stores each cubin once);
  // nullptr when it was given before or never seen.
  Image TakeForReport(std::uint64_t crc);
  bool Knows(std::uint64_t crc) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::uint64_t, Image> images_;
  std::set<std::uint64_t> given_;
};

}  // namespace gpuscope::cupti
