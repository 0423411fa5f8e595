// viewer_server_bench <report>: how long `gpuscope view` takes to open a report (reader +
// track index) and to answer /api/slices, and the memory the index holds. Make a
// 10-million-event report with `make_synthetic_report <path> 5000000`.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>

#include "viewer/level_of_detail.h"
#include "viewer/viewer_data.h"

namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

long PeakRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace gpuscope::viewer;
  if (argc != 2) {
    std::fprintf(stderr, "usage: viewer_server_bench <report>\n");
    return 2;
  }
  auto start = std::chrono::steady_clock::now();
  auto data = ViewerData::Open({argv[1]});
  if (!data.ok()) {
    std::fprintf(stderr, "viewer_server_bench: %s\n", data.status().message().c_str());
    return 1;
  }
  const TrackIndex& index = data.value()->index(0);
  std::printf("open: %.2f s for %llu events in %zu tracks, peak RSS %ld MiB\n", SecondsSince(start),
              static_cast<unsigned long long>(index.event_count()), index.tracks().size(),
              PeakRssMiB());
  const Track* busiest = nullptr;
  for (const Track& track : index.tracks()) {
    if (!busiest || track.events.size() > busiest->events.size()) busiest = &track;
  }
  if (!busiest || busiest->events.empty()) return 0;
  const std::uint64_t t0 = busiest->events.front().start, t1 = busiest->events.back().end;
  for (std::uint32_t px : {1000u, 4000u}) {
    start = std::chrono::steady_clock::now();
    std::string answer = SlicesJson(index, *busiest, {t0, t1, px});
    std::printf("slices, whole run of %s (%zu events) on %u px: %.1f ms, %zu bytes\n",
                busiest->id.c_str(), busiest->events.size(), px, SecondsSince(start) * 1e3,
                answer.size());
  }
  std::mt19937_64 random(1);
  const int kZooms = 200;
  std::size_t bytes = 0;
  start = std::chrono::steady_clock::now();
  for (int i = 0; i < kZooms; ++i) {
    std::uint64_t width = (t1 - t0) >> (random() % 20);
    std::uint64_t from = t0 + random() % std::max<std::uint64_t>(1, t1 - t0 - width);
    bytes += SlicesJson(index, *busiest, {from, from + width + 1, 2000}).size();
  }
  std::printf("slices, %d random zooms on 2000 px: %.2f ms each, %zu bytes on average\n", kZooms,
              SecondsSince(start) * 1e3 / kZooms, bytes / kZooms);
  return 0;
}
