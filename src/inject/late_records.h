// What CUPTI delivered after the report was closed: counted by what each record is ("kernel
// scale(float*, int)", "cuLibraryUnload", "memcpy"), so that the one line said at the end of
// the process names what is missing from the report instead of only how much.
//
// gpuscope's own calls (own_replay_calls.h: the clock kernel, replays) are not the program's
// work: the translator leaves them out, as the router leaves them out of the report.
//
// Thread-safe: buffers come late on CUPTI's threads; rare, so one mutex.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace gpuscope::inject {

class LateRecords {
 public:
  void Add(std::string_view what, std::uint64_t count = 1);
  std::uint64_t total() const;
  // "3 cuLibraryUnload, 1 kernel scale(float*, int)": the most frequent first (ties by name),
  // at most `max_items`, then "and N more" for the rest. Empty when nothing came late.
  std::string Describe(std::size_t max_items = 6) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::uint64_t, std::less<>> counts_;
  std::uint64_t total_ = 0;
};

}  // namespace gpuscope::inject
