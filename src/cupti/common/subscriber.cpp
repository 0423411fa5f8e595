#include "cupti/common/subscriber.h"

#include <dlfcn.h>

#include <string>

#include "cupti/common/callback_table.h"
#include "cupti/common/cupti_error.h"
#include "inject/log.h"

namespace gpuscope::cupti {
namespace {

CUpti_SubscriberHandle g_subscriber = nullptr;

std::string LoadedCuptiPath() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cuptiGetVersion), &info) != 0 && info.dli_fname != nullptr) {
    return info.dli_fname;
  }
  return "libcupti";
}

// Runs on the program's threads, inside CUDA calls: the table lets nothing escape it.
void CUPTIAPI OnCallback(void* /*userdata*/, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                         const void* data) {
  ProcessCallbackTable().Dispatch(domain, cbid, data);
}

}  // namespace

Status Subscribe() {
  std::uint32_t version = 0;
  CUptiResult result = cuptiGetVersion(&version);
  if (result != CUPTI_SUCCESS) {
    return Status::Error("cannot query the CUPTI version (" + CuptiResultName(result) +
                         "); gpuscope stands down and records nothing");
  }
  if (version < CUPTI_API_VERSION) {
    return Status::Error("the CUPTI loaded in this process (" + LoadedCuptiPath() +
                         ", API version " + std::to_string(version) +
                         ") is older than the version " + std::to_string(CUPTI_API_VERSION) +
                         " gpuscope was built against; gpuscope stands down and records nothing");
  }
  char previous_owner[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN + 1] = {};
  CUpti_SubscriberParams params{};
  params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
  params.subscriberName = "gpuscope";
  params.oldSubscriberName = previous_owner;
  params.oldSubscriberSize = CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN;
  result = cuptiSubscribe_v2(&g_subscriber, OnCallback, nullptr, &params);
  if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    // CUPTI writes "CUPTI for <name>", or "CUPTI for <not provided>" for a client that
    // subscribed without a name (the old cuptiSubscribe).
    std::string owner = previous_owner;
    if (owner.empty() || owner.find("<not provided>") != std::string::npos) {
      owner = "another CUPTI client (" + (owner.empty() ? std::string("unnamed") : owner) + ")";
    }
    return Status::Error("CUPTI is already in use by " + owner +
                         " in this process; gpuscope stands down and records nothing");
  }
  if (result != CUPTI_SUCCESS) {
    return Status::Error("CUPTI could not start (cuptiSubscribe_v2: " + CuptiResultName(result) +
                         "); gpuscope records nothing in this process");
  }
  inject::LogDebug("subscribed to CUPTI " + std::to_string(version) + " (" + LoadedCuptiPath() +
                   ")");
  return Status();
}

void Unsubscribe() {
  if (g_subscriber == nullptr) return;
  cuptiUnsubscribe(g_subscriber);
  g_subscriber = nullptr;
}

CUpti_SubscriberHandle Subscriber() { return g_subscriber; }

Status EnableCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const char* what) {
  return CuptiStatus(cuptiEnableCallback(1, g_subscriber, domain, cbid), what);
}

DriverCallbacksOn::DriverCallbacksOn(std::span<const CUpti_CallbackId> cbids) {
  if (g_subscriber == nullptr) {
    status_ = Status::Error("CUPTI is not subscribed");
    return;
  }
  for (CUpti_CallbackId cbid : cbids) {
    std::uint32_t on = 0;
    status_ = CuptiStatus(cuptiGetCallbackState(&on, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid),
                          "cuptiGetCallbackState");
    if (!status_.ok()) return;
    if (on != 0) continue;  // the kernel profiler's launch callbacks: left on after the scope
    status_ = EnableCallback(CUPTI_CB_DOMAIN_DRIVER_API, cbid,
                             "enabling the callbacks of gpuscope's own calls");
    if (!status_.ok()) return;
    enabled_.push_back(cbid);
  }
}

DriverCallbacksOn::~DriverCallbacksOn() {
  for (CUpti_CallbackId cbid : enabled_) {
    cuptiEnableCallback(0, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid);
  }
}

}  // namespace gpuscope::cupti
