#include "inject/exit_hooks.h"

#include <dlfcn.h>

#include <cstdlib>

#include "inject/log.h"

namespace gpuscope::inject {
namespace {

using PyAtExitFunction = int (*)(void (*)());
using PyIsInitializedFunction = int (*)();

// Registers with Python's exit when Python runs here; logs why not otherwise.
void RegisterWithPython(void (*hook)()) {
  auto at_exit = reinterpret_cast<PyAtExitFunction>(dlsym(RTLD_DEFAULT, "Py_AtExit"));
  if (at_exit == nullptr) return;  // no Python in this process
  auto initialized =
      reinterpret_cast<PyIsInitializedFunction>(dlsym(RTLD_DEFAULT, "Py_IsInitialized"));
  if (initialized == nullptr || initialized() == 0) {
    LogDebug("Python is loaded but not running: only the C exit handler is registered");
    return;
  }
  if (at_exit(hook) != 0) {
    LogError(
        "cannot register with Python's exit (its table is full); after an uncaught "
        "KeyboardInterrupt the report holds only what was flushed before it");
    return;
  }
  LogDebug("end of session registered with Py_AtExit too");
}

}  // namespace

Status RegisterExitHook(void (*hook)()) {
  if (std::atexit(hook) != 0) {
    return Status::Error(
        "cannot register the exit handler; the report is only complete up to the last "
        "periodic flush");
  }
  RegisterWithPython(hook);
  return Status();
}

}  // namespace gpuscope::inject
