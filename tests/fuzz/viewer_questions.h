// What the fuzz tests ask the viewer about a mutant (loaded as report 0, its seed as report 1):
// every /api endpoint: reports, tracks, the slices of each track over the whole time range,
// events and kernel pages found in those slices, summaries, the diff both ways. The answers
// come from a callback, so that the same questions go over HTTP to `gpuscope view`
// (view_probe.h) and in-process to the routes (the libFuzzer target).
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace gpuscope::fuzz {

struct ViewerAnswer {
  int status = 0;  // 0: no whole answer
  std::string body;
};

// Asks until the first bad answer (no answer, or a body that is not JSON) and returns what is
// wrong with it ("GET <target>: <why>"), or nullopt when every answer was JSON.
std::optional<std::string> AskViewer(
    const std::function<ViewerAnswer(const std::string& target)>& ask);

}  // namespace gpuscope::fuzz
