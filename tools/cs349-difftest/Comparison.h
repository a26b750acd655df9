//===- Comparison.h - two runs' results, bit for bit or within a tolerance -===//

#ifndef CS349_TOOLS_CS349DIFFTEST_COMPARISON_H
#define CS349_TOOLS_CS349DIFFTEST_COMPARISON_H

#include <optional>
#include <string>
#include <vector>

namespace cs349::difftest {

/// One result of a run: its type as printed and its elements as floats.
struct ResultValues {
  std::string type;
  std::vector<float> values;
};

/// Nothing when `actual` reproduces `reference`, else what differs. Bit for
/// bit: the same float, where two NaNs are the same when their signs are (as
/// cs349-run prints them); within the tolerance: |a - r| <= atol + rtol·|r|,
/// and NaN and ±inf must match.
std::optional<std::string> compareRuns(const std::vector<ResultValues> &reference,
                                       const std::vector<ResultValues> &actual,
                                       bool exact, double rtol, double atol);

} // namespace cs349::difftest

#endif // CS349_TOOLS_CS349DIFFTEST_COMPARISON_H
