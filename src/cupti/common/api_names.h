// Names of CUDA API calls as users know them. CUPTI's callback names carry version and
// stream-mode suffixes ("cudaMalloc_v3020", "cuMemAlloc_v2", "cudaMemcpy_ptds_v7000",
// "cuMemcpyHtoD_v2_ptds"); nvprof and nsys print the bare name.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "model/records.h"

namespace gpuscope::cupti {

// Strips trailing "_v<digits>", "_ptds" and "_ptsz" tokens, in any order and number.
std::string_view StripApiVersionSuffix(std::string_view name);

// cuptiGetCallbackName, stripped, uncached ("cuUnknownApi_<cbid>" when CUPTI has no name): for
// any thread.
std::string ApiName(model::ApiDomain domain, std::uint32_t cbid);

// cuptiGetCallbackName, stripped, cached per (domain, cbid): one lookup per distinct API,
// then a vector index. The views stay valid as long as the cache (API records are held by
// the nesting logic beyond their buffer's life). Writer thread only.
class ApiNameCache {
 public:
  std::string_view Name(model::ApiDomain domain, std::uint32_t cbid);

 private:
  std::string_view Lookup(model::ApiDomain domain, std::uint32_t cbid);

  std::vector<std::string_view> runtime_;
  std::vector<std::string_view> driver_;
  std::deque<std::string> storage_;  // deque: growing never moves stored strings
};

}  // namespace gpuscope::cupti
