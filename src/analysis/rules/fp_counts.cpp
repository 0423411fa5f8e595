#include "analysis/rules/fp_counts.h"

#include <string>

#include "analysis/rules/source_places.h"

namespace gpuscope::analysis::rules {

std::optional<FpCounts> ReadFpCounts(const RuleInputs& in, char precision) {
  const auto name = [precision](const char* op) {
    return "smsp__sass_thread_inst_executed_op_" + std::string(1, precision) + op + "_pred_on.sum";
  };
  const auto add = in.Metric(name("add"));
  const auto mul = in.Metric(name("mul"));
  const auto fma = in.Metric(name("fma"));
  if (!add || !mul || !fma) return std::nullopt;
  return FpCounts{*add, *mul, *fma};
}

bool LooksLikeFp32Data(const FpCounts& fp32, const FpCounts& fp64) {
  return fp64.Total() > 0 && fp32.Total() >= 0.5 * fp64.Total();
}

std::string Fp64Places(const RuleInputs& in) {
  // Predicated-on counts, as the rule's own FP64 totals; the plain thread count where the
  // source passes did not measure them.
  Places places = TopPlaces(in, "Predicated-On Thread Instructions Executed", IsFp64Arithmetic, 3);
  if (places.top.empty()) {
    places = TopPlaces(in, "Thread Instructions Executed", IsFp64Arithmetic, 3);
  }
  if (places.top.empty()) return "";
  return " The hottest FP64 " + PlacesNoun(places) + ": " +
         JoinPlaces(places.top,
                    [](const Place& place) {
                      std::string text = Count(static_cast<double>(place.value));
                      if (place.file && place.line) {
                        for (std::size_t i = 0; i < place.opcodes.size() && i < 3; ++i) {
                          text += (i == 0 ? " " : "/") + place.opcodes[i];
                        }
                      }
                      return text + " at " + PlaceText(place);
                    }) +
         ".";
}

}  // namespace gpuscope::analysis::rules
