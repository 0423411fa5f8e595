#include "cupti/tracing/backtrace_sites.h"

#include <atomic>
#include <string>
#include <vector>

#include "cupti/common/api_names.h"
#include "cupti/common/cupti_error.h"
#include "cupti/tracing/activity.h"

namespace gpuscope::cupti {
namespace {

// Filled once by EnableBacktraceSites before any callback is enabled, read-only afterwards.
std::vector<bool>* g_runtime_sites = nullptr;
std::vector<bool>* g_driver_sites = nullptr;
std::atomic<inject::CallStacks*> g_stacks{nullptr};
// Runtime calls of this thread that took a stack and have not returned (their driver calls
// take none).
thread_local int t_open_runtime_sites = 0;

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

std::vector<bool>* SitesOf(CUpti_CallbackDomain domain, std::uint32_t count) {
  auto* sites = new std::vector<bool>(count, false);
  for (std::uint32_t cbid = 0; cbid < count; ++cbid) {
    const char* raw = nullptr;
    if (cuptiGetCallbackName(domain, cbid, &raw) == CUPTI_SUCCESS && raw != nullptr) {
      (*sites)[cbid] = IsBacktraceSite(StripApiVersionSuffix(raw));
    }
  }
  return sites;
}

bool Chosen(const std::vector<bool>* sites, CUpti_CallbackId cbid) {
  return sites != nullptr && cbid < sites->size() && (*sites)[cbid];
}

bool TakeStackAtSite(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  const CUpti_CallbackData* api = ApiCallbackData(domain, data);
  if (api == nullptr) return false;
  inject::CallStacks* stacks = g_stacks.load(std::memory_order_acquire);
  if (stacks == nullptr) return false;
  const bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
  if (!Chosen(runtime ? g_runtime_sites : g_driver_sites, cbid)) return false;
  if (api->callbackSite == CUPTI_API_EXIT) {
    if (runtime && t_open_runtime_sites > 0) --t_open_runtime_sites;
    return false;
  }
  if (runtime) {
    ++t_open_runtime_sites;
  } else if (t_open_runtime_sites > 0) {
    return false;  // made by the runtime call, whose stack is the program's
  }
  // No API record will come for a call made while recording is off (cudaProfilerStop).
  if (!TracingKindsEnabled()) return false;
  stacks->Capture(api->correlationId);
  return false;
}

constinit CallbackFunction g_backtrace_site_callbacks{&TakeStackAtSite};

}  // namespace

bool IsBacktraceSite(std::string_view name) {
  if (name.find("HostFunc") != std::string_view::npos) return false;  // runs no GPU work
  constexpr std::string_view kPrefixes[] = {
      "cudaLaunch", "cudaGraphLaunch", "cudaMemcpy", "cudaMemset",
      "cuLaunch",   "cuGraphLaunch",   "cuMemcpy",   "cuMemset",
  };
  for (std::string_view prefix : kPrefixes) {
    if (StartsWith(name, prefix)) return true;
  }
  constexpr std::string_view kWaits[] = {
      "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize",
      "cudaThreadSynchronize", "cuCtxSynchronize",      "cuStreamSynchronize",
      "cuEventSynchronize",
  };
  for (std::string_view wait : kWaits) {
    if (name == wait) return true;
  }
  return false;
}

Status EnableBacktraceSites(CUpti_SubscriberHandle subscriber, inject::CallStacks& stacks) {
  if (g_runtime_sites == nullptr) {
    g_runtime_sites = SitesOf(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE);
    g_driver_sites = SitesOf(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE);
  }
  g_stacks.store(&stacks, std::memory_order_release);
  for (auto [domain, sites] : {std::pair{CUPTI_CB_DOMAIN_RUNTIME_API, g_runtime_sites},
                               std::pair{CUPTI_CB_DOMAIN_DRIVER_API, g_driver_sites}}) {
    for (std::uint32_t cbid = 0; cbid < sites->size(); ++cbid) {
      if (!(*sites)[cbid]) continue;
      GPUSCOPE_RETURN_IF_ERROR(CuptiStatus(cuptiEnableCallback(1, subscriber, domain, cbid),
                                           "enabling the --backtrace callbacks"));
    }
  }
  return Status();
}

CallbackHandler& BacktraceSiteCallbacks() { return g_backtrace_site_callbacks; }

}  // namespace gpuscope::cupti
