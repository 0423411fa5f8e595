// `gpuscope ranks`: one page about a multi-rank job (HTA's temporal breakdown, with aligned
// clocks): the alignment of the reports, each rank's breakdown, NCCL's operations, the rank
// rules' findings, and notes on what could not be known. The tables are computed by
// analysis/ranks; this lays them out.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "analysis/finding.h"
#include "analysis/stats_table.h"
#include "render/stats_table_format.h"

namespace gpuscope::render {

struct RanksPage {
  std::vector<analysis::StatsTable> tables;  // rank_align, rank_comm_sum, nccl_sum
  std::vector<analysis::Finding> findings;
  std::vector<std::string> notes;  // "NCCL API calls: bytes unknown ...", one line each
};

// Column: the tables as `stats --report` prints them, then "Findings:" with one paragraph
// per finding (as the trace findings), or "Findings: none", then "Notes:". CSV: each table
// after a "# <name>" line, then "# findings" (the trace findings' CSV) and "# notes", blank
// lines between. JSON: one object {"<table name>": [rows], ..., "findings": [...],
// "notes": [...]}.
void WriteRanksPage(const RanksPage& page, StatsFormat format, std::ostream& out);

}  // namespace gpuscope::render
