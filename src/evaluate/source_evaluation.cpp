#include "evaluate/source_evaluation.h"

#include <sys/stat.h>

#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "contract/environment_variables.h"
#include "disassembly/nvdisasm_listing.h"
#include "disassembly/nvdisasm_run.h"
#include "evaluate/isolated_source_lines.h"
#include "store/source_tables.h"

namespace gpuscope::evaluate {
namespace {

// Source files larger than this are stored without their text (generated code, amalgamations).
constexpr std::uintmax_t kMaxSourceBytes = 4u << 20;

const std::string kNoNvdisasm = std::string("SASS text needs nvdisasm (CUDA toolkit; or set ") +
                                contract::kNvdisasmVariable + "): offsets and lines only";

struct CubinFunction {
  std::int64_t function_id = 0;
  std::string name;
  std::set<std::uint64_t> value_pcs;  // pcs the instruction values name
};

// The report names the files; only source code is read, so that a crafted report cannot make
// gpuscope copy an arbitrary file of the user's (a key, a password store) into the report.
bool LooksLikeSourceCode(const std::string& path) {
  static constexpr const char* kExtensions[] = {".cu",  ".cuh", ".c",   ".cc",  ".cpp", ".cxx",
                                                ".h",   ".hpp", ".hh",  ".hxx", ".inl", ".py",
                                                ".ptx", ".f90", ".cuf", ".jl",  ".mojo"};
  for (const char* extension : kExtensions) {
    if (path.ends_with(extension)) return true;
  }
  return false;
}

std::optional<std::string> ReadSourceFile(const std::string& path) {
  if (!LooksLikeSourceCode(path)) return std::nullopt;
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode) ||
      static_cast<std::uintmax_t>(info.st_size) > kMaxSourceBytes) {
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) return std::nullopt;
  return text.str();
}

// cubin CRC -> function id -> the function.
using CubinFunctions = std::map<std::uint64_t, std::map<std::int64_t, CubinFunction>>;

StatusOr<CubinFunctions> FunctionsToRead(const store::ReportReader& report) {
  StatusOr<std::vector<store::InstructionSite>> sites = store::ReadUndisassembledSites(report);
  if (!sites.ok()) return sites.status();
  CubinFunctions functions;
  for (const store::InstructionSite& site : *sites) {
    if (site.function.empty()) continue;  // a damaged name: nothing to ask nvdisasm or CUPTI
    CubinFunction& function = functions[site.cubin_crc][site.function_id];
    function.function_id = site.function_id;
    function.name = site.function;
    function.value_pcs.insert(site.pc_offset);
  }
  return functions;
}

}  // namespace

StatusOr<bool> NeedsSourceEvaluation(const store::ReportReader& report) {
  return store::HasUndisassembledCubins(report);
}

namespace {

// The cubin's listing per function; empty (with a note) when it cannot be had.
disassembly::SassListing Disassemble(const std::optional<std::string>& nvdisasm,
                                     const StatusOr<std::vector<std::uint8_t>>& cubin,
                                     std::uint64_t crc, std::vector<std::string>& notes) {
  if (!cubin.ok()) {
    notes.push_back(cubin.status().message() + ": SASS offsets only");
    return {};
  }
  if (!nvdisasm) return {};
  StatusOr<std::string> text = disassembly::RunNvdisasm(*nvdisasm, cubin.value());
  if (!text.ok()) {
    notes.push_back("no SASS text for cubin " + std::to_string(crc) + ": " +
                    text.status().message());
    return {};
  }
  return disassembly::ParseNvdisasmListing(*text);
}

// One function's instructions: the listing's (every instruction, with its text) and any pc of
// the values the listing lacks (no listing: the values' pcs alone).
std::map<std::uint64_t, std::optional<std::string>> InstructionsOf(
    const CubinFunction& function, const disassembly::SassListing& listing) {
  std::map<std::uint64_t, std::optional<std::string>> pcs;
  if (auto found = listing.find(function.name); found != listing.end()) {
    for (const disassembly::SassInstruction& instruction : found->second) {
      pcs[instruction.offset] = instruction.text;
    }
  }
  for (std::uint64_t pc : function.value_pcs) pcs.try_emplace(pc, std::nullopt);
  return pcs;
}

// The rows of one cubin's functions, their lines read in a child process, and the text of the
// files those lines name added to `evaluation` once each.
void AddCubin(std::uint64_t crc, const std::map<std::int64_t, CubinFunction>& functions,
              const std::optional<std::string>& nvdisasm, const store::ReportReader& report,
              SourceEvaluation& evaluation) {
  const StatusOr<std::vector<std::uint8_t>> cubin = store::ReadCubin(report, crc);
  const disassembly::SassListing listing = Disassemble(nvdisasm, cubin, crc, evaluation.notes);
  std::vector<const CubinFunction*> order;
  std::vector<std::map<std::uint64_t, std::optional<std::string>>> instructions;
  std::vector<FunctionPcs> wanted;
  for (const auto& [id, function] : functions) {
    order.push_back(&function);
    instructions.push_back(InstructionsOf(function, listing));
    wanted.push_back({function.name, {}});
    for (const auto& [pc, text] : instructions.back()) wanted.back().pcs.push_back(pc);
  }
  std::vector<std::vector<std::optional<cupti::host::SourceLocation>>> lines(wanted.size());
  if (cubin.ok()) {
    auto read = SourceLinesIsolated(cubin.value(), wanted);
    if (read.ok()) {
      lines = std::move(*read);
    } else {
      evaluation.notes.push_back("no source lines for cubin " + std::to_string(crc) + ": " +
                                 read.status().message());
    }
  }
  for (std::size_t f = 0; f < order.size(); ++f) {
    std::size_t i = 0;
    for (const auto& [pc, text] : instructions[f]) {
      store::SassInstructionRow row{crc,  order[f]->function_id, pc,
                                    text, std::nullopt,          std::nullopt};
      if (i < lines[f].size() && lines[f][i]) {
        row.file = lines[f][i]->file;
        row.line = lines[f][i]->line;
        if (!evaluation.rows.files.contains(*row.file)) {
          evaluation.rows.files[*row.file] = ReadSourceFile(*row.file);
        }
      }
      ++i;
      evaluation.rows.instructions.push_back(std::move(row));
    }
  }
}

}  // namespace

StatusOr<SourceEvaluation> EvaluateSource(const store::ReportReader& report,
                                          const disassembly::NvdisasmSearch& nvdisasm_search) {
  SourceEvaluation evaluation;
  if (!store::HasSourceTables(report)) return evaluation;
  StatusOr<CubinFunctions> cubins = FunctionsToRead(report);
  if (!cubins.ok()) return cubins.status();
  if (cubins->empty()) return evaluation;
  const std::optional<std::string> nvdisasm = disassembly::FindNvdisasm(nvdisasm_search);
  if (!nvdisasm) evaluation.notes.push_back(kNoNvdisasm);
  for (const auto& [crc, functions] : *cubins)
    AddCubin(crc, functions, nvdisasm, report, evaluation);
  return evaluation;
}

namespace {

// Notes quote report contents and nvdisasm's stderr: control characters are shown escaped, so a
// note stays one line and the terminal runs nothing from it.
std::string OneTerminalLine(const std::string& text) {
  std::string shown;
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      shown += "\\x";
      shown += kHex[c >> 4];
      shown += kHex[c & 15];
    } else {
      shown += static_cast<char>(c);
    }
  }
  return shown;
}

}  // namespace

void SayNotesOnce(const std::vector<std::string>& notes) {
  static std::mutex mutex;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> lock(mutex);
  for (const std::string& note : notes) {
    if (said.insert(note).second) {
      std::cerr << "gpuscope: warning: " << OneTerminalLine(note) << '\n';
    }
  }
}

}  // namespace gpuscope::evaluate
