// The injection library's entry points, the only symbols it exports (exports.map). The CUDA
// driver dlopens libgpuscope_inject.so (CUDA_INJECTION64_PATH) inside cuInit and calls
// InitializeInjection; NVTX dlopens it (NVTX_INJECTION64_PATH) at its first call and calls
// InitializeInjectionNvtx2, which goes on to the CUPTI gpuscope uses (cupti/tracing/nvtx_injection.h).
#include <atomic>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>

#include "cupti/cupti_backend.h"
#include "cupti/tracing/nvtx_injection.h"
#include "inject/config.h"
#include "inject/log.h"
#include "inject/process_hooks.h"
#include "inject/session.h"
#include "store/report_writer.h"

namespace {

using gpuscope::Status;
using gpuscope::StatusOr;

gpuscope::inject::SinkFactory ReportWriterFactory(gpuscope::ReportPermissions permissions) {
  gpuscope::inject::SinkFactory factory;
  factory.create = [permissions](
                       const std::string& path,
                       bool overwrite) -> StatusOr<std::unique_ptr<gpuscope::model::RecordSink>> {
    auto writer = gpuscope::store::ReportWriter::Create(path, overwrite, permissions);
    if (!writer.ok()) return writer.status();
    // A full disk or an I/O error: said once, when it happens, on the writer's thread; the
    // program runs on and the writer only counts from then on.
    (*writer)->set_failure_observer(
        [](const std::string& message) { gpuscope::inject::LogError(message); });
    return std::unique_ptr<gpuscope::model::RecordSink>(std::move(*writer));
  };
  factory.close = [](gpuscope::model::RecordSink& sink) -> Status {
    auto& writer = static_cast<gpuscope::store::ReportWriter&>(sink);
    Status closed = writer.Close();
    // The error itself was said when it happened; the end says how much it cost.
    if (writer.records_not_written() != 0) return Status::Error(writer.LossSummary());
    return closed;
  };
  return factory;
}

void Initialize() {
  using namespace gpuscope::inject;
  InjectionConfig config = ReadInjectionConfig([](const char* name) { return std::getenv(name); });
  SetDebugLogging(config.debug);
  LogDebug("InitializeInjection");
  std::unique_ptr<Session> session = Session::Begin(config, gpuscope::cupti::MakeCuptiBackend(),
                                                    ReportWriterFactory(config.report_permissions));
  if (!session) return;
  // The session lives until the process ends: CUPTI calls into it until the very end.
  Session* process_session = session.release();
  Status hooks = InstallProcessHooks(process_session);
  if (!hooks.ok()) LogError(hooks.message());
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  // The driver may call us more than once (several cuInit calls, a re-exec'd child that
  // inherits nothing but the environment calls its own copy): only the first call counts.
  static std::atomic<bool> initialized{false};
  if (initialized.exchange(true)) return 1;
  try {
    Initialize();
  } catch (const std::exception& error) {
    gpuscope::inject::LogError(std::string("initialisation failed: ") + error.what() +
                               "; this process is not traced");
  } catch (...) {
    gpuscope::inject::LogError("initialisation failed; this process is not traced");
  }
  // 1 whatever happened: the program must run, traced or not.
  return 1;
}

// NVTX's entry point (nvtxInitDecls.h: int (*)(NvtxGetExportTableFunc_t)); non-zero: NVTX calls
// the tool from now on. May come before InitializeInjection (NVTX calls before the first CUDA
// call): the forwarding needs nothing of the session.
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    const void* get_export_table) {
  try {
    // Its debug line too when NVTX comes first (InitializeInjection sets the same again).
    using namespace gpuscope::inject;
    if (ReadInjectionConfig([](const char* name) { return std::getenv(name); }).debug) {
      SetDebugLogging(true);
    }
  } catch (...) {
  }
  return gpuscope::cupti::ForwardNvtxInjection(get_export_table);
}
