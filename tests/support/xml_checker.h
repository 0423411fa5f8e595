// A small XML well-formedness checker for the SVG tests: one root element, properly nested
// and closed tags, quoted and unique attributes, only the five predefined entities or
// numeric character references, no raw '<' or '&' in text or attribute values. Enough to
// prove "the SVG is valid XML" without a parser library. The document's element names are
// collected so tests can count the charts.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace gpuscope::analysis::testing {

struct XmlSummary {
  std::string root;                           // the root element's name
  std::map<std::string, int> element_counts;  // name -> occurrences
  std::string text;                           // all character data, entities decoded
};

// The summary, or nullopt with `error` naming the first problem and its offset.
std::optional<XmlSummary> CheckXml(std::string_view document, std::string* error);

}  // namespace gpuscope::analysis::testing
