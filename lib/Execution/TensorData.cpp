//===- TensorData.cpp - cs349-run's inputs, outputs and comparison --------===//

#include "cs349/Execution/TensorData.h"

#include "cs349/Support/FloatRounding.h"
#include "cs349/Support/SplitMix64.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace cs349::run {

void storeElement(ElementKind kind, float value, void *to) {
  switch (kind) {
  case ElementKind::BF16: {
    uint16_t bits = roundToBF16Bits(value);
    std::memcpy(to, &bits, 2);
    return;
  }
  case ElementKind::F16: {
    uint16_t bits = roundToF16Bits(value);
    std::memcpy(to, &bits, 2);
    return;
  }
  case ElementKind::F32:
    std::memcpy(to, &value, 4);
    return;
  case ElementKind::I1:
  case ElementKind::I32:
  case ElementKind::I64:
    // Toward zero, as a given float input converts to an integer argument.
    storeInteger(kind, std::isnan(value) ? 0 : int64_t(value), to);
    return;
  }
}

void storeInteger(ElementKind kind, int64_t value, void *to) {
  switch (kind) {
  case ElementKind::I1: {
    uint8_t byte = value != 0;
    std::memcpy(to, &byte, 1);
    return;
  }
  case ElementKind::I32: {
    int32_t word = int32_t(value);
    std::memcpy(to, &word, 4);
    return;
  }
  case ElementKind::I64:
    std::memcpy(to, &value, 8);
    return;
  default:
    storeElement(kind, float(value), to);
    return;
  }
}

int64_t loadInteger(ElementKind kind, const void *from) {
  switch (kind) {
  case ElementKind::I1: {
    uint8_t byte;
    std::memcpy(&byte, from, 1);
    return byte & 1;
  }
  case ElementKind::I32: {
    int32_t word;
    std::memcpy(&word, from, 4);
    return word;
  }
  case ElementKind::I64: {
    int64_t word;
    std::memcpy(&word, from, 8);
    return word;
  }
  default:
    return int64_t(loadElement(kind, from));
  }
}

float loadElement(ElementKind kind, const void *from) {
  switch (kind) {
  case ElementKind::BF16: {
    uint16_t bits;
    std::memcpy(&bits, from, 2);
    return bf16BitsToFloat(bits);
  }
  case ElementKind::F16: {
    uint16_t bits;
    std::memcpy(&bits, from, 2);
    return f16BitsToFloat(bits);
  }
  case ElementKind::F32: {
    float value;
    std::memcpy(&value, from, 4);
    return value;
  }
  case ElementKind::I1:
  case ElementKind::I32:
  case ElementKind::I64:
    return float(loadInteger(kind, from));
  }
  return 0.0f;
}

std::vector<float> argumentValues(uint64_t seed, unsigned position,
                                  const std::vector<int64_t> &shape) {
  uint64_t state = mixBits(seed ^ mixBits(position + 1));
  int64_t count = 1;
  for (int64_t size : shape) {
    state = mixBits(state ^ uint64_t(size));
    count *= size;
  }
  double low = 0.5, width = 1.0;
  if (shape.size() >= 2) {
    double bound = std::sqrt(3.0 / double(shape[shape.size() - 2]));
    low = -bound;
    width = 2.0 * bound;
  }
  std::vector<float> values(count);
  SplitMix64 rng(state);
  for (float &value : values)
    value = float(low + width * rng.uniform24());
  return values;
}

std::vector<int64_t> integerArgumentValues(uint64_t seed, unsigned position,
                                           const std::vector<int64_t> &shape,
                                           int64_t bound) {
  // Keyed like argumentValues, and with the bound, so that an argument's ids
  // change only when the table they index does.
  uint64_t state = mixBits(seed ^ mixBits(position + 1));
  int64_t count = 1;
  for (int64_t size : shape) {
    state = mixBits(state ^ uint64_t(size));
    count *= size;
  }
  state = mixBits(state ^ uint64_t(bound));
  std::vector<int64_t> values(count);
  SplitMix64 rng(state);
  for (int64_t &value : values)
    value = int64_t(rng.next() % uint64_t(bound));
  return values;
}

bool parseResults(const std::string &text, std::vector<ResultText> &results,
                  std::string &error) {
  std::istringstream lines(text);
  std::string line;
  unsigned lineNumber = 0;
  bool inResult = false;
  while (std::getline(lines, line)) {
    ++lineNumber;
    if (line.empty())
      continue;
    if (line[0] != ' ') {
      // Any other unindented line ("argument N: ...", "memory: ...") ends
      // the values of the result before it.
      inResult = line.rfind("result ", 0) == 0;
      if (inResult)
        results.push_back({line, {}});
      continue;
    }
    if (!inResult)
      continue;
    std::istringstream numbers(line);
    std::string token;
    while (numbers >> token) {
      char *end = nullptr;
      double value = std::strtod(token.c_str(), &end);
      if (end != token.c_str() + token.size()) {
        error = "line " + std::to_string(lineNumber) +
                ": expected a number, got '" + token + "'";
        return false;
      }
      results.back().values.push_back(value);
    }
  }
  return true;
}

Comparison compareResults(const std::vector<ResultText> &a,
                          const std::vector<ResultText> &b, double rtol,
                          double atol) {
  Comparison comparison;
  if (a.size() != b.size()) {
    comparison.error = "expected the same number of results, got " +
                       std::to_string(a.size()) + " and " +
                       std::to_string(b.size());
    return comparison;
  }
  for (size_t r = 0; r < a.size(); ++r) {
    if (a[r].header != b[r].header ||
        a[r].values.size() != b[r].values.size()) {
      comparison.error = "expected '" + a[r].header + "' (" +
                         std::to_string(a[r].values.size()) +
                         " values) to match '" + b[r].header + "' (" +
                         std::to_string(b[r].values.size()) + " values)";
      return comparison;
    }
    for (size_t i = 0; i < a[r].values.size(); ++i) {
      double x = a[r].values[i], y = b[r].values[i];
      ++comparison.compared;
      bool ok;
      if (std::isnan(x) || std::isnan(y) || std::isinf(x) || std::isinf(y)) {
        ok = (std::isnan(x) && std::isnan(y)) || x == y;
      } else {
        double diff = std::fabs(x - y);
        comparison.maxAbsDiff = std::max(comparison.maxAbsDiff, diff);
        if (y != 0.0)
          comparison.maxRelDiff =
              std::max(comparison.maxRelDiff, diff / std::fabs(y));
        ok = diff <= atol + rtol * std::fabs(y);
      }
      if (ok)
        continue;
      if (comparison.mismatches++ < 5) {
        std::ostringstream os;
        os << "result " << r << " element " << i << ": " << x << " vs " << y;
        comparison.firstMismatches.push_back(os.str());
      }
    }
  }
  return comparison;
}

} // namespace cs349::run
