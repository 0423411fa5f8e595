// Reading the per-instruction source pages of Nsight Compute and gpuscope (issue 11,
// "Where in the code") into one shape, so that a test can compare them instruction by
// instruction. Two layouts exist:
//  - ncu (`ncu --import r.ncu-rep --page source --csv --print-source sass`): per profiled
//    launch a preamble record "Kernel Name","<demangled name>", then a header "Address",
//    "Source",<columns>, then one record per SASS instruction with its absolute address
//    ("0x7fe0c37ac200"); "-" where a column has no value;
//  - gpuscope (`gpuscope source <report> --csv --print-source sass|cuda`): one flat table,
//    header first: "ID","Kernel Name","Function","Address","Source","File","Line",<columns>,
//    the address an offset in the function ("0x0130"), empty for source-line rows; an
//    empty field has no value.
// Lines that are not records (==PROF== progress, the program's output) are skipped.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace gpuscope::ncu_csv {

// One row of a source page: a SASS instruction, or (gpuscope --print-source cuda) a line.
struct SourceRow {
  std::string address;                  // as printed; "" for a source line
  std::optional<std::uint64_t> offset;  // from the function's first instruction
  std::string source;                   // SASS text or source line text, blanks trimmed
  std::string file;                     // gpuscope only; "" when unknown
  std::optional<long> line;             // gpuscope only
  // Every column after the identity columns, by its header name; nullopt for "" and "-".
  std::map<std::string, std::optional<double>> values;

  // The value of `column`, nullopt when the column is missing or has no value.
  std::optional<double> Value(const std::string& column) const;
};

// The rows of one profiled launch of one function, in the order printed (by address).
struct SourceFunction {
  long id = -1;               // gpuscope's "ID" (profile index); ncu: its n-th block, from 0
  std::string kernel_name;    // as printed ("k_fp64(const float *, float *, int)")
  std::string function_name;  // KernelFunctionName(kernel_name): what launches are matched by
  std::string mangled_name;   // gpuscope's "Function"; "" for ncu
  std::vector<std::string> columns;  // the value columns, in header order
  std::vector<SourceRow> rows;
};

// ncu's layout. Offsets are the address less the first instruction's address.
StatusOr<std::vector<SourceFunction>> ParseNcuSourcePage(std::string_view text);

// ncu 2025.3.1 prints each launch's source page twice in a row (seen on the H100: the probe's
// four launches gave eight blocks, pairwise identical). When every block has an identical twin
// right after it, one of each pair is kept; otherwise the blocks are returned unchanged (two
// real launches of one kernel may well be identical, so a lone repeat proves nothing).
std::vector<SourceFunction> CollapseRepeatedPages(std::vector<SourceFunction> functions);

// gpuscope's layout: consecutive rows of one ID and Function make one SourceFunction.
StatusOr<std::vector<SourceFunction>> ParseGpuscopeSourceCsv(std::string_view text);

// The mnemonic of a SASS instruction with its modifiers, without predicate and operands:
// "@!P1  IMAD.MOV.U32 R2, RZ, RZ, RZ ;" -> "IMAD.MOV.U32". The disassemblers of the two tools
// spell operands differently (branch targets as absolute addresses or labels, a trailing
// ';'), never the mnemonic.
std::string SassMnemonic(std::string_view sass);

}  // namespace gpuscope::ncu_csv
