#include "inject/nvtx_pairing.h"

namespace gpuscope::inject {
namespace {

// Attributes whose marker never shows up must not accumulate forever; a program with
// more markers in flight than this loses colors (not records).
constexpr std::size_t kMaxEarlyAttributes = 4096;
// Data normally follows its marker directly; look this far back among held marks.
constexpr std::size_t kHeldMarkSearchDepth = 16;

model::NvtxKind RangeKind(bool process_scoped) {
  return process_scoped ? model::NvtxKind::kStartEndRange : model::NvtxKind::kPushPopRange;
}

}  // namespace

void NvtxPairing::OnMarker(const NvtxMarker& marker) {
  switch (marker.phase) {
    case MarkerPhase::kInstant: {
      HeldMark held;
      held.record.kind = model::NvtxKind::kMark;
      held.record.start = marker.timestamp;
      held.record.end = marker.timestamp;
      held.record.id = marker.id;
      held.record.process_id = marker.process_id;
      held.record.thread_id = marker.thread_id;
      held.record.name = marker.name;
      held.record.domain = marker.domain;
      if (auto early = early_attributes_.find(marker.id); early != early_attributes_.end()) {
        held.record.color = early->second.color;
        held.record.category = early->second.category;
        early_attributes_.erase(early);
      }
      held_marks_.push_back(held);
      return;
    }
    case MarkerPhase::kStart: {
      OpenRange range;
      range.kind = RangeKind(marker.process_scoped);
      range.start = marker.timestamp;
      range.id = marker.id;
      range.process_id = marker.process_id;
      range.thread_id = marker.thread_id;
      range.name.assign(marker.name);
      range.domain.assign(marker.domain);
      if (auto early = early_attributes_.find(marker.id); early != early_attributes_.end()) {
        range.color = early->second.color;
        range.category = early->second.category;
        early_attributes_.erase(early);
      }
      if (auto orphan = orphan_ends_.find(marker.id); orphan != orphan_ends_.end()) {
        WriteRange(range, orphan->second.end, orphan->second.thread_id);
        orphan_ends_.erase(orphan);
        return;
      }
      open_[marker.id] = std::move(range);
      return;
    }
    case MarkerPhase::kEnd: {
      if (auto open = open_.find(marker.id); open != open_.end()) {
        WriteRange(open->second, marker.timestamp, marker.thread_id);
        open_.erase(open);
        return;
      }
      orphan_ends_[marker.id] = OrphanEnd{RangeKind(marker.process_scoped), marker.timestamp,
                                          marker.process_id, marker.thread_id};
      return;
    }
  }
}

bool NvtxPairing::ApplyToHeldMark(std::uint32_t id, const MarkerAttributes& attributes) {
  std::size_t searched = 0;
  for (auto it = held_marks_.rbegin(); it != held_marks_.rend() && searched < kHeldMarkSearchDepth;
       ++it, ++searched) {
    if (it->record.id == id) {
      it->record.color = attributes.color;
      it->record.category = attributes.category;
      return true;
    }
  }
  return false;
}

void NvtxPairing::OnMarkerData(std::uint32_t id, std::uint32_t color, std::uint32_t category) {
  const MarkerAttributes attributes{color, category};
  if (ApplyToHeldMark(id, attributes)) return;
  if (auto open = open_.find(id); open != open_.end()) {
    open->second.color = color;
    open->second.category = category;
    return;
  }
  if (early_attributes_.size() >= kMaxEarlyAttributes) early_attributes_.clear();
  early_attributes_[id] = attributes;
}

model::NvtxKind NvtxPairing::RangeKindOf(model::NvtxKind seen, std::uint32_t id,
                                         bool crossed_threads) {
  // Take() also forgets the id, so the registry only holds ranges still open.
  const bool registered = start_end_ids_ != nullptr && start_end_ids_->Take(id);
  if (registered || crossed_threads) return model::NvtxKind::kStartEndRange;
  return seen;
}

void NvtxPairing::WriteRange(const OpenRange& range, model::Timestamp end,
                             std::uint32_t end_thread) {
  model::NvtxRecord record;
  const bool crossed_threads = end_thread != 0 && end_thread != range.thread_id;
  record.kind = RangeKindOf(range.kind, range.id, crossed_threads);
  record.start = range.start;
  record.end = end;
  record.id = range.id;
  record.process_id = range.process_id;
  record.thread_id = range.thread_id;
  record.color = range.color;
  record.category = range.category;
  record.name = range.name;
  record.domain = range.domain;
  sink_.OnNvtx(record);
}

void NvtxPairing::EndOfBatch() {
  for (const HeldMark& held : held_marks_) sink_.OnNvtx(held.record);
  held_marks_.clear();
}

void NvtxPairing::Finish() {
  EndOfBatch();
  for (const auto& [id, range] : open_) {
    WriteRange(range, /*end=*/0, /*end_thread=*/0);
    ++unfinished_ranges_;
  }
  open_.clear();
  for (const auto& [id, orphan] : orphan_ends_) {
    model::NvtxRecord record;
    record.kind = RangeKindOf(orphan.kind, id, /*crossed_threads=*/false);
    record.start = 0;
    record.end = orphan.end;
    record.id = id;
    record.process_id = orphan.process_id;
    record.thread_id = orphan.thread_id;
    sink_.OnNvtx(record);
    ++unfinished_ranges_;
  }
  orphan_ends_.clear();
  early_attributes_.clear();
}

}  // namespace gpuscope::inject
