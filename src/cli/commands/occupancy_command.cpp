#include "cli/commands/occupancy_command.h"

#include <charconv>
#include <iostream>
#include <optional>

#include "analysis/occupancy.h"
#include "analysis/occupancy_graphs.h"
#include "cli/options/command_prologue.h"
#include "cli/options/format_option.h"
#include "cli/options/option_parser.h"
#include "cli/options/option_targets.h"
#include "cli/output/exit_codes.h"
#include "cli/output/output_file.h"
#include "render/occupancy_format.h"
#include "render/occupancy_svg.h"

namespace gpuscope::cli {
namespace {

struct OccupancyOptions {
  std::optional<analysis::ArchitectureLimits> arch;
  analysis::OccupancyInput input;
  bool has_threads = false;
  bool has_regs = false;
  bool graphs = false;
  bool csv = false;
  std::string svg_path;
  bool force_overwrite = false;
  bool help = false;
};

StatusOr<std::int64_t> ParseCount(const ParsedOption& option, std::int64_t max) {
  std::int64_t value = 0;
  const std::string& text = option.value;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 0 ||
      value > max) {
    return Status::Error("option '" + option.spelling + "' expects a whole number from 0 to " +
                         std::to_string(max) + ", not '" + text + "'");
  }
  return value;
}

// Bytes, optionally in KB: "2048", "48K", "48KB" (1 KB = 1024 bytes, as CUDA counts them).
StatusOr<std::int64_t> ParseBytes(const ParsedOption& option) {
  constexpr std::int64_t kMaxBytes = std::int64_t{1} << 40;  // far above any SM
  std::string_view text = option.value;
  std::int64_t scale = 1;
  for (std::string_view suffix : {"KB", "kb", "Kb", "kB", "K", "k"}) {
    if (text.size() > suffix.size() && text.ends_with(suffix)) {
      text.remove_suffix(suffix.size());
      scale = 1024;
      break;
    }
  }
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 0 ||
      value > kMaxBytes / scale) {
    return Status::Error("option '" + option.spelling +
                         "' expects a size in bytes (e.g. 2048 or 48K), not '" + option.value +
                         "'");
  }
  return value * scale;
}

OptionTarget StoreCount(int& field, std::int64_t max) {
  return [&field, max](const ParsedOption& option) {
    StatusOr<std::int64_t> value = ParseCount(option, max);
    if (!value.ok()) return value.status();
    field = static_cast<int>(*value);
    return Status();
  };
}

template <typename Bytes>  // std::int64_t, or std::optional of it where unset means "default"
OptionTarget StoreBytes(Bytes& field) {
  return [&field](const ParsedOption& option) {
    StatusOr<std::int64_t> bytes = ParseBytes(option);
    if (!bytes.ok()) return bytes.status();
    field = *bytes;
    return Status();
  };
}

Status StoreCarveout(const ParsedOption& option, std::optional<int>& carveout_percent) {
  if (option.value == "default") {
    carveout_percent.reset();
    return {};
  }
  std::string_view text = option.value;
  if (text.ends_with('%')) text.remove_suffix(1);
  ParsedOption number = option;
  number.value = std::string(text);
  StatusOr<std::int64_t> value = ParseCount(number, 100);
  if (!value.ok()) {
    return Status::Error(
        "option '--carveout' expects a percentage from 0 to 100 or "
        "'default', not '" +
        option.value + "'");
  }
  carveout_percent = static_cast<int>(*value);
  return {};
}

std::vector<OptionSpec> OccupancyOptionSpecs(OccupancyOptions& options) {
  analysis::OccupancyInput& input = options.input;
  // Counts are checked against the capability's limits later (ValidateOccupancyInput);
  // here only against what fits an int, so the error names the real limit.
  constexpr std::int64_t kMaxCount = 1 << 20;
  return {
      {"cc", 0, "MAJOR.MINOR", "compute capability, 7.0 to 12.1 (e.g. 9.0 for H100/H200)",
       StoreParsed(options.arch, analysis::ParseComputeCapability)},
      {"threads", 0, "N", "threads per block (1..1024)",
       Marking(options.has_threads, StoreCount(input.threads_per_block, kMaxCount))},
      {"regs", 0, "N", "registers per thread (0..255)",
       Marking(options.has_regs, StoreCount(input.registers_per_thread, kMaxCount))},
      {"smem", 0, "BYTES", "static shared memory per block (default 0; 4K = 4096)",
       StoreBytes(input.static_shared_memory)},
      {"dyn-smem", 0, "BYTES", "dynamic shared memory per block (default 0)",
       StoreBytes(input.dynamic_shared_memory)},
      {"max-dyn-smem", 0, "BYTES",
       "the kernel's cudaFuncAttributeMaxDynamicSharedMemorySize (default 48 KB - static)",
       StoreBytes(input.max_dynamic_shared_memory)},
      {"carveout", 0, "PERCENT|default",
       "preferred shared-memory carveout, % of the largest (default: no preference)",
       [&input](const ParsedOption& option) {
         return StoreCarveout(option, input.carveout_percent);
       }},
      {"smem-config", 0, "BYTES",
       "the carveout the SM ran with (Nsight Compute's Shared Memory Configuration Size)",
       StoreBytes(input.shared_memory_config)},
      {"barriers", 0, "N", "block barriers the kernel uses (default 1)",
       StoreCount(input.barriers_per_block, kMaxCount)},
      {"graphs", 0, "", "also print the three occupancy graphs as tables", SetFlag(options.graphs)},
      FormatOption(options.csv),
      {"csv", 0, "", "write CSV instead of text", SetFlag(options.csv)},
      {"output", 'o', "FILE", "also write the three graphs as an SVG chart to FILE",
       StoreNonEmptyText(options.svg_path, "a file name")},
      {"svg", 0, "FILE", "the same as --output",
       StoreNonEmptyText(options.svg_path, "a file name")},
      {"force-overwrite", 'f', "", "replace an existing FILE (never a report)",
       SetFlag(options.force_overwrite)},
      {"help", 'h', "", "show this help", SetFlag(options.help)},
  };
}

StatusOr<OccupancyOptions> ParseOccupancyOptions(std::span<const std::string> args) {
  OccupancyOptions options;
  StatusOr<std::vector<std::string>> operands =
      ParseCommandLine(OccupancyOptionSpecs(options), args, OperandMode::kInterleaved);
  if (!operands.ok()) return operands.status();
  if (options.help) return options;
  if (!operands->empty()) return Status::Error("unexpected argument '" + operands->front() + "'");
  if (!options.arch) return Status::Error("--cc is required (e.g. --cc 9.0)");
  if (!options.has_threads) return Status::Error("--threads is required");
  if (!options.has_regs) return Status::Error("--regs is required");
  if (options.csv && !options.svg_path.empty()) {
    return Status::Error("CSV output and an SVG file (-o/--svg) cannot be combined");
  }
  GPUSCOPE_RETURN_IF_ERROR(analysis::ValidateOccupancyInput(*options.arch, options.input));
  return options;
}

struct Computed {
  analysis::OccupancyResult result;
  std::vector<analysis::OccupancyGraph> graphs;  // empty unless --graphs or --svg asks
};

StatusOr<Computed> Compute(const OccupancyOptions& options) {
  StatusOr<analysis::OccupancyResult> result =
      analysis::ComputeOccupancy(*options.arch, options.input);
  if (!result.ok()) return result.status();
  Computed computed{std::move(result.value()), {}};
  if (options.graphs || !options.svg_path.empty()) {
    StatusOr<std::vector<analysis::OccupancyGraph>> graphs =
        analysis::ComputeOccupancyGraphs(*options.arch, options.input);
    if (!graphs.ok()) return graphs.status();
    computed.graphs = std::move(graphs.value());
  }
  return computed;
}

Status WriteSvgFile(const OccupancyOptions& options, const std::string& svg) {
  StatusOr<std::unique_ptr<OutputFile>> file =
      OutputFile::Create(OutputClaim(options.svg_path, "the SVG", {}, options.force_overwrite));
  if (!file.ok()) return file.status();
  (*file)->stream() << svg;
  return (*file)->Commit();
}

}  // namespace

int OccupancyCommand(std::span<const std::string> args) {
  StatusOr<OccupancyOptions> parsed = ParseOccupancyOptions(args);
  if (std::optional<int> exit_code =
          EndOnUsageErrorOrHelp(parsed, OccupancyUsage(), "occupancy", CommandError)) {
    return *exit_code;
  }
  const OccupancyOptions& options = parsed.value();
  const analysis::ArchitectureLimits& arch = *options.arch;

  // Validation ran during parsing, so a failure here is gpuscope's own.
  StatusOr<Computed> computed = Compute(options);
  if (!computed.ok()) {
    CommandError(computed.status().message());
    return kExitGpuscopeFailure;
  }
  const analysis::OccupancyResult& result = computed->result;
  const std::vector<analysis::OccupancyGraph>& graphs = computed->graphs;

  if (!options.svg_path.empty()) {
    Status written =
        WriteSvgFile(options, render::OccupancySvg(arch, options.input, result, graphs));
    if (!written.ok()) {
      CommandError(written.message());
      return kExitGpuscopeFailure;
    }
  }
  if (options.csv) {
    render::WriteOccupancyCsv(arch, options.input, result, std::cout);
    if (options.graphs) {
      std::cout << '\n';  // a blank line between the two tables, as `stats` separates them
      render::WriteOccupancyGraphsCsv(graphs, std::cout);
    }
    // CSV readers take stdout; the person at the terminal still learns why nothing fits.
    if (result.blocks_per_sm == 0) {
      std::cerr << "gpuscope: this configuration cannot launch: " << result.cannot_launch_reason
                << '\n';
    }
  } else {
    render::WriteOccupancyText(arch, options.input, result, std::cout);
    if (options.graphs) render::WriteOccupancyGraphsText(graphs, std::cout);
  }
  std::cout.flush();
  return kExitOk;
}

std::string OccupancyUsage() {
  OccupancyOptions described;  // the declarations need fields to name; none is filled
  return "Usage: gpuscope occupancy --cc MAJOR.MINOR --threads N --regs N [--smem BYTES]\n"
         "                          [--dyn-smem BYTES] [--carveout PERCENT] [--graphs]\n"
         "                          [--format column|csv | --csv | -o FILE.svg [-f]]\n"
         "\n"
         "Prints the theoretical occupancy of a launch configuration: active blocks and warps\n"
         "per SM, occupancy, the block limit of each resource (warps, registers, shared\n"
         "memory, blocks, barriers) and which one limits, as Nsight Compute's Occupancy\n"
         "section and cudaOccupancyMaxActiveBlocksPerMultiprocessor compute them. No GPU is\n"
         "needed. --graphs adds NVIDIA's three occupancy graphs (block size, registers and\n"
         "shared memory varied) as tables; -o (or --svg) draws them (an existing FILE is replaced\n"
         "only with -f, and a gpuscope report never).\n"
         "\n"
         "Options:\n" +
         FormatOptionHelp(OccupancyOptionSpecs(described)) +
         "\n"
         "A configuration that fits no block on an SM prints 0 blocks and why; it exits 0.\n"
         "Values no launch can have on that capability are usage errors (exit 2).\n";
}

}  // namespace gpuscope::cli
