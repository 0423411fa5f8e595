#include "cupti/common/api_names.h"

#include <cupti.h>

namespace gpuscope::cupti {
namespace {

// CUPTI's largest callback ids are a few hundred (runtime) to about a thousand (driver);
// anything far beyond is garbage, not a reason to grow a table.
constexpr std::uint32_t kMaxCachedCbid = 1u << 16;

bool EndsWithVersion(std::string_view name, std::size_t& token_start) {
  std::size_t i = name.size();
  while (i > 0 && name[i - 1] >= '0' && name[i - 1] <= '9') --i;
  if (i == name.size() || i < 2 || name[i - 1] != 'v' || name[i - 2] != '_') return false;
  token_start = i - 2;
  return true;
}

}  // namespace

std::string_view StripApiVersionSuffix(std::string_view name) {
  for (;;) {
    std::size_t token_start = 0;
    if (EndsWithVersion(name, token_start) && token_start > 0) {
      name = name.substr(0, token_start);
      continue;
    }
    bool stripped = false;
    for (std::string_view suffix : {std::string_view("_ptds"), std::string_view("_ptsz")}) {
      if (name.size() > suffix.size() && name.ends_with(suffix)) {
        name.remove_suffix(suffix.size());
        stripped = true;
      }
    }
    if (!stripped) return name;
  }
}

std::string ApiName(model::ApiDomain domain, std::uint32_t cbid) {
  const char* raw = nullptr;
  CUpti_CallbackDomain cupti_domain = domain == model::ApiDomain::kRuntime
                                          ? CUPTI_CB_DOMAIN_RUNTIME_API
                                          : CUPTI_CB_DOMAIN_DRIVER_API;
  if (cuptiGetCallbackName(cupti_domain, cbid, &raw) == CUPTI_SUCCESS && raw != nullptr) {
    return std::string(StripApiVersionSuffix(raw));
  }
  // Never an empty name: the summary would show a blank row.
  return (domain == model::ApiDomain::kRuntime ? "cudaUnknownApi_" : "cuUnknownApi_") +
         std::to_string(cbid);
}

std::string_view ApiNameCache::Lookup(model::ApiDomain domain, std::uint32_t cbid) {
  storage_.push_back(ApiName(domain, cbid));
  return storage_.back();
}

std::string_view ApiNameCache::Name(model::ApiDomain domain, std::uint32_t cbid) {
  if (cbid >= kMaxCachedCbid) {
    return domain == model::ApiDomain::kRuntime ? "cudaUnknownApi" : "cuUnknownApi";
  }
  std::vector<std::string_view>& table = domain == model::ApiDomain::kRuntime ? runtime_ : driver_;
  if (cbid >= table.size()) table.resize(cbid + 1);
  if (table[cbid].empty()) table[cbid] = Lookup(domain, cbid);
  return table[cbid];
}

}  // namespace gpuscope::cupti
