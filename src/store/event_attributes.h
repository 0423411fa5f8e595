// The columns of an event beyond its times that `gpuscope report` embeds for the page's
// tooltips, details and related events: correlation ids, a kernel's launch configuration,
// a copy's or memset's bytes and the copy kind's name.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "store/event_tables.h"
#include "store/launch_config.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::store {

// Zero (empty) where a column does not apply to the table or is NULL.
struct EventAttributes {
  std::uint32_t correlation_id = 0;
  std::uint32_t runtime_correlation_id = 0;  // copies: the runtime call's correlation id
  LaunchConfig launch;                       // kernels
  std::int64_t bytes = 0;
  std::string copy_kind;  // copy_kinds.name ("DtoH"), as memcpys_v has it
};

// Fills attributes[id] for every id that is already a key of `attributes`, from the rows of
// `table`. Kernels, memcpys, memsets and API calls have attributes; other tables leave the
// entries as they are. Only the rows between the smallest and the largest id are read.
Status FillEventAttributes(const ReportReader& report, EventTable table,
                           std::unordered_map<std::uint32_t, EventAttributes>& attributes);

}  // namespace gpuscope::store
