#include "analysis/ranks/nccl_api_calls.h"

#include <cctype>

namespace gpuscope::analysis::ranks {
namespace {

// "ncclAllReduce" from "ncclAllReduce", "ncclAllReduce(): commHash ...": the identifier at
// the start of the message.
std::string_view LeadingIdentifier(std::string_view message) {
  std::size_t length = 0;
  while (
      length < message.size() &&
      (std::isalnum(static_cast<unsigned char>(message[length])) != 0 || message[length] == '_')) {
    ++length;
  }
  return message.substr(0, length);
}

// The word after `key ` in `message` ("data_size 4096," -> "4096"); empty when absent.
std::string_view ValueAfter(std::string_view message, std::string_view key) {
  std::size_t at = message.find(key);
  while (at != std::string_view::npos) {
    bool word_start = at == 0 || message[at - 1] == ' ' || message[at - 1] == ',';
    std::size_t value = at + key.size();
    if (word_start && value < message.size() && message[value] == ' ') {
      std::size_t end = message.find_first_of(", )", value + 1);
      return message.substr(value + 1,
                            (end == std::string_view::npos ? message.size() : end) - value - 1);
    }
    at = message.find(key, at + 1);
  }
  return {};
}

std::optional<std::uint64_t> Decimal(std::string_view text) {
  if (text.empty() || text.size() > 19) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return value;
}

}  // namespace

std::optional<NcclApiCall> RecognizeNcclApiCall(const model::NvtxRecord& range) {
  if (range.kind == model::NvtxKind::kMark || range.end < range.start || range.end == 0) {
    return std::nullopt;
  }
  std::string_view name = LeadingIdentifier(range.name);
  // NCCL's functions are nccl<Capital>...; a user's range "nccl_step" is not one.
  bool nccl_name = name.size() > 4 && name.starts_with("nccl") &&
                   std::isupper(static_cast<unsigned char>(name[4])) != 0;
  bool described = range.name.substr(name.size()).starts_with("()");  // "ncclX(): ..."
  if (!nccl_name || (range.domain != kNcclNvtxDomain && !described)) return std::nullopt;
  // RCCL's builds name the implementation ("ncclAllReduce_impl"): the API call is the same.
  if (name.ends_with("_impl")) name.remove_suffix(5);
  NcclApiCall call;
  call.name = std::string(name);
  call.bytes = Decimal(ValueAfter(range.name, "data_size"));
  call.communicator = std::string(ValueAfter(range.name, "commHash"));
  return call;
}

}  // namespace gpuscope::analysis::ranks
