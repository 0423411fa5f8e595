#include "cupti/profiler/module_cubins.h"

#include <cupti.h>
#include <cupti_pcsampling.h>

#include <cstring>

namespace gpuscope::cupti {

void ModuleCubins::OnModuleLoaded(const void* cubin, std::size_t size) {
  if (cubin == nullptr || size < 4 || std::memcmp(cubin, "\x7f" "ELF", 4) != 0) return;
  CUpti_GetCubinCrcParams params{};
  params.size = CUpti_GetCubinCrcParamsSize;
  params.cubin = cubin;
  params.cubinSize = size;
  if (cuptiGetCubinCrc(&params) != CUPTI_SUCCESS) return;
  const auto* bytes = static_cast<const std::uint8_t*>(cubin);
  // Copied now: the pointer is valid only during the callback.
  auto image = std::make_shared<const std::vector<std::uint8_t>>(bytes, bytes + size);
  std::lock_guard<std::mutex> lock(mutex_);
  images_.emplace(params.cubinCrc, std::move(image));
}

ModuleCubins::Image ModuleCubins::TakeForReport(std::uint64_t crc) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = images_.find(crc);
  if (found == images_.end() || !given_.insert(crc).second) return nullptr;
  return found->second;
}

bool ModuleCubins::Knows(std::uint64_t crc) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return images_.count(crc) != 0;
}

}  // namespace gpuscope::cupti
