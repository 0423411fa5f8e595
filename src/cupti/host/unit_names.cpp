#include "cupti/host/unit_names.h"

#include <array>
#include <optional>

namespace gpuscope::cupti::host {
namespace {

struct UnitName {
  std::string_view cupti;
  std::string_view ncu;
};

// Every factor CUPTI 13.0 uses on GH100 (and the other domains' cycles), renamed where ncu
// spells it differently. Matched longest first, so "l1tex_request" wins over shorter names.
constexpr std::array kUnitNames = {
    UnitName{"l1data_bank_conflict", "bank_conflict"},
    UnitName{"l1data_bank_access", "bank_access"},
    UnitName{"l1tex_wavefront", "wavefront"},
    UnitName{"l1tex_request", "request"},
    UnitName{"branch_target", "branch_target"},
    UnitName{"nvltx_cycle", "cycle"},
    UnitName{"nvlrx_cycle", "cycle"},
    UnitName{"gcc_request", "request"},
    UnitName{"idc_request", "request"},
    UnitName{"pcie_cycle", "cycle"},
    UnitName{"dram_cycle", "cycle"},
    UnitName{"instruction", "inst"},
    UnitName{"l2_request", "request"},
    UnitName{"lrc_sector", "sector"},
    UnitName{"l1tex_line", "line"},
    UnitName{"rf_quantum", "rf_quantum"},
    UnitName{"nanosecond", "nsecond"},
    UnitName{"gpc_cycle", "cycle"},
    UnitName{"sys_cycle", "cycle"},
    UnitName{"fbp_cycle", "cycle"},
    UnitName{"ctc_cycle", "cycle"},
    UnitName{"l2_sector", "sector"},
    UnitName{"l1tex_tag", "tag"},
    UnitName{"kilobyte", "Kbyte"},
    UnitName{"register", "register"},
    UnitName{"workload", "workload"},
    UnitName{"lrc_req", "request"},
    UnitName{"percent", "%"},
    UnitName{"math_op", "math_op"},
    UnitName{"L2_tag", "tag"},
    UnitName{"second", "second"},
    UnitName{"thread", "thread"},
    UnitName{"fe_op", "fe_op"},
    UnitName{"byte", "byte"},
    UnitName{"warp", "warp"},
    UnitName{"cta", "cta"},
    UnitName{"cga", "cga"},
};

// One side of a quotient: a concatenated product of factors, or nullopt if a factor is unknown.
std::optional<std::string> RenameProduct(std::string_view product) {
  std::string renamed;
  while (!product.empty()) {
    const UnitName* match = nullptr;
    for (const UnitName& unit : kUnitNames) {
      if (product.starts_with(unit.cupti) && (!match || unit.cupti.size() > match->cupti.size())) {
        match = &unit;
      }
    }
    if (!match) return std::nullopt;
    if (!renamed.empty()) renamed += '*';
    renamed += match->ncu;
    product.remove_prefix(match->cupti.size());
  }
  return renamed;
}

}  // namespace

std::string NcuStyleUnit(std::string_view cupti_dimension) {
  std::string renamed;
  std::string_view rest = cupti_dimension;
  while (true) {
    std::size_t slash = rest.find('/');
    std::optional<std::string> side = RenameProduct(rest.substr(0, slash));
    if (!side) return std::string(cupti_dimension);
    renamed += *side;
    if (slash == std::string_view::npos) break;
    renamed += '/';
    rest.remove_prefix(slash + 1);
  }
  return renamed;
}

}  // namespace gpuscope::cupti::host
