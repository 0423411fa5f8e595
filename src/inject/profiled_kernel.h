// A measured kernel launch on its way from the launch callback (the program's thread) to
// the report writer (the collector's thread): model::ProfiledKernelRecord with owned
// storage, since the record's views must outlive the callback.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/profile_records.h"

namespace gpuscope::inject {

struct OwnedProfiledKernel {
  model::ProfiledKernelRecord record;  // its views are set by View()
  std::string mangled_name;
  std::string chip;
  std::string message;
  std::vector<std::uint8_t> counter_data;

  model::ProfiledKernelRecord View() const {
    model::ProfiledKernelRecord view = record;
    view.mangled_name = mangled_name;
    view.chip = chip;
    view.message = message;
    view.counter_data = counter_data;
    return view;
  }
};

}  // namespace gpuscope::inject
