#include "cli/commands/commands.h"

#include "cli/commands/diff_command.h"
#include "cli/commands/export_command.h"
#include "cli/commands/help_command.h"
#include "cli/commands/occupancy_command.h"
#include "cli/commands/profile_command.h"
#include "cli/commands/ranks_command.h"
#include "cli/commands/report_command.h"
#include "cli/commands/roofline_command.h"
#include "cli/commands/rules_command.h"
#include "cli/commands/run_command.h"
#include "cli/commands/source_command.h"
#include "cli/commands/stats_command.h"
#include "cli/commands/view_command.h"
#include "cli/options/profile_options.h"
#include "cli/options/run_options.h"
#include "cli/options/stats_options.h"

namespace gpuscope::cli {

std::span<const Command> Commands() {
  static const Command kCommands[] = {
      {"run", "trace a CUDA program and print nvprof's summary", RunCommand, RunUsage},
      {"profile", "measure kernels' hardware metrics by replay, like Nsight Compute",
       ProfileCommand, ProfileUsage},
      {"rules", "list the guided-analysis rules of profile", RulesCommand, RulesUsage},
      {"stats", "print summaries and nsys-style tables from reports", StatsCommand, StatsUsage},
      {"occupancy", "theoretical occupancy and block limits", OccupancyCommand, OccupancyUsage},
      {"roofline", "roofline of profiled kernels: FLOP/s, bandwidth, bound", RooflineCommand,
       RooflineUsage},
      {"source", "per-instruction and per-line values of profiled kernels (ncu's source page)",
       SourceCommand, SourceUsage},
      {"diff", "compare the kernels of two reports: durations and metrics", DiffCommand, DiffUsage},
      {"ranks", "the reports of a multi-rank job: aligned clocks, communication, stragglers",
       RanksCommand, RanksUsage},
      {"export", "write reports as Chrome trace JSON (Perfetto) or CSV tables", ExportCommand,
       ExportUsage},
      {"view", "serve the interactive viewer for reports on 127.0.0.1", ViewCommand, ViewUsage},
      {"report", "write one self-contained HTML viewer file to share", ReportCommand, ReportUsage},
      {"help", "show the help of gpuscope or of one command",
       [](std::span<const std::string> args) { return HelpCommand(Commands(), args); }, HelpUsage},
  };
  return kCommands;
}

}  // namespace gpuscope::cli
