// The bounded mutation test of the report readers (issue 14): for each case, a mutant of one of
// the given reports (mutant.h) and every reading command on it (reader_commands.h, view_probe.h),
// each bounded by a timeout. A FAILURE (outcome.h) keeps the mutant and prints the command to
// run again; the exit status is 1 when any case failed. Cases are numbered and each has its own
// generator derived from the seed, so `--case N` replays one case alone.
//
//   reader_fuzz --gpuscope build/bin/gpuscope [--seed S] [--cases N | --case K]
//               [--commands-per-case C] [--jobs J] [--timeout SECONDS] [--keep DIR] [--verbose]
//               REPORT...
//
// --commands-per-case C: each mutant meets C of the readers (the view probe among them),
// drawn by the case's own generator, instead of all of them: for the same time, many more
// mutants, and over many cases every reader meets as many as before. 0 (the default): all.
//
// --jobs J: J worker processes share the cases, each taking the next case not yet taken (cases
// differ in cost by seconds), in a scratch directory of its own; a case's mutant and readers do
// not depend on J.
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <new>
#include <optional>
#include <sstream>
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
  std::uint64_t jobs = 1;
  std::chrono::milliseconds timeout{30000};
  std::string keep_dir = "fuzz-failures";
  bool verbose = false;  // a line per case and per run, with the error it met
  std::vector<std::string> reports;
};

int Usage(const std::string& problem) {
  std::cerr << "reader_fuzz: " << problem
            << "\nusage: reader_fuzz --gpuscope PATH [--seed S] [--cases N | --case K] "
               "[--commands-per-case C] [--jobs J] [--timeout SECONDS] [--keep DIR] "
               "[--verbose] REPORT...\n";
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
      } else if (arg == "--jobs") {
        options.jobs = std::max<std::uint64_t>(1, std::stoull(value()));
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
    if (options_.verbose) Trace(view.args, view.outcome, ReadWholeFile(work_dir_ + "/view.stderr"));
    if (view.outcome.verdict == Verdict::kFailure) {
      ok = false;
      Report(index, seed, view.args, view.outcome.reason, ReadWholeFile(work_dir_ + "/view.stderr"));
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
    // One block, written at once: the reports of parallel workers do not interleave.
    std::ostringstream out;
    out << "FAILURE case " << index << " (seed " << options_.seed << "): " << reason << "\n"
        << "  mutant of " << seed << ":\n";
    for (const std::string& step : steps_) out << "    " << step.substr(0, 300) << "\n";
    out << "  kept: " << kept << "\n"
        << "  run it again: " << ShellLine(args) << "\n"
        << "  or the whole case: " << ShellLine(ReplayCommand(index)) << "\n";
    std::string tail = err.size() > 3000 ? "..." + err.substr(err.size() - 3000) : err;
    if (!tail.empty()) out << "  stderr:\n" << tail << (tail.back() == '\n' ? "" : "\n");
    std::cout << out.str() << std::flush;
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

// What one worker found, sent to the parent through a pipe as it is.
struct WorkerResult {
  Tally tally;
  std::uint64_t failed_cases = 0;
};

// The index of the next case to run, shared by the workers (memory mapped before the fork).
class CaseCounter {
 public:
  CaseCounter() {
    void* shared = ::mmap(nullptr, sizeof(std::atomic<std::uint64_t>), PROT_READ | PROT_WRITE,
                          MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    next_ = shared == MAP_FAILED ? &local_ : new (shared) std::atomic<std::uint64_t>(0);
  }
  ~CaseCounter() {
    if (next_ != &local_) ::munmap(next_, sizeof(std::atomic<std::uint64_t>));
  }
  CaseCounter(const CaseCounter&) = delete;
  CaseCounter& operator=(const CaseCounter&) = delete;
  std::uint64_t Take() { return next_->fetch_add(1); }

 private:
  static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "shared between processes");
  std::atomic<std::uint64_t> local_{0};  // without shared memory: one worker takes them all
  std::atomic<std::uint64_t>* next_;
};

// Runs cases until none is left; prints progress every 10 of its cases.
WorkerResult RunCases(const Options& options, std::uint64_t worker, CaseCounter& counter,
                      const std::string& scratch) {
  WorkerResult result;
  CaseRunner runner(options, scratch + "/case" + std::to_string(worker));
  std::uint64_t done = 0;
  for (std::uint64_t i = counter.Take(); i < options.cases; i = counter.Take()) {
    if (!runner.Run(options.first_case + i, result.tally)) ++result.failed_cases;
    ++done;
    if (!options.verbose && done % 10 == 0) {
      std::string who = options.jobs > 1 ? "worker " + std::to_string(worker) + ": " : "";
      std::cout << "reader fuzz: " << who << done << " cases, " << result.failed_cases << " failed"
                << std::endl;
    }
  }
  return result;
}

// Forks the workers and adds up what they send back; a worker that dies without sending
// its result counts as a failed case, never as a pass.
WorkerResult RunWorkers(const Options& options, CaseCounter& counter, const std::string& scratch) {
  WorkerResult total;
  std::vector<std::pair<pid_t, int>> workers;
  for (std::uint64_t k = 0; k < options.jobs; ++k) {
    int fds[2];
    if (::pipe(fds) != 0) {
      std::cerr << "reader_fuzz: cannot create a pipe for worker " << k << "\n";
      ++total.failed_cases;
      continue;
    }
    std::cout.flush();
    pid_t pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      WorkerResult result = RunCases(options, k, counter, scratch);
      std::cout.flush();
      bool sent = ::write(fds[1], &result, sizeof result) == static_cast<ssize_t>(sizeof result);
      ::_exit(sent ? 0 : 1);
    }
    ::close(fds[1]);
    if (pid < 0) {
      ::close(fds[0]);
      std::cerr << "reader_fuzz: cannot start worker " << k << "\n";
      ++total.failed_cases;
      continue;
    }
    workers.emplace_back(pid, fds[0]);
  }
  for (auto [pid, fd] : workers) {
    WorkerResult result;
    bool received = ::read(fd, &result, sizeof result) == static_cast<ssize_t>(sizeof result);
    ::close(fd);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!received) {
      std::cout << "FAILURE: a worker (pid " << pid << ") ended without its result" << std::endl;
      ++total.failed_cases;
      continue;
    }
    total.tally.runs += result.tally.runs;
    total.tally.outputs += result.tally.outputs;
    total.tally.clean_errors += result.tally.clean_errors;
    total.tally.failures += result.tally.failures;
    total.tally.not_under_sanitizer += result.tally.not_under_sanitizer;
    total.failed_cases += result.failed_cases;
  }
  return total;
}

int Main(int argc, char** argv) {
  int status = 0;
  std::optional<Options> options = Parse(argc, argv, status);
  if (!options) return status;
  char scratch[] = "/tmp/gpuscope-fuzz-XXXXXX";
  if (::mkdtemp(scratch) == nullptr) {
    std::cerr << "reader_fuzz: cannot create a scratch directory in /tmp\n";
    return 1;
  }
  options->jobs = std::min(options->jobs, std::max<std::uint64_t>(1, options->cases));
  std::cout << "reader fuzz: seed " << options->seed << ", cases " << options->first_case << ".."
            << options->first_case + options->cases - 1 << " over " << options->reports.size()
            << " reports, " << options->timeout.count() / 1000 << " s per command, "
            << options->jobs << (options->jobs == 1 ? " worker" : " workers") << ", gpuscope "
            << options->gpuscope << std::endl;
  auto start = std::chrono::steady_clock::now();
  CaseCounter counter;
  WorkerResult result = options->jobs == 1 ? RunCases(*options, 0, counter, scratch)
                                           : RunWorkers(*options, counter, scratch);
  fs::remove_all(scratch);
  auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
                     std::chrono::steady_clock::now() - start).count();
  const Tally& tally = result.tally;
  std::cout << "reader fuzz: " << options->cases << " cases, " << tally.runs << " runs in "
            << seconds << " s: " << tally.outputs << " outputs, " << tally.clean_errors
            << " clean errors, " << tally.failures << " failures in " << result.failed_cases
            << " cases (seed " << options->seed << ")" << std::endl;
  if (tally.not_under_sanitizer > 0) {
    std::cout << "reader fuzz: " << tally.not_under_sanitizer
              << " runs needed CUPTI's host library, which cannot load under AddressSanitizer "
                 "(RTLD_DEEPBIND): not judged here; the normal build's run covers them"
              << std::endl;
  }
  return result.failed_cases == 0 ? 0 : 1;
}

}  // namespace
}  // namespace gpuscope::fuzz

int main(int argc, char** argv) { return gpuscope::fuzz::Main(argc, argv); }
