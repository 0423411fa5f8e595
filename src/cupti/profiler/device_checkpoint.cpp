#include "cupti/profiler/device_checkpoint.h"

#include <cupti_checkpoint.h>
#include <dlfcn.h>

#include <mutex>
#include <string>

#include "cupti/common/cupti_error.h"

namespace gpuscope::cupti {

using NV::Cupti::Checkpoint::CUpti_Checkpoint;
using CheckpointCall = CUptiResult (*)(CUpti_Checkpoint*);

// Outside the anonymous namespace: DeviceCheckpoint::Handle, which has linkage, holds one.
struct CheckpointLibrary {
  CheckpointCall save = nullptr;
  CheckpointCall restore = nullptr;
  CheckpointCall free = nullptr;
};

namespace {

StatusOr<const CheckpointLibrary*> Library() {
  static std::once_flag once;
  static StatusOr<const CheckpointLibrary*> found = Status::Error("not looked up");
  std::call_once(once, [] {
    // The launcher puts CUPTI's directory on LD_LIBRARY_PATH (src/contract/README.md).
    void* library = dlopen("libcheckpoint.so", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
      found = Status::Error("CUPTI's checkpoint library (libcheckpoint.so, beside libcupti) "
                            "cannot be loaded");
      return;
    }
    static CheckpointLibrary calls;
    calls.save = reinterpret_cast<CheckpointCall>(dlsym(library, "cuptiCheckpointSave"));
    calls.restore = reinterpret_cast<CheckpointCall>(dlsym(library, "cuptiCheckpointRestore"));
    calls.free = reinterpret_cast<CheckpointCall>(dlsym(library, "cuptiCheckpointFree"));
    if (calls.save == nullptr || calls.restore == nullptr || calls.free == nullptr) {
      found = Status::Error("CUPTI's checkpoint library lacks cuptiCheckpointSave/Restore/Free");
      return;
    }
    found = &calls;
  });
  return found;
}

}  // namespace

struct DeviceCheckpoint::Handle {
  const CheckpointLibrary* calls = nullptr;
  CUpti_Checkpoint checkpoint{};
};

DeviceCheckpoint::DeviceCheckpoint(std::unique_ptr<Handle> handle) : handle_(std::move(handle)) {}

DeviceCheckpoint::~DeviceCheckpoint() {
  if (handle_ != nullptr) handle_->calls->free(&handle_->checkpoint);
}

StatusOr<std::unique_ptr<DeviceCheckpoint>> DeviceCheckpoint::Save(CUcontext context) {
  StatusOr<const CheckpointLibrary*> calls = Library();
  if (!calls.ok()) return calls.status();
  auto handle = std::make_unique<Handle>();
  handle->calls = *calls;
  handle->checkpoint.structSize = CUpti_Checkpoint_STRUCT_SIZE;
  handle->checkpoint.ctx = context;
  // Device memory first, host memory when the device is too full: CUPTI's defaults.
  handle->checkpoint.optimizations = NV::Cupti::Checkpoint::CUPTI_CHECKPOINT_OPT_NONE;
  CUptiResult result = handle->calls->save(&handle->checkpoint);
  if (result != CUPTI_SUCCESS) {
    return Status::Error("saving device memory (cuptiCheckpointSave) failed: " +
                         CuptiResultName(result));
  }
  return std::unique_ptr<DeviceCheckpoint>(new DeviceCheckpoint(std::move(handle)));
}

Status DeviceCheckpoint::Restore() {
  CUptiResult result = handle_->calls->restore(&handle_->checkpoint);
  if (result != CUPTI_SUCCESS) {
    return Status::Error("restoring device memory (cuptiCheckpointRestore) failed: " +
                         CuptiResultName(result));
  }
  return Status();
}

}  // namespace gpuscope::cupti
