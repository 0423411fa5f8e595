#include "inject/background_thread.h"

#include <pthread.h>
#include <signal.h>

#include <cstring>
#include <exception>
#include <string>
#include <system_error>

namespace gpuscope::inject {

Status StartBackgroundThread(const char* name, std::function<void()> body, std::thread& thread) {
  // A new thread inherits the creator's signal mask: block everything around the creation,
  // then restore the caller's mask. Except the faults a thread raises itself: blocked, the
  // kernel still kills the process with them, but past every handler (the program's crash
  // reporter, Python's faulthandler), so a fault in gpuscope's thread would leave no trace.
  sigset_t all;
  sigset_t previous;
  sigfillset(&all);
  for (int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP}) sigdelset(&all, fault);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  Status status;
  try {
    thread = std::thread([name, body = std::move(body)] {
      pthread_setname_np(pthread_self(), name);
      body();
    });
  } catch (const std::system_error& error) {
    status = Status::Error(std::string("cannot start thread ") + name + ": " + error.what());
  } catch (...) {
    status = Status::Error(std::string("cannot start thread ") + name);
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return status;
}

}  // namespace gpuscope::inject
