//===- ProblemIO.cpp - CSV reading/writing and synthetic problems ---------===//

#include "cs349/Planner/ProblemIO.h"

#include "cs349/Support/SplitMix64.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <unordered_map>

namespace cs349::planner {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' ||
                        s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

std::vector<std::string> splitFields(std::string_view line) {
  std::vector<std::string> fields;
  size_t pos = 0;
  while (true) {
    size_t comma = line.find(',', pos);
    std::string_view f = line.substr(
        pos, comma == std::string_view::npos ? std::string_view::npos
                                             : comma - pos);
    fields.emplace_back(trim(f));
    if (comma == std::string_view::npos)
      break;
    pos = comma + 1;
  }
  return fields;
}

bool parseInt64(const std::string &s, int64_t &out) {
  if (s.empty())
    return false;
  size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (i == s.size())
    return false;
  for (size_t k = i; k < s.size(); ++k)
    if (s[k] < '0' || s[k] > '9')
      return false;
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno == ERANGE || *end != '\0')
    return false;
  out = v;
  return true;
}

bool isBlank(std::string_view line) { return trim(line).empty(); }

} // namespace

std::optional<CsvError> parseProblemCsv(std::string_view text,
                                        CsvProblem &out) {
  out = CsvProblem();
  // Split into lines, remembering 1-based numbers; skip blank lines.
  std::vector<std::pair<size_t, std::string_view>> lines;
  size_t lineNo = 0, pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(
        pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    ++lineNo;
    if (!isBlank(line))
      lines.push_back({lineNo, line});
    if (nl == std::string_view::npos)
      break;
    pos = nl + 1;
  }
  if (lines.empty())
    return CsvError{1, "empty file: expected a header 'id,lower,upper,size'"};

  out.header = splitFields(lines[0].second);
  const size_t headerLine = lines[0].first;
  int col[4] = {-1, -1, -1, -1};
  const char *names[4] = {"id", "lower", "upper", "size"};
  for (size_t c = 0; c < out.header.size(); ++c) {
    for (int k = 0; k < 4; ++k) {
      if (out.header[c] != names[k])
        continue;
      if (col[k] != -1)
        return CsvError{headerLine, "duplicate column '" +
                                        std::string(names[k]) + "'"};
      col[k] = (int)c;
    }
  }
  for (int k = 0; k < 4; ++k)
    if (col[k] == -1)
      return CsvError{headerLine,
                      "missing column '" + std::string(names[k]) +
                          "' (the header must name id, lower, upper, size)"};

  std::unordered_map<std::string, size_t> seen;
  for (size_t r = 1; r < lines.size(); ++r) {
    const size_t ln = lines[r].first;
    std::vector<std::string> fields = splitFields(lines[r].second);
    if (fields.size() != out.header.size())
      return CsvError{ln, "expected " + std::to_string(out.header.size()) +
                              " fields, got " +
                              std::to_string(fields.size())};
    const std::string &id = fields[col[0]];
    if (id.empty())
      return CsvError{ln, "empty id"};
    int64_t lower = 0, upper = 0, size = 0;
    for (int k = 1; k < 4; ++k) {
      int64_t v;
      if (!parseInt64(fields[col[k]], v))
        return CsvError{ln, "field '" + std::string(names[k]) +
                                "' is not an integer: '" + fields[col[k]] +
                                "'"};
      (k == 1 ? lower : k == 2 ? upper : size) = v;
    }
    if (size < 0)
      return CsvError{ln, "negative size " + std::to_string(size)};
    if (lower >= upper)
      return CsvError{ln, "empty lifetime: lower " + std::to_string(lower) +
                              " >= upper " + std::to_string(upper)};
    auto [it, inserted] = seen.emplace(id, ln);
    if (!inserted)
      return CsvError{ln, "duplicate id '" + id + "' (first on line " +
                              std::to_string(it->second) + ")"};
    Buffer b;
    int64_t numericId;
    b.id = parseInt64(id, numericId) ? numericId
                                     : (int64_t)out.problem.buffers.size();
    b.start = lower;
    b.end = upper;
    b.size = (uint64_t)size;
    out.problem.buffers.push_back(b);
    out.rows.push_back(std::move(fields));
    out.lines.push_back(ln);
  }
  return std::nullopt;
}

std::string writeSolutionCsv(const CsvProblem &csv, const Plan &plan) {
  std::vector<std::string> header = csv.header;
  int offsetCol = -1;
  for (size_t c = 0; c < header.size(); ++c)
    if (header[c] == "offset")
      offsetCol = (int)c;
  if (offsetCol == -1) {
    offsetCol = (int)header.size();
    header.push_back("offset");
  }
  std::string out;
  auto emit = [&](const std::vector<std::string> &fields) {
    for (size_t c = 0; c < fields.size(); ++c) {
      if (c)
        out += ',';
      out += fields[c];
    }
    out += '\n';
  };
  emit(header);
  for (size_t r = 0; r < csv.rows.size(); ++r) {
    std::vector<std::string> fields = csv.rows[r];
    std::string off = std::to_string(plan.offsets[r]);
    if ((size_t)offsetCol < fields.size())
      fields[offsetCol] = off;
    else
      fields.push_back(off);
    emit(fields);
  }
  return out;
}

std::string writeProblemCsv(const Problem &problem) {
  std::string out = "id,lower,upper,size\n";
  for (const Buffer &b : problem.buffers)
    out += std::to_string(b.id) + ',' + std::to_string(b.start) + ',' +
           std::to_string(b.end) + ',' + std::to_string(b.size) + '\n';
  return out;
}

Problem generateProblem(size_t numBuffers, uint64_t seed) {
  return generateProblem(numBuffers, seed, GenerateOptions());
}

std::optional<GenerateOptions::Lifetimes>
parseGeneratedLifetimes(std::string_view name) {
  using L = GenerateOptions::Lifetimes;
  if (name == "short")
    return L::Short;
  if (name == "long")
    return L::Long;
  if (name == "to-end")
    return L::ToEnd;
  if (name == "training")
    return L::Training;
  return std::nullopt;
}

std::optional<GenerateOptions::Sizes>
parseGeneratedSizes(std::string_view name) {
  using S = GenerateOptions::Sizes;
  if (name == "log-uniform")
    return S::LogUniform;
  if (name == "few")
    return S::Few;
  return std::nullopt;
}

Problem generateProblem(size_t numBuffers, uint64_t seed,
                        const GenerateOptions &options) {
  using L = GenerateOptions::Lifetimes;
  SplitMix64 rng(seed * 0x2545F4914F6CDD1DULL + 12345);
  Problem p;
  p.alignment = 64;
  p.buffers.reserve(numBuffers);
  const int64_t n = (int64_t)numBuffers;
  // A training step of numBuffers / 4 layers: per layer a weight (live
  // throughout), a forward result kept for the backward pass (nested
  // lifetimes), a temporary, and a gradient live from the backward pass to
  // the optimizer step at the end.
  const int64_t layers = std::max<int64_t>(1, n / 4);
  const int64_t horizon = 4 * layers + 2;
  for (int64_t i = 0; i < n; ++i) {
    Buffer b;
    b.id = i;
    switch (options.lifetimes) {
    case L::Short: {
      b.start = i; // one result per step, as in a program
      uint64_t r = rng.below(100);
      uint64_t len;
      if (r < 80)
        len = 1 + rng.below(8); // consumed by the next few kernels
      else if (r < 97)
        len = 1 + rng.below(64);
      else
        len = 1 + rng.below(1024); // skip connections, long-lived results
      b.end = b.start + (int64_t)len;
      break;
    }
    case L::Long: // until a uniformly random later step
      b.start = i;
      b.end = i + 1 + (int64_t)rng.below((uint64_t)(n - i));
      break;
    case L::ToEnd: // an initializer's results: all returned
      b.start = i;
      b.end = n;
      break;
    case L::Training: {
      const int64_t layer = i / 4, fwd = 2 * layer,
                    bwd = horizon - 1 - 2 * layer;
      switch (i % 4) {
      case 0: b.start = 0, b.end = horizon; break;       // weight
      case 1: b.start = fwd, b.end = bwd; break;         // activation
      case 2: b.start = fwd, b.end = fwd + 2; break;     // temporary
      default: b.start = bwd - 1, b.end = horizon; break; // gradient
      }
      break;
    }
    }
    if (b.end <= b.start)
      b.end = b.start + 1;
    if (options.sizes == GenerateOptions::Sizes::LogUniform) {
      // Log-uniform size between 2^6 and 2^24 bytes, multiple of 64.
      uint64_t bits = 6 + rng.below(18);
      uint64_t size = (1ULL << bits) + rng.below(1ULL << bits);
      b.size = std::max<uint64_t>(64, size / 64 * 64);
    } else {
      // The shapes of a model repeat: eight sizes, 64 KiB to 8 MiB, plus a
      // few odd bytes (so that the alignment leaves slivers).
      b.size = (uint64_t(64) << (10 + rng.below(8))) + rng.below(64);
    }
    p.buffers.push_back(b);
  }
  return p;
}

} // namespace cs349::planner
