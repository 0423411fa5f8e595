// A saved copy of a context's device memory (CUPTI's checkpoint API, cupti_checkpoint.h), so
// that gpuscope can run a launch again for its source counters and put memory back before the
// program's own launch runs: the program's results stay what they would have been.
//
// CUPTI ships the API in its own library (libcheckpoint.so beside libcupti), opened here when
// first needed: a process that never asks for source counters never loads it.
#pragma once

#include <cuda.h>

#include <memory>

#include "util/status.h"

namespace gpuscope::cupti {

class DeviceCheckpoint {
 public:
  // Saves `context`'s device memory (waits for its work first).
  static StatusOr<std::unique_ptr<DeviceCheckpoint>> Save(CUcontext context);
  ~DeviceCheckpoint();  // frees the copy
  DeviceCheckpoint(const DeviceCheckpoint&) = delete;
  DeviceCheckpoint& operator=(const DeviceCheckpoint&) = delete;

  // Puts the saved memory back (as often as needed).
  Status Restore();

 private:
  struct Handle;
  explicit DeviceCheckpoint(std::unique_ptr<Handle> handle);
  std::unique_ptr<Handle> handle_;
};

}  // namespace gpuscope::cupti
