#include "cli/commands/view_command.h"

#include <signal.h>

#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>

#include "cli/options/align_option.h"
#include "cli/options/command_prologue.h"
#include "cli/options/option_parser.h"
#include "cli/options/option_targets.h"
#include "cli/output/exit_codes.h"
#include "cli/reports/report_preparation.h"
#include "viewer/axis_alignment.h"
#include "viewer/http_server.h"
#include "viewer/viewer_data.h"
#include "viewer/viewer_routes.h"
#include "viewer/web_assets.h"

namespace gpuscope::cli {
namespace {

struct ViewOptions {
  std::uint16_t port = 0;
  std::uint32_t exit_after_seconds = 0;  // 0: until Ctrl-C
  viewer::AxisAlignment align;
  bool help = false;
  std::vector<std::string> reports;
};

template <typename T>
Status ParseNumber(const ParsedOption& option, T max, T& value) {
  const std::string& text = option.value;
  std::uint64_t parsed = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
  if (error != std::errc() || end != text.data() + text.size() || text.empty() || parsed > max) {
    return Status::Error("option '" + option.spelling + "' expects a number from 0 to " +
                         std::to_string(max) + ", not '" + text + "'");
  }
  value = static_cast<T>(parsed);
  return {};
}

std::vector<OptionSpec> ViewOptionSpecs(ViewOptions& options) {
  return {
      {"port", 'p', "N", "port to listen on (default: a free port)",
       [&options](const ParsedOption& option) {
         return ParseNumber<std::uint16_t>(option, 65535, options.port);
       }},
      {"exit-after-seconds", 0, "S", "stop serving after S seconds (for scripts and tests)",
       [&options](const ParsedOption& option) {
         GPUSCOPE_RETURN_IF_ERROR(
             ParseNumber<std::uint32_t>(option, 24u * 3600, options.exit_after_seconds));
         // 0 would mean "until Ctrl-C", the same as leaving the option out: asking for it
         // and getting a server that never stops would be a silent surprise.
         if (options.exit_after_seconds == 0) {
           return Status::Error("option '" + option.spelling +
                                "' needs at least 1 second (leave it out to serve until Ctrl-C)");
         }
         return Status();
       }},
      AlignOption(options.align),
      {"help", 'h', "", "show this help", SetFlag(options.help)},
  };
}

StatusOr<ViewOptions> ParseViewOptions(std::span<const std::string> args) {
  ViewOptions options;
  StatusOr<std::vector<std::string>> reports =
      ParseReportsCommandLine(ViewOptionSpecs(options), args, options.help);
  if (!reports.ok()) return reports.status();
  options.reports = std::move(*reports);
  return options;
}

volatile std::sig_atomic_t stop_requested = 0;

void RequestStop(int) { stop_requested = 1; }

// SIGINT/SIGTERM end the serving loop (no SA_RESTART: poll() returns at once).
class StopSignals {
 public:
  StopSignals() {
    stop_requested = 0;
    struct sigaction action = {};
    action.sa_handler = RequestStop;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ = {}, old_term_ = {};
};

}  // namespace

int ViewCommand(std::span<const std::string> args) {
  StatusOr<ViewOptions> parsed = ParseViewOptions(args);
  if (std::optional<int> exit_code =
          EndOnUsageErrorOrHelp(parsed, ViewUsage(), "view", CommandError)) {
    return *exit_code;
  }
  const ViewOptions& options = parsed.value();
  // Kernel pages show the metrics of profiled kernels: counter data that was never evaluated
  // (a killed program, a report copied from the GPU machine) is evaluated first.
  if (Status evaluated = EvaluateForViewing(options.reports); !evaluated.ok()) {
    CommandError(evaluated.message());
    return kExitGpuscopeFailure;
  }
  StatusOr<std::unique_ptr<viewer::ViewerData>> data = viewer::ViewerData::Open(options.reports);
  if (!data.ok()) {
    CommandError(data.status().message());
    return kExitGpuscopeFailure;
  }
  if (Status aligned = (*data)->SetAlignment(options.align); !aligned.ok()) {
    CommandError(aligned.message());
    return kExitGpuscopeFailure;
  }
  StatusOr<std::unique_ptr<viewer::HttpServer>> server =
      viewer::HttpServer::Listen("127.0.0.1", options.port);
  if (!server.ok()) {
    CommandError(server.status().message());
    return kExitGpuscopeFailure;
  }
  StopSignals signals;
  std::cout << "gpuscope: viewer at http://127.0.0.1:" << server.value()->port()
            << "/ (Ctrl-C to stop)" << std::endl;
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(options.exit_after_seconds);
  viewer::ViewerData& viewer_data = *data.value();
  std::size_t left_running = server.value()->Serve(
      [&](const viewer::HttpRequest& request) {
        return viewer::HandleViewerRequest(viewer_data, viewer::WebAssets(), request);
      },
      [&] {
        return stop_requested != 0 ||
               (options.exit_after_seconds != 0 && std::chrono::steady_clock::now() >= deadline);
      });
  std::cout << "gpuscope: viewer stopped" << std::endl;
  if (left_running != 0) {
    // A worker still computes an answer no one will get, with the reports open: destroying
    // them, or static objects at exit, under it could crash, and waiting for it could take
    // any time. Nothing is left to write, so the process ends here.
    std::cerr.flush();
    std::_Exit(std::cout.good() ? kExitOk : kExitGpuscopeFailure);
  }
  return kExitOk;
}

std::string ViewUsage() {
  ViewOptions described;  // the declarations need fields to name; none is filled
  return "Usage: gpuscope view [--port N] [--align starts|absolute|nvtx:NAME] <report>...\n"
         "\n"
         "Serves the interactive viewer for one or more reports on 127.0.0.1 only (never on\n"
         "the network) and prints its URL; open it in a browser. Reports are indexed at\n"
         "start-up and read on demand, so reports of millions of events open. Ctrl-C stops.\n"
         "\n"
         "Options:\n" +
         FormatOptionHelp(ViewOptionSpecs(described));
}

}  // namespace gpuscope::cli
