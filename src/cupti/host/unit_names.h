// CUPTI's dimension units ("gpc_cycle", "l2_sector/l1tex_request", "percent") in Nsight Compute's
// spelling ("cycle", "sector/request", "%"), so that raw metric values print the way ncu users
// read them. Pure string logic, no CUPTI.
#pragma once

#include <string>
#include <string_view>

namespace gpuscope::cupti::host {

// CUPTI writes a product of units by concatenation ("gpc_cyclewarp": cycles x warps) and a
// quotient with '/'. Each known factor is renamed (hardware-domain cycles become "cycle",
// "instruction" becomes "inst", L2/L1 sectors and requests lose their unit prefix, "percent"
// becomes "%"); factors of a product are joined with '*'. A text with an unknown factor is
// returned unchanged, so nothing is ever lost.
std::string NcuStyleUnit(std::string_view cupti_dimension);

}  // namespace gpuscope::cupti::host
