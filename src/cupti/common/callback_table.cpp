#include "cupti/common/callback_table.h"

namespace gpuscope::cupti {
namespace {

// Constant-initialised and trivially destructible: callbacks that come after this library's
// static destructors ran still find it.
constinit CallbackTable g_process_table;

std::size_t IndexOf(CallbackSlot slot) { return static_cast<std::size_t>(slot); }

}  // namespace

const CUpti_CallbackData* ApiCallbackData(CUpti_CallbackDomain domain, const void* data) {
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return nullptr;
  return static_cast<const CUpti_CallbackData*>(data);
}

bool CallbackTable::Register(CallbackSlot slot, CallbackHandler& handler) {
  CallbackHandler* none = nullptr;
  return slots_[IndexOf(slot)].compare_exchange_strong(none, &handler, std::memory_order_acq_rel);
}

bool CallbackTable::Registered(CallbackSlot slot) const {
  return slots_[IndexOf(slot)].load(std::memory_order_acquire) != nullptr;
}

void CallbackTable::Dispatch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                             const void* data) noexcept {
  if (ignoring_.load(std::memory_order_acquire) || data == nullptr) return;
  try {
    for (std::atomic<CallbackHandler*>& slot : slots_) {
      CallbackHandler* handler = slot.load(std::memory_order_acquire);
      if (handler != nullptr && handler->Handle(domain, cbid, data)) return;
    }
  } catch (...) {
    // Never into the program's CUDA call; the later handlers miss this one callback.
  }
}

void CallbackTable::IgnoreFromNowOn() { ignoring_.store(true, std::memory_order_release); }

CallbackTable& ProcessCallbackTable() { return g_process_table; }

}  // namespace gpuscope::cupti
