#include "source_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>

namespace gpuscope::ncu_csv {
namespace {

bool HasColumn(const SourceFunction& function, const std::string& column) {
  return std::find(function.columns.begin(), function.columns.end(), column) !=
         function.columns.end();
}

double ValueOrZero(const SourceRow& row, const std::string& column) {
  return row.Value(column).value_or(0.0);
}

std::map<std::uint64_t, const SourceRow*> ByOffset(const SourceFunction& function,
                                                   std::vector<std::string>& problems,
                                                   const char* tool) {
  std::map<std::uint64_t, const SourceRow*> rows;
  for (const SourceRow& row : function.rows) {
    if (!row.offset) continue;  // a source line, not an instruction
    if (!rows.emplace(*row.offset, &row).second) {
      problems.push_back(std::string(tool) + " lists offset " + row.address + " twice");
    }
  }
  return rows;
}

std::string Describe(std::uint64_t offset, const SourceRow& row) {
  std::ostringstream text;
  text << "+0x" << std::hex << offset << " " << row.source;
  return text.str();
}

}  // namespace

bool CountsAgree(double reference, double measured, double relative_tolerance) {
  if (reference == 0 || measured == 0) return reference == measured;
  return std::fabs(measured - reference) <= relative_tolerance * std::fabs(reference);
}

double SassColumnSum(const SourceFunction& function, const std::string& column) {
  double sum = 0;
  for (const SourceRow& row : function.rows) {
    if (row.offset) sum += ValueOrZero(row, column);
  }
  return sum;
}

SourceComparison CompareSourceFunctions(const SourceFunction& reference,
                                        const SourceFunction& measured,
                                        const std::vector<std::string>& columns,
                                        double relative_tolerance) {
  SourceComparison result;
  std::vector<std::string> compared;
  for (const std::string& column : columns) {
    if (!HasColumn(measured, column)) {
      result.problems.push_back("gpuscope has no column \"" + column + "\"");
    } else if (!HasColumn(reference, column)) {
      result.absent_in_reference.push_back(column);
    } else {
      compared.push_back(column);
    }
  }
  auto reference_rows = ByOffset(reference, result.problems, "ncu");
  auto measured_rows = ByOffset(measured, result.problems, "gpuscope");
  if (reference_rows.empty()) result.problems.push_back("ncu lists no instruction");

  // An instruction only one tool lists is acceptable only if it never ran (alignment NOPs
  // after the last EXIT may or may not be listed).
  const std::string executed = "Instructions Executed";
  for (const auto& [offset, row] : reference_rows) {
    if (!measured_rows.count(offset) && ValueOrZero(*row, executed) != 0) {
      result.problems.push_back("gpuscope lacks executed instruction " + Describe(offset, *row));
    }
  }
  for (const auto& [offset, row] : measured_rows) {
    auto other = reference_rows.find(offset);
    if (other == reference_rows.end()) {
      if (ValueOrZero(*row, executed) != 0) {
        result.problems.push_back("ncu lacks executed instruction " + Describe(offset, *row));
      }
      continue;
    }
    const SourceRow& ncu_row = *other->second;
    ++result.matched_instructions;
    if (SassMnemonic(ncu_row.source) != SassMnemonic(row->source)) {
      result.problems.push_back("different instructions at " + Describe(offset, *row) +
                                " (ncu: " + ncu_row.source + ")");
      continue;
    }
    for (const std::string& column : compared) {
      const double want = ValueOrZero(ncu_row, column);
      const double got = ValueOrZero(*row, column);
      ++result.values_compared;
      if (want != 0 && got != 0) ++result.nonzero_compared[column];
      if (!CountsAgree(want, got, relative_tolerance)) {
        std::ostringstream line;
        line << column << " at " << Describe(offset, *row) << ": ncu " << want << ", gpuscope "
             << got;
        result.problems.push_back(line.str());
      }
    }
    for (const std::string& column : result.absent_in_reference) {
      if (ValueOrZero(*row, column) != 0) {
        result.problems.push_back(column + " at " + Describe(offset, *row) +
                                  ": ncu prints no such column for this kernel, gpuscope " +
                                  std::to_string(ValueOrZero(*row, column)));
      }
    }
  }
  return result;
}

}  // namespace gpuscope::ncu_csv
