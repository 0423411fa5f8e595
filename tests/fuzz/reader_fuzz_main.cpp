// The bounded mutation test of the report readers (issue 14): for each case, a mutant of one of
// the given reports (mutant.h) and every reading command on it (reader_commands.h, view_probe.h),
// each bounded by a timeout. A FAILURE (outcome.h) keeps the mutant and prints the command to
// run again; the exit status is 1 when any case failed. Cases are numbered and each has its own
// generator derived from the seed, so `--case N` replays one case alone.
//
//   reader_fuzz --gpuscope build/bin/gpuscope [--seed S] [--cases N | --case K]
//               [--commands-per-case C] [--timeout SECONDS] [--keep DIR] [--verbose] REPORT...
//
// --commands-per-case C: each mutant meets C of the readers (the view probe among them),
// drawn by the case's own generator, instead of all of them: for the same time, many more
// mutants, and over many cases every reader meets as many as before. 0 (the default): all.
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "child_process.h"
#include "mutant.h"
#include "reader_commands.h"
#include "view_probe.h"

namespace gpuscope::fuzz {
namespace {

namespace fs = std::filesystem;

struct Options {
  std::string gpuscope;
  std::uint64_t seed = 14;
  std::uint64_t first_case = 0, cases = 20;
  std::uint64_t commands_per_case = 0;  // 0: every reader on every mutant
  std::chrono::milliseconds timeout{30000};
  std::string keep_dir = "fuzz-failures";
  bool verbose = false;  // a line per case and per run, with the error it met
  std::vector<std::string> reports;
};

int Usage(const std::string& problem) {
  std::cerr << "reader_fuzz: " << problem
            << "\nusage: reader_fuzz --gpuscope PATH [--seed S] [--cases N | --case K] "
               "[--commands-per-case C] [--timeout SECONDS] [--keep DIR] [--verbose] "
               "REPORT...\n";
  return 2;
}

std::optional<Options> Parse(int argc, char** argv, int& status) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    try {
      if (arg == "--gpuscope") {
        options.gpuscope = value();
      } else if (arg == "--seed") {
        options.seed = std::stoull(value());
      } else if (arg == "--cases") {
        options.cases = std::stoull(value());
      } else if (arg == "--case") {
        options.first_case = std::stoull(value());
        options.cases = 1;
      } else if (arg == "--commands-per-case") {
        options.commands_per_case = std::stoull(value());
      } else if (arg == "--timeout") {
        options.timeout = std::chrono::milliseconds(std::stoull(value()) * 1000);
      } else if (arg == "--verbose") {
        options.verbose = true;
      } else if (arg == "--keep") {
        options.keep_dir = value();
      } else if (arg.rfind("--", 0) == 0) {
        status = Usage("unknown option " + arg);
        return std::nullopt;
      } else {
        options.reports.push_back(fs::absolute(arg).string());
      }
    } catch (const std::exception&) {
      status = Usage("bad value for " + arg);
      return std::nullopt;
    }
  }
  if (options.gpuscope.empty() || options.reports.empty()) {
    status = Usage("--gpuscope and at least one report are needed");
    return std::nullopt;
  }
  options.gpuscope = fs::absolute(options.gpuscope).string();
  return options;
}

struct Tally {
  std::uint64_t runs = 0, outputs = 0, clean_errors = 0, failures = 0, not_under_sanitizer = 0;
  void Count(Verdict verdict) {
    ++runs;
    if (verdict == Verdict::kOutput) ++outputs;
    if (verdict == Verdict::kCleanError) ++clean_errors;
    if (verdict == Verdict::kFailure) ++failures;
    if (verdict == Verdict::kNotUnderSanitizer) ++not_under_sanitizer;
  }
};

class CaseRunner {
 public:
  CaseRunner(const Options& options, std::string work_dir)
      : options_(options), work_dir_(std::move(work_dir)) {}

  // Runs case `index`; true when every command met the mutant well.
  bool Run(std::uint64_t index, Tally& tally) {
    SeededRandom random = CaseRandom(options_.seed, index);
    const std::string& seed = options_.reports[random.Below(options_.reports.size())];
    fs::remove_all(work_dir_);
    fs::create_directories(work_dir_);
    mutant_ = work_dir_ + "/mutant.sqlite";
    steps_ = WriteMutant(seed, mutant_, random);
    fs::copy_file(mutant_, work_dir_ + "/mutant.sqlite.orig");
    if (options_.verbose) {
      std::cout << "case " << index << ": " << fs::path(seed).filename().string() << "\n";
      for (const std::string& step : steps_) std::cout << "  " << step.substr(0, 200) << "\n";
    }
    bool ok = true;
    std::vector<ReaderCommand> commands = ReaderCommands(mutant_, seed, work_dir_);
    // The view probe is the last of the readers to choose from.
    std::vector<bool> chosen = ChooseReaders(commands.size() + 1, random);
    for (std::size_t i = 0; i < commands.size(); ++i) {
      if (!chosen[i]) continue;
      const ReaderCommand& command = commands[i];
      RestoreMutant();
      std::vector<std::string> argv = {options_.gpuscope};
      argv.insert(argv.end(), command.args.begin(), command.args.end());
      Ended ended = RunBounded(argv, options_.timeout, work_dir_);
      Outcome outcome = Classify(ended, command.expected);
      tally.Count(outcome.verdict);
      if (options_.verbose) Trace(command.args, outcome, ended.err);
      if (outcome.verdict == Verdict::kFailure) {
        ok = false;
        Report(index, seed, command.args, outcome.reason, ended.err);
      }
    }
    if (!chosen.back()) return ok;
    RestoreMutant();
    ViewProbeResult view = ProbeView(options_.gpuscope, mutant_, seed, work_dir_, options_.timeout);
    tally.Count(view.outcome.verdict);
    if (options_.verbose) Trace(view.args, view.outcome, ReadFile(work_dir_ + "/view.stderr"));
    if (view.outcome.verdict == Verdict::kFailure) {
      ok = false;
      Report(index, seed, view.args, view.outcome.reason, ReadFile(work_dir_ + "/view.stderr"));
    }
    return ok;
  }

 private:
  // Which of `count` readers meet this case's mutant: all, or --commands-per-case of them
  // (drawn after the mutant, so that the mutant of a case is the same whatever C is).
  std::vector<bool> ChooseReaders(std::size_t count, RandomSource& random) const {
    std::uint64_t wanted = options_.commands_per_case;
    if (wanted == 0 || wanted >= count) return std::vector<bool>(count, true);
    std::vector<bool> chosen(count, false);
    for (std::uint64_t picked = 0; picked < wanted;) {
      std::size_t i = random.Below(count);
      if (!chosen[i]) chosen[i] = true, ++picked;
    }
    return chosen;
  }

  // The arguments with the mutant's path as MUTANT and reports by their file name.
  std::vector<std::string> Shortened(std::vector<std::string> args) const {
    for (std::string& arg : args) {
      if (arg == mutant_) arg = "MUTANT";
      else if (arg.size() > 7 && arg.ends_with(".sqlite")) arg = fs::path(arg).filename().string();
      else if (arg.rfind(work_dir_, 0) == 0) arg.replace(0, work_dir_.size(), "OUT");
    }
    return args;
  }

  void Trace(const std::vector<std::string>& args, const Outcome& outcome, const std::string& err) {
    static const char* const kVerdicts[] = {"output", "error ", "FAILURE", "no CUPTI"};
    std::string line = err.substr(0, err.find_last_not_of('\n') + 1);
    line = line.substr(line.rfind('\n') + 1);
    std::cout << "    " << kVerdicts[static_cast<int>(outcome.verdict)] << "  "
              << ShellLine(Shortened(args))
              << (outcome.verdict == Verdict::kOutput ? "" : "  | " + line.substr(0, 150))
              << "\n";
  }

  // A reader may write into the report (evaluation, finalisation): every command starts from
  // the mutant as it was made, and outputs of the previous command are gone.
  void RestoreMutant() {
    for (const char* output : {"/trace.json", "/report.html", "/csv", "/mutant.sqlite-wal",
                               "/mutant.sqlite-shm", "/mutant.sqlite-journal"}) {
      fs::remove_all(work_dir_ + output);
    }
    fs::copy_file(work_dir_ + "/mutant.sqlite.orig", mutant_, fs::copy_options::overwrite_existing);
  }

  void Report(std::uint64_t index, const std::string& seed, std::vector<std::string> args,
              const std::string& reason, const std::string& err) {
    fs::create_directories(options_.keep_dir);
    std::string kept = fs::absolute(options_.keep_dir).string() + "/seed" +
                       std::to_string(options_.seed) + "-case" + std::to_string(index) + ".sqlite";
    fs::copy_file(work_dir_ + "/mutant.sqlite.orig", kept, fs::copy_options::overwrite_existing);
    for (std::string& arg : args) {
      if (arg == mutant_) arg = kept;
    }
    args.insert(args.begin(), options_.gpuscope);
    std::cout << "FAILURE case " << index << " (seed " << options_.seed << "): " << reason << "\n"
              << "  mutant of " << seed << ":\n";
    for (const std::string& step : steps_) std::cout << "    " << step.substr(0, 300) << "\n";
    std::cout << "  kept: " << kept << "\n"
              << "  run it again: " << ShellLine(args) << "\n"
              << "  or the whole case: " << ShellLine(ReplayCommand(index)) << "\n";
    std::string tail = err.size() > 3000 ? "..." + err.substr(err.size() - 3000) : err;
    if (!tail.empty()) std::cout << "  stderr:\n" << tail << (tail.back() == '\n' ? "" : "\n");
    std::cout.flush();
  }

  std::vector<std::string> ReplayCommand(std::uint64_t index) const {
    std::vector<std::string> argv = {fs::absolute("/proc/self/exe").string(), "--gpuscope",
                                     options_.gpuscope, "--seed", std::to_string(options_.seed),
                                     "--case", std::to_string(index)};
    std::error_code error;
    fs::path self = fs::read_symlink("/proc/self/exe", error);
    if (!error) argv[0] = self.string();
    if (options_.commands_per_case != 0) {
      argv.insert(argv.end(), {"--commands-per-case", std::to_string(options_.commands_per_case)});
    }
    argv.insert(argv.end(), options_.reports.begin(), options_.reports.end());
    return argv;
  }

  const Options& options_;
  std::string work_dir_;
  std::string mutant_;
  std::vector<std::string> steps_;
};

int Main(int argc, char** argv) {
  int status = 0;
  std::optional<Options> options = Parse(argc, argv, status);
  if (!options) return status;
  char scratch[] = "/tmp/gpuscope-fuzz-XXXXXX";
  if (::mkdtemp(scratch) == nullptr) {
    std::cerr << "reader_fuzz: cannot create a scratch directory in /tmp\n";
    return 1;
  }
  std::cout << "reader fuzz: seed " << options->seed << ", cases " << options->first_case << ".."
            << options->first_case + options->cases - 1 << " over " << options->reports.size()
            << " reports, " << options->timeout.count() / 1000 << " s per command, gpuscope "
            << options->gpuscope << std::endl;
  auto start = std::chrono::steady_clock::now();
  Tally tally;
  std::uint64_t failed_cases = 0;
  CaseRunner runner(*options, std::string(scratch) + "/case");
  for (std::uint64_t i = 0; i < options->cases; ++i) {
    if (!runner.Run(options->first_case + i, tally)) ++failed_cases;
    if (!options->verbose && (i + 1) % 10 == 0 && i + 1 < options->cases) {
      std::cout << "reader fuzz: " << i + 1 << " cases, " << failed_cases << " failed" << std::endl;
    }
  }
  fs::remove_all(scratch);
  auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
                     std::chrono::steady_clock::now() - start).count();
  std::cout << "reader fuzz: " << options->cases << " cases, " << tally.runs << " runs in "
            << seconds << " s: " << tally.outputs << " outputs, " << tally.clean_errors
            << " clean errors, " << tally.failures << " failures in " << failed_cases
            << " cases (seed " << options->seed << ")" << std::endl;
  if (tally.not_under_sanitizer > 0) {
    std::cout << "reader fuzz: " << tally.not_under_sanitizer
              << " runs needed CUPTI's host library, which cannot load under AddressSanitizer "
                 "(RTLD_DEEPBIND): not judged here; the normal build's run covers them"
              << std::endl;
  }
  return failed_cases == 0 ? 0 : 1;
}

}  // namespace
}  // namespace gpuscope::fuzz

int main(int argc, char** argv) { return gpuscope::fuzz::Main(argc, argv); }
