// What a profile asked for, as the evaluation of its counter data needs it: the request the
// report stores (sections and --metrics) and the metric names that request collects.
// `gpuscope profile` knows both when the program ends; a report read later (a killed
// program, a report copied from the GPU machine) says it in its meta rows.
#pragma once

#include <string>
#include <vector>

#include "evaluate/metric_hosts.h"
#include "store/profile_store.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::evaluate {

struct ProfileAsk {
  store::ProfileRequest request;          // stored as meta profile_sections / profile_metrics
  std::vector<std::string> metric_names;  // evaluated from each kernel's counter data
};

// The request `report` stores, or Nsight Compute's default (the basic set) for a report that
// does not say, with the names its sections, its --metrics and the clocks need, restricted to
// what `chip` has. Errors: a section this build does not know, a chip CUPTI does not know.
StatusOr<ProfileAsk> AskOfReport(const store::ReportReader& report, const std::string& chip,
                                 MetricHosts& hosts);

}  // namespace gpuscope::evaluate
