//===- TensorData.cpp - cs349-run's inputs, outputs and comparison --------===//

#include "TensorData.h"

#include <cmath>
#include <cstring>
#include <sstream>

using namespace cs349::run;

int64_t cs349::run::elementBytes(ElementKind kind) {
  return kind == ElementKind::F32 ? 4 : 2;
}

const char *cs349::run::elementName(ElementKind kind) {
  switch (kind) {
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::F16:
    return "f16";
  case ElementKind::F32:
    return "f32";
  }
  return "?";
}

namespace {
uint32_t bitsOf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  return bits;
}

float floatOf(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, 4);
  return value;
}

uint16_t toBF16(float value) {
  uint32_t bits = bitsOf(value);
  if (std::isnan(value))
    return uint16_t((bits >> 16) | 0x40);
  // Round to nearest, ties to even, on the 16 bits that are dropped.
  uint32_t rounding = 0x7fff + ((bits >> 16) & 1);
  return uint16_t((bits + rounding) >> 16);
}

uint16_t toF16(float value) {
  uint32_t bits = bitsOf(value);
  uint32_t sign = (bits >> 16) & 0x8000;
  uint32_t exponent = (bits >> 23) & 0xff;
  uint32_t mantissa = bits & 0x7fffff;
  if (exponent == 0xff)
    return uint16_t(sign | 0x7c00 | (mantissa ? 0x200 : 0));
  int32_t e = int32_t(exponent) - 127 + 15;
  if (e >= 0x1f)
    return uint16_t(sign | 0x7c00);
  if (e <= 0) {
    // Subnormal (or zero): shift the implicit-one mantissa into place.
    if (e < -10)
      return uint16_t(sign);
    mantissa |= 0x800000;
    uint32_t shift = uint32_t(14 - e);
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t midpoint = 1u << (shift - 1);
    if (rest > midpoint || (rest == midpoint && (half & 1)))
      ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = (uint32_t(e) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half; // may carry into the exponent, which is the right rounding
  return uint16_t(sign | half);
}

float fromF16(uint16_t half) {
  uint32_t sign = uint32_t(half & 0x8000) << 16;
  uint32_t exponent = (half >> 10) & 0x1f;
  uint32_t mantissa = half & 0x3ff;
  if (exponent == 0x1f)
    return floatOf(sign | 0x7f800000 | (mantissa << 13));
  if (exponent == 0) {
    float value = std::ldexp(float(mantissa), -24);
    return sign ? -value : value;
  }
  return floatOf(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

uint64_t splitmix64(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// splitmix64's output function applied to one word: a 64-bit mixer.
uint64_t mix(uint64_t x) {
  uint64_t state = x;
  return splitmix64(state);
}
} // namespace

void cs349::run::storeElement(ElementKind kind, float value, void *to) {
  switch (kind) {
  case ElementKind::BF16: {
    uint16_t bits = toBF16(value);
    std::memcpy(to, &bits, 2);
    return;
  }
  case ElementKind::F16: {
    uint16_t bits = toF16(value);
    std::memcpy(to, &bits, 2);
    return;
  }
  case ElementKind::F32:
    std::memcpy(to, &value, 4);
    return;
  }
}

float cs349::run::loadElement(ElementKind kind, const void *from) {
  switch (kind) {
  case ElementKind::BF16: {
    uint16_t bits;
    std::memcpy(&bits, from, 2);
    return floatOf(uint32_t(bits) << 16);
  }
  case ElementKind::F16: {
    uint16_t bits;
    std::memcpy(&bits, from, 2);
    return fromF16(bits);
  }
  case ElementKind::F32: {
    float value;
    std::memcpy(&value, from, 4);
    return value;
  }
  }
  return 0.0f;
}

std::vector<float>
cs349::run::argumentValues(uint64_t seed, unsigned position,
                           const std::vector<int64_t> &shape) {
  uint64_t state = mix(seed ^ mix(position + 1));
  int64_t count = 1;
  for (int64_t size : shape) {
    state = mix(state ^ uint64_t(size));
    count *= size;
  }
  double low = 0.5, width = 1.0;
  if (shape.size() >= 2) {
    double bound = std::sqrt(3.0 / double(shape[shape.size() - 2]));
    low = -bound;
    width = 2.0 * bound;
  }
  std::vector<float> values(count);
  for (float &value : values) {
    // The top 24 bits: exactly representable as a float in [0, 1).
    double unit = double(splitmix64(state) >> 40) / double(1 << 24);
    value = float(low + width * unit);
  }
  return values;
}

bool cs349::run::parseResults(const std::string &text,
                              std::vector<ResultText> &results,
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

Comparison cs349::run::compareResults(const std::vector<ResultText> &a,
                                      const std::vector<ResultText> &b,
                                      double rtol, double atol) {
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
