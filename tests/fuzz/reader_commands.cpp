#include "reader_commands.h"

namespace gpuscope::fuzz {

std::vector<ReaderCommand> ReaderCommands(const std::string& mutant, const std::string& seed,
                                          const std::string& scratch_dir) {
  const std::string all_tables =
      "cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum,nvtx_sum";
  const std::string json_file = scratch_dir + "/trace.json";
  const std::string csv_dir = scratch_dir + "/csv";
  const std::string html_file = scratch_dir + "/report.html";
  return {
      {{"stats", mutant}, {}},
      {{"stats", "--rules", mutant}, {}},
      {{"stats", "--print-summary", "per-kernel", "--page", "details", mutant}, {}},
      {{"stats", "--page", "details", mutant}, {}},
      {{"stats", "--page", "raw", "--format", "csv", mutant}, {}},
      {{"stats", "--report", all_tables, mutant}, {}},
      {{"stats", "--report", all_tables, "--format", "csv", mutant}, {}},
      {{"stats", "--report", all_tables, "--format", "json", mutant}, {OutputKind::kStdoutJson, ""}},
      {{"export", "--format", "chrome", "-o", "-", mutant}, {OutputKind::kStdoutJson, ""}},
      {{"export", "--format", "chrome", "-o", json_file, mutant},
       {OutputKind::kJsonFile, json_file}},
      {{"export", "--format", "csv", "-o", csv_dir, mutant}, {OutputKind::kDirectory, csv_dir}},
      {{"report", "-o", html_file, mutant}, {OutputKind::kHtmlFile, html_file}},
      {{"source", mutant}, {}},
      {{"source", "--csv", "--print-source", "cuda,sass", mutant}, {}},
      {{"stats", "--page", "source", "--print-source", "cuda", mutant}, {}},
      {{"roofline", mutant}, {}},
      {{"roofline", "--csv", mutant}, {}},
      {{"diff", seed, mutant}, {}},
      {{"diff", "--csv", "--all", mutant, seed}, {}},
  };
}

std::string ShellLine(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& arg : argv) {
    if (!line.empty()) line += ' ';
    bool plain = !arg.empty() && arg.find_first_not_of(
                                     "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                     "0123456789_-./,=:+") == std::string::npos;
    if (plain) {
      line += arg;
      continue;
    }
    line += '\'';
    for (char c : arg) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return line;
}

}  // namespace gpuscope::fuzz
