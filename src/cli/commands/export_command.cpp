#include "cli/commands/export_command.h"

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "analysis/collection_warnings.h"
#include "analysis/value_range.h"
#include "cli/options/command_prologue.h"
#include "cli/options/option_parser.h"
#include "cli/options/option_targets.h"
#include "cli/output/exit_codes.h"
#include "cli/output/output_file.h"
#include "export/chrome_trace.h"
#include "export/csv_tables.h"
#include "store/report_reader.h"

namespace gpuscope::cli {
namespace {

struct ExportOptions {
  bool csv = false;
  std::string output;
  bool force_overwrite = false;
  bool help = false;
  std::vector<std::string> reports;
};

std::vector<OptionSpec> ExportOptionSpecs(ExportOptions& options) {
  return {
      {"format", 0, "chrome|csv", "output format (default chrome)",
       [&options](const ParsedOption& option) {
         if (option.value != "chrome" && option.value != "csv") {
           return Status::Error("option '" + option.spelling + "' expects chrome or csv, not '" +
                                option.value + "'");
         }
         options.csv = option.value == "csv";
         return Status();
       }},
      {"output", 'o', "path",
       "chrome: the JSON file ('-' for stdout; default <report stem>.json next to the first "
       "report); csv: the directory (default <report stem>_csv next to each report)",
       StoreNonEmptyText(options.output, "a path")},
      // -f as in every other command, nsys and ncu; `-f chrome|csv` (its meaning here before)
      // is still read as --format (LegacyFormatSpelling).
      {"force-overwrite", 'f', "", "replace existing output files (never a report or an input)",
       SetFlag(options.force_overwrite)},
      {"help", 'h', "", "show this help", SetFlag(options.help)},
  };
}

// `-f` meant --format in export until it became --force-overwrite like everywhere else. The
// old spelling stays readable where that is unambiguous: `-f` followed by a format name
// ("-f csv", "-fcsv") that is not an existing file (which would be a report to export) becomes
// `--format csv`, with a warning. Words after `--` are left alone.
std::vector<std::string> LegacyFormatSpelling(std::span<const std::string> args) {
  std::vector<std::string> rewritten;
  auto is_format = [](std::string_view word) { return word == "chrome" || word == "csv"; };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--") {
      rewritten.insert(rewritten.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
      break;
    }
    std::string format;
    if (word == "-f" && i + 1 < args.size() && is_format(args[i + 1]) &&
        !std::filesystem::exists(args[i + 1])) {
      format = args[++i];
    } else if (word.starts_with("-f") && is_format(std::string_view(word).substr(2))) {
      format = word.substr(2);
    }
    if (format.empty()) {
      rewritten.push_back(word);
      continue;
    }
    std::cerr << "gpuscope: warning: '-f " << format << "' is read as '--format " << format
              << "'; -f now means --force-overwrite, as in the other commands\n";
    rewritten.push_back("--format");
    rewritten.push_back(format);
  }
  return rewritten;
}

StatusOr<ExportOptions> ParseExportOptions(std::span<const std::string> args) {
  const std::vector<std::string> words = LegacyFormatSpelling(args);
  ExportOptions options;
  StatusOr<std::vector<std::string>> reports =
      ParseReportsCommandLine(ExportOptionSpecs(options), words, options.help);
  if (!reports.ok()) return reports.status();
  options.reports = std::move(*reports);
  return options;
}

std::string WithoutExtension(const std::string& path) {
  return std::filesystem::path(path).replace_extension().string();
}

using Readers = std::vector<std::unique_ptr<store::ReportReader>>;

OutputClaim ClaimFor(const ExportOptions& options, std::string path, std::string what) {
  return OutputClaim(std::move(path), std::move(what), options.reports, options.force_overwrite);
}

int ExportChrome(const ExportOptions& options, const Readers& readers) {
  std::vector<const store::ReportReader*> reports;
  for (const auto& reader : readers) reports.push_back(reader.get());
  std::string output =
      options.output.empty() ? WithoutExtension(options.reports[0]) + ".json" : options.output;
  StatusOr<exporter::ChromeTraceStats> written = Status::Error("");
  std::unique_ptr<OutputFile> file;
  if (output == "-") {
    written = exporter::WriteChromeTrace(reports, std::cout);
    std::cout.flush();
  } else {
    StatusOr<std::unique_ptr<OutputFile>> created =
        OutputFile::Create(ClaimFor(options, output, "the Chrome trace"));
    if (!created.ok()) {
      CommandError(created.status().message());
      return kExitGpuscopeFailure;
    }
    file = std::move(created.value());
    written = exporter::WriteChromeTrace(reports, file->stream());
    if (written.ok()) {
      Status committed = file->Commit();  // else no half a trace is left behind
      if (!committed.ok()) written = committed;
    }
  }
  if (!written.ok()) {
    CommandError(written.status().message());
    return kExitGpuscopeFailure;
  }
  if (written->skipped_untimed > 0) {
    std::cerr << "gpuscope: warning: " << written->skipped_untimed
              << " events without timestamps (or never ended) are not in the trace\n";
  }
  if (written->clamped_times > 0) {
    std::cerr << "gpuscope: warning: " << written->clamped_times
              << " events lie further from the trace's start than its times can say (damaged "
                 "timestamps): their times are clamped to the ends of its axis\n";
  }
  if (std::optional<std::string> impossible = analysis::ImpossibleValueWarning(
          written->impossible_gpu_metric_values, analysis::CheckedValues::kGpuMetricSamples)) {
    std::cerr << "gpuscope: warning: " << *impossible << '\n';
  }
  // Damaged rows the reader left out (store/damaged_rows.h): said, never silently missing.
  for (const store::ReportReader* report : reports) {
    for (const std::string& warning : analysis::SkippedRowWarnings(*report)) {
      std::cerr << "gpuscope: warning: " << report->path() << ": " << warning << '\n';
    }
  }
  if (file) {
    WrittenNotice(*file) << "gpuscope: wrote " << written->events << " trace events to "
                         << output << '\n';
  }
  return kExitOk;
}

// Where each report's tables go: <stem>_csv next to it; with -o, -o itself for one report
// and a subdirectory of -o, named after the report, for each of several.
std::vector<std::string> CsvDirectories(const ExportOptions& options) {
  std::vector<std::string> directories;
  std::set<std::string> used;
  for (const std::string& report : options.reports) {
    if (options.output.empty()) {
      directories.push_back(WithoutExtension(report) + "_csv");
    } else if (options.reports.size() == 1) {
      directories.push_back(options.output);
    } else {
      std::string stem = std::filesystem::path(report).stem().string();
      std::string name = stem;
      for (int n = 2; !used.insert(name).second; ++n) name = stem + "_" + std::to_string(n);
      directories.push_back((std::filesystem::path(options.output) / name).string());
    }
  }
  return directories;
}

std::string CsvFile(const std::string& directory, const std::string& table) {
  return (std::filesystem::path(directory) / (table + ".csv")).string();
}

// Every table of every report is checked before a directory is made, and all of them are
// written before any is renamed into place: a refused or failed export changes nothing.
int ExportCsv(const ExportOptions& options, const Readers& readers) {
  const std::vector<std::string> directories = CsvDirectories(options);
  Status usable = options.output.empty()
                      ? Status()
                      : CheckOutputDirectory(ClaimFor(options, options.output, "the CSV tables"));
  for (const std::string& directory : directories) {
    if (usable.ok()) usable = CheckOutputDirectory(ClaimFor(options, directory, "the CSV tables"));
    for (const std::string& table : exporter::CsvTableNames()) {
      if (!usable.ok()) break;
      usable = CheckOutputClaim(ClaimFor(options, CsvFile(directory, table), "a CSV table"));
    }
  }
  if (!usable.ok()) {
    CommandError(usable.message());
    return kExitGpuscopeFailure;
  }
  std::vector<std::unique_ptr<OutputFile>> files;
  for (std::size_t i = 0; i < readers.size(); ++i) {
    std::error_code error;
    std::filesystem::create_directories(directories[i], error);
    if (error) {
      CommandError("cannot create directory " + directories[i] + ": " + error.message());
      return kExitGpuscopeFailure;
    }
    for (const std::string& table : exporter::CsvTableNames()) {
      StatusOr<std::unique_ptr<OutputFile>> file =
          OutputFile::Create(ClaimFor(options, CsvFile(directories[i], table), "a CSV table"));
      Status written = file.ok() ? exporter::WriteCsvTable(*readers[i], table, (*file)->stream())
                                 : file.status();
      if (!written.ok()) {
        CommandError(written.message());
        return kExitGpuscopeFailure;
      }
      files.push_back(std::move(file.value()));
    }
  }
  for (std::unique_ptr<OutputFile>& file : files) {
    if (Status committed = file->Commit(); !committed.ok()) {
      CommandError(committed.message());
      return kExitGpuscopeFailure;
    }
  }
  // Names the readers shortened (store/report_text.h) are in the tables shortened: said.
  for (const auto& reader : readers) {
    if (std::optional<std::string> shortened = analysis::ShortenedTextWarning(*reader)) {
      std::cerr << "gpuscope: warning: " << reader->path() << ": " << *shortened << '\n';
    }
  }
  for (const std::string& directory : directories) {
    std::cout << "gpuscope: wrote " << exporter::CsvTableNames().size() << " CSV tables to "
              << directory << '\n';
  }
  return kExitOk;
}

}  // namespace

int ExportCommand(std::span<const std::string> args) {
  StatusOr<ExportOptions> parsed = ParseExportOptions(args);
  if (std::optional<int> exit_code =
          EndOnUsageErrorOrHelp(parsed, ExportUsage(), "export", CommandError)) {
    return *exit_code;
  }
  const ExportOptions& options = parsed.value();
  Readers readers;
  for (const std::string& path : options.reports) {
    StatusOr<std::unique_ptr<store::ReportReader>> reader = store::ReportReader::Open(path);
    if (!reader.ok()) {
      const std::string& message = reader.status().message();
      CommandError(message.find(path) != std::string::npos ? message : path + ": " + message);
      return kExitGpuscopeFailure;
    }
    readers.push_back(std::move(reader.value()));
  }
  return options.csv ? ExportCsv(options, readers) : ExportChrome(options, readers);
}

std::string ExportUsage() {
  ExportOptions described;  // the declarations need fields to name; none is filled
  return "Usage: gpuscope export [--format chrome|csv] [-o output] [-f] "
         "<report>...\n"
         "\n"
         "Writes reports in other tools' formats. chrome: one Trace Event Format JSON file\n"
         "for the Perfetto UI (ui.perfetto.dev) or chrome://tracing, with a process per\n"
         "report and per GPU, a track per host thread and per stream, flow arrows from API\n"
         "calls to their GPU work, NVTX ranges and a device-memory counter (times in us,\n"
         "relative to the earliest report's start). csv: one RFC 4180 file per table\n"
         "(kernels, memcpys, memsets, api_calls, nvtx, memory, syncs, overheads, devices,\n"
         "kernel_metrics, kernel_findings: gpuscope profile's metrics and guided-analysis\n"
         "findings per profiled launch), names resolved, absolute times in ns; several\n"
         "reports get a subdirectory each.\n"
         "Existing output files are replaced only with -f (--force-overwrite); a report, or\n"
         "any file the command reads, never. (-f chrome|csv, the old spelling of --format,\n"
         "is still read as --format, with a warning.)\n"
         "\n"
         "Options:\n" +
         FormatOptionHelp(ExportOptionSpecs(described));
}

}  // namespace gpuscope::cli
