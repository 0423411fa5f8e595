// The libFuzzer target of the report readers (issue 14), for long local runs: each input
// drives the mutation engine (mutant.h, through ByteStreamRandom) on a seed report, and every
// reading command runs in-process on the mutant (cli::Dispatch, the viewer's routes). A
// crash, a sanitizer report or a hang is libFuzzer's to catch; output that breaks the readers'
// promise (outcome.h: exit 0 with garbled JSON or HTML, an error without its one-line message,
// an /api answer that is not JSON) aborts, so libFuzzer keeps the input. docs/contributing.md says
// how to run it; GPUSCOPE_FUZZ_SEED_REPORT picks the seed report (default
// tests/data/reports/h100_add.sqlite).
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>

#include "cli/dispatcher.h"
#include "mutant.h"
#include "reader_commands.h"
#include "viewer/http_request.h"
#include "viewer/viewer_data.h"
#include "viewer/viewer_routes.h"
#include "viewer/web_assets.h"
#include "viewer_questions.h"

namespace gpuscope::fuzz {
namespace {

namespace fs = std::filesystem;

std::string seed_report;
std::string scratch;

// Runs `gpuscope args...` in this process with std::cout and std::cerr captured.
Ended RunInProcess(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  std::streambuf* old_out = std::cout.rdbuf(out.rdbuf());
  std::streambuf* old_err = std::cerr.rdbuf(err.rdbuf());
  Ended ended;
  ended.exit_code = cli::Dispatch(args);
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  ended.out = out.str();
  ended.err = err.str();
  return ended;
}

[[noreturn]] void Broken(const std::vector<std::string>& args, const std::string& reason,
                         const std::string& err) {
  std::cerr << "reader_libfuzzer: " << ShellLine(args) << ": " << reason << "\n" << err;
  abort();
}

ViewerAnswer AskRoutes(viewer::ViewerData& data, const std::string& target) {
  StatusOr<viewer::HttpRequest> request =
      viewer::ParseHttpRequest("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  if (!request.ok()) return {400, "{\"error\":\"bad request\"}"};
  viewer::HttpResponse response =
      viewer::HandleViewerRequest(data, std::span<const viewer::EmbeddedFile>(), request.value());
  return {response.status, response.body};
}

}  // namespace
}  // namespace gpuscope::fuzz

using namespace gpuscope::fuzz;

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* seed = getenv("GPUSCOPE_FUZZ_SEED_REPORT");
  seed_report = seed != nullptr ? seed : GPUSCOPE_TEST_DATA_DIR "/reports/h100_add.sqlite";
  char dir[] = "/tmp/gpuscope-libfuzzer-XXXXXX";
  if (mkdtemp(dir) == nullptr) abort();
  scratch = dir;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ByteStreamRandom random({data, size});
  const std::string mutant = scratch + "/mutant.sqlite";
  WriteMutant(seed_report, mutant, random);
  const std::string pristine = scratch + "/mutant.orig";
  fs::copy_file(mutant, pristine, fs::copy_options::overwrite_existing);
  for (const ReaderCommand& command : ReaderCommands(mutant, seed_report, scratch)) {
    for (const char* output : {"/trace.json", "/report.html", "/csv"}) fs::remove_all(scratch + output);
    fs::copy_file(pristine, mutant, fs::copy_options::overwrite_existing);
    Ended ended = RunInProcess(command.args);
    Outcome outcome = Classify(ended, command.expected);
    if (outcome.verdict == Verdict::kFailure) Broken(command.args, outcome.reason, ended.err);
  }
  fs::copy_file(pristine, mutant, fs::copy_options::overwrite_existing);
  auto viewer = gpuscope::viewer::ViewerData::Open({mutant, seed_report});
  if (viewer.ok()) {
    std::optional<std::string> problem = AskViewer(
        [&](const std::string& target) { return AskRoutes(*viewer.value(), target); });
    if (problem) Broken({"view", mutant, seed_report}, *problem, "");
  }
  return 0;
}
