// The framing rule every viewer answer carries. A page of another site must not show the
// viewer in a frame (clickjacking: a transparent frame over its own buttons), and
// `frame-ancestors` only works as a response header (browsers ignore it in index.html's
// <meta> policy), so the server adds it to every answer, merged into any policy the answer
// already has.
#pragma once

#include <string>
#include <string_view>

namespace gpuscope::viewer {

// The policy framing forbids: "frame-ancestors 'none'".
inline constexpr std::string_view kNoFramingPolicy = "frame-ancestors 'none'";

// `policy` (a Content-Security-Policy value, perhaps empty) with any frame-ancestors
// directive of its own replaced by frame-ancestors 'none'; its other directives are kept.
std::string WithFramingRefused(std::string_view policy);

}  // namespace gpuscope::viewer
