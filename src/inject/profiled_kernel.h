// A measured kernel launch on its way from the launch callback (the program's thread) to
// the report writer (the collector's thread): model::ProfiledKernelRecord with owned
// storage, since the record's views must outlive the callback.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/profile_records.h"

namespace gpuscope::inject {

// The source counters of one launch, with the storage their views point into.
struct OwnedSourceCounters {
  bool requested = false;
  std::string message;  // empty: all collected; else why not (one line)
  std::uint64_t total_samples = 0;
  std::uint64_t dropped_samples = 0;
  std::uint32_t sampling_period = 0;
  std::vector<model::InstructionValue> values;  // names point into `names`
  std::vector<std::vector<std::uint8_t>> cubin_images;
  std::vector<std::uint64_t> cubin_crcs;  // parallel to cubin_images

  // Stores `name` once; the view stays valid while this object lives (also after a move:
  // a deque's elements never move).
  std::string_view Name(std::string_view name) {
    auto found = index_.find(std::string(name));
    if (found != index_.end()) return names_[found->second];
    names_.emplace_back(name);
    index_.emplace(names_.back(), names_.size() - 1);
    return names_.back();
  }

 private:
  std::deque<std::string> names_;
  std::unordered_map<std::string, std::size_t> index_;
};

struct OwnedProfiledKernel {
  model::ProfiledKernelRecord record;  // its views are set by View()
  std::string mangled_name;
  std::string chip;
  std::string message;
  std::vector<std::uint8_t> counter_data;
  OwnedSourceCounters source;
  std::vector<model::CubinImage> cubin_views;  // filled by View()

  // The record, its views pointing into this object (which must outlive the view).
  model::ProfiledKernelRecord View() {
    model::ProfiledKernelRecord view = record;
    view.mangled_name = mangled_name;
    view.chip = chip;
    view.message = message;
    view.counter_data = counter_data;
    view.source.requested = source.requested;
    view.source.message = source.message;
    view.source.total_samples = source.total_samples;
    view.source.dropped_samples = source.dropped_samples;
    view.source.sampling_period = source.sampling_period;
    view.instruction_values = source.values;
    cubin_views.clear();
    for (std::size_t i = 0; i < source.cubin_images.size(); ++i) {
      cubin_views.push_back({source.cubin_crcs[i], source.cubin_images[i]});
    }
    view.cubins = cubin_views;
    return view;
  }
};

}  // namespace gpuscope::inject
