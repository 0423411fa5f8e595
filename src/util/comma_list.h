// Comma-separated lists: metric names and section ids in environment variables, report meta
// rows and --metrics values. Names never contain commas, so no quoting.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpuscope {

// "a,b,,c" -> {"a", "b", "c"}: empty items are dropped; nothing is trimmed.
std::vector<std::string> SplitCommaList(std::string_view text);

// {"a", "b"} -> "a,b".
std::string JoinCommaList(const std::vector<std::string>& items);

}  // namespace gpuscope
