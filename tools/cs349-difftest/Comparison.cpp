//===- Comparison.cpp - two runs' results, bit for bit or within a tolerance ===//

#include "Comparison.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace cs349::difftest {

namespace {
bool sameBits(float a, float b) {
  if (std::isnan(a) && std::isnan(b))
    return std::signbit(a) == std::signbit(b);
  return std::memcmp(&a, &b, sizeof(float)) == 0;
}

bool withinTolerance(float reference, float actual, double rtol, double atol) {
  double r = reference, a = actual;
  if (std::isnan(r) || std::isnan(a) || std::isinf(r) || std::isinf(a))
    return r == a || (std::isnan(r) && std::isnan(a));
  return std::fabs(a - r) <= atol + rtol * std::fabs(r);
}
} // namespace

std::optional<std::string> compareRuns(const std::vector<ResultValues> &reference,
                                       const std::vector<ResultValues> &actual,
                                       bool exact, double rtol, double atol) {
  if (reference.size() != actual.size())
    return std::to_string(actual.size()) + " results, expected " +
           std::to_string(reference.size());
  for (size_t index = 0; index < reference.size(); ++index) {
    const ResultValues &ref = reference[index], &act = actual[index];
    if (ref.type != act.type || ref.values.size() != act.values.size())
      return "result " + std::to_string(index) + " is " + act.type +
             ", expected " + ref.type;
    size_t mismatches = 0;
    std::string shown;
    for (size_t i = 0; i < ref.values.size(); ++i) {
      float r = ref.values[i], a = act.values[i];
      if (exact ? sameBits(r, a) : withinTolerance(r, a, rtol, atol))
        continue;
      if (mismatches++ < 4) {
        char text[96];
        std::snprintf(text, sizeof(text), "%s[%zu] %.8e vs %.8e",
                      shown.empty() ? "" : ", ", i, r, a);
        shown += text;
      }
    }
    if (mismatches)
      return "result " + std::to_string(index) + " (" + ref.type + "): " +
             std::to_string(mismatches) + " of " +
             std::to_string(ref.values.size()) + " elements differ" +
             (exact ? " (bit-exact expected)" : "") + ": " + shown;
  }
  return std::nullopt;
}

} // namespace cs349::difftest
