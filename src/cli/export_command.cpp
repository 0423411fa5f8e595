#include "cli/export_command.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <vector>

#include "cli/command_prologue.h"
#include "cli/exit_codes.h"
#include "cli/option_parser.h"
#include "export/chrome_trace.h"
#include "export/csv_tables.h"
#include "store/report_reader.h"

namespace gpuscope::cli {
namespace {

enum ExportOptionId { kFormat, kOutput, kHelp };

constexpr OptionSpec kExportOptions[] = {
    {kFormat, "format", 'f', "chrome|csv", "output format (default chrome)"},
    {kOutput, "output", 'o', "path",
     "chrome: the JSON file ('-' for stdout; default <report stem>.json next to the first "
     "report); csv: the directory (default <report stem>_csv next to each report)"},
    {kHelp, "help", 'h', "", "show this help"},
};

struct ExportOptions {
  bool csv = false;
  std::string output;
  bool help = false;
  std::vector<std::string> reports;
};

StatusOr<ExportOptions> ParseExportOptions(std::span<const std::string> args) {
  StatusOr<ParsedCommandLine> parsed =
      ParseOptions(kExportOptions, args, OperandMode::kInterleaved);
  if (!parsed.ok()) return parsed.status();
  ExportOptions options;
  for (const ParsedOption& option : parsed->options) {
    switch (static_cast<ExportOptionId>(option.id)) {
      case kFormat:
        if (option.value != "chrome" && option.value != "csv") {
          return Status::Error("option '" + option.spelling + "' expects chrome or csv, not '" +
                               option.value + "'");
        }
        options.csv = option.value == "csv";
        break;
      case kOutput:
        if (option.value.empty())
          return Status::Error("option '" + option.spelling + "' needs a path");
        options.output = option.value;
        break;
      case kHelp:
        options.help = true;
        break;
    }
  }
  options.reports = std::move(parsed->operands);
  if (!options.help && options.reports.empty()) return Status::Error("no report given");
  return options;
}

std::string WithoutExtension(const std::string& path) {
  return std::filesystem::path(path).replace_extension().string();
}

using Readers = std::vector<std::unique_ptr<store::ReportReader>>;

int ExportChrome(const ExportOptions& options, const Readers& readers) {
  std::vector<const store::ReportReader*> reports;
  for (const auto& reader : readers) reports.push_back(reader.get());
  std::string output =
      options.output.empty() ? WithoutExtension(options.reports[0]) + ".json" : options.output;
  StatusOr<exporter::ChromeTraceStats> written = Status::Error("");
  if (output == "-") {
    written = exporter::WriteChromeTrace(reports, std::cout);
    std::cout.flush();
  } else {
    std::ofstream file(output, std::ios::binary | std::ios::trunc);
    if (!file) {
      CommandError("cannot create " + output);
      return kExitGpuscopeFailure;
    }
    written = exporter::WriteChromeTrace(reports, file);
    file.close();
    if (written.ok() && !file) written = Status::Error("cannot write " + output);
    if (!written.ok()) std::filesystem::remove(output);  // no half a trace left behind
  }
  if (!written.ok()) {
    CommandError(written.status().message());
    return kExitGpuscopeFailure;
  }
  if (written->skipped_untimed > 0) {
    std::cerr << "gpuscope: warning: " << written->skipped_untimed
              << " events without timestamps (or never ended) are not in the trace\n";
  }
  if (output != "-") {
    std::cout << "gpuscope: wrote " << written->events << " trace events to " << output << '\n';
  }
  return kExitOk;
}

int ExportCsv(const ExportOptions& options, const Readers& readers) {
  std::set<std::string> used;
  for (std::size_t i = 0; i < readers.size(); ++i) {
    std::string directory;
    if (options.output.empty()) {
      directory = WithoutExtension(options.reports[i]) + "_csv";
    } else if (readers.size() == 1) {
      directory = options.output;
    } else {
      // Several reports into one -o: a subdirectory each, named after the report.
      std::string stem = std::filesystem::path(options.reports[i]).stem().string();
      std::string name = stem;
      for (int n = 2; !used.insert(name).second; ++n) name = stem + "_" + std::to_string(n);
      directory = (std::filesystem::path(options.output) / name).string();
    }
    Status written = exporter::WriteCsvTables(*readers[i], directory);
    if (!written.ok()) {
      CommandError(written.message());
      return kExitGpuscopeFailure;
    }
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
  return "Usage: gpuscope export [--format chrome|csv] [-o output] <report>...\n"
         "\n"
         "Writes reports in other tools' formats. chrome: one Trace Event Format JSON file\n"
         "for the Perfetto UI (ui.perfetto.dev) or chrome://tracing, with a process per\n"
         "report and per GPU, a track per host thread and per stream, flow arrows from API\n"
         "calls to their GPU work, NVTX ranges and a device-memory counter (times in us,\n"
         "relative to the earliest report's start). csv: one RFC 4180 file per table\n"
         "(kernels, memcpys, memsets, api_calls, nvtx, memory, syncs, overheads, devices),\n"
         "names resolved, absolute times in ns; several reports get a subdirectory each.\n"
         "\n"
         "Options:\n" +
         FormatOptionHelp(kExportOptions);
}

}  // namespace gpuscope::cli
