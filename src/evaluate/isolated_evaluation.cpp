#include "evaluate/isolated_evaluation.h"

#include <cstring>
#include <string>

#include "evaluate/cupti_child.h"

namespace gpuscope::evaluate {
namespace {

// The child's answer on the pipe: one byte (1 values, 0 error), then for values the count and
// per value a presence byte and the double; for an error its message.
std::string Encode(StatusOr<std::vector<std::optional<double>>> result) {
  std::string bytes;
  if (!result.ok()) {
    bytes.push_back('\0');
    bytes += result.status().message();
    return bytes;
  }
  bytes.push_back('\1');
  std::uint64_t count = result->size();
  bytes.append(reinterpret_cast<const char*>(&count), sizeof count);
  for (const std::optional<double>& value : *result) {
    bytes.push_back(value.has_value() ? '\1' : '\0');
    double number = value.value_or(0.0);
    bytes.append(reinterpret_cast<const char*>(&number), sizeof number);
  }
  return bytes;
}

StatusOr<std::vector<std::optional<double>>> Decode(const std::string& bytes,
                                                    std::size_t expected) {
  const Status garbled = Status::Error("the evaluating process gave no whole answer");
  if (bytes.empty()) return garbled;
  if (bytes[0] == '\0') return Status::Error(bytes.substr(1));
  std::uint64_t count = 0;
  if (bytes.size() < 1 + sizeof count) return garbled;
  std::memcpy(&count, bytes.data() + 1, sizeof count);
  if (count != expected || bytes.size() != 1 + sizeof count + count * (1 + sizeof(double))) {
    return garbled;
  }
  std::vector<std::optional<double>> values;
  const char* at = bytes.data() + 1 + sizeof count;
  for (std::uint64_t i = 0; i < count; ++i, at += 1 + sizeof(double)) {
    double number = 0;
    std::memcpy(&number, at + 1, sizeof number);
    values.push_back(at[0] == '\1' ? std::optional<double>(number) : std::nullopt);
  }
  return values;
}

}  // namespace

StatusOr<std::vector<std::optional<double>>> EvaluateIsolated(
    cupti::host::MetricHost& host, std::span<const std::uint8_t> counter_data, std::size_t range,
    const std::vector<std::string>& names, std::chrono::milliseconds limit) {
  StatusOr<ChildAnswer> answer = RunInCuptiChild(
      [&] { return Encode(host.Evaluate(counter_data, range, names)); }, limit,
      "cannot evaluate the counter data");
  if (!answer.ok()) return answer.status();
  if (answer->ending == ChildAnswer::Ending::kTimedOut) {
    return Status::Error("CUPTI's evaluation of the counter data did not finish within " +
                         std::to_string(limit.count() / 1000) + " s (damaged image?)");
  }
  if (answer->ending == ChildAnswer::Ending::kCrashed) {
    return Status::Error("CUPTI's host library crashed on the counter data (signal " +
                         std::to_string(answer->signal) + "): the image is damaged");
  }
  return Decode(answer->bytes, names.size());
}

}  // namespace gpuscope::evaluate
