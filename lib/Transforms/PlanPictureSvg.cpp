//===- PlanPictureSvg.cpp - drawing a memory plan as SVG ------------------===//
//
// Plain SVG 1.1 with no script and no external style, so that browsers,
// rsvg-convert and GitHub all render it the same way; hover text is the
// standard <title> child of each rectangle.
//
//===----------------------------------------------------------------------===//

#include "PlanPicture.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::cs349;
using namespace mlir::cs349::report;

namespace {

constexpr double kLeft = 96, kRight = 210, kTop = 70, kBottom = 40;
constexpr double kPlotHeight = 420, kPlotWidth = 900;
constexpr double kMinCell = 6, kMaxCell = 48, kMinWidth = 640;

std::string escape(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}

/// "16.8 MB (16777216 B)"; just "128 B" when that is already exact.
std::string sizeText(uint64_t bytes) {
  std::string text = formatBytes(bytes);
  if (bytes >= 1000)
    text += " (" + std::to_string(bytes) + " B)";
  return text;
}

/// `name` in at most `chars` characters: generated names are dotted paths
/// ("layer0.attn.q_rope") whose last parts say the most, so leading parts go
/// first, then the tail is cut.
std::string fitLabel(llvm::StringRef name, size_t chars) {
  while (name.size() > chars && name.contains('.'))
    name = name.split('.').second;
  if (name.size() <= chars)
    return name.str();
  return name.take_front(chars - 1).str() + "…";
}

/// 1, 2 or 5 times a power of ten: at most about `count` steps up to `max`.
uint64_t niceStep(uint64_t max, int count) {
  double raw = std::max(1.0, static_cast<double>(max) / count);
  double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double factor : {1.0, 2.0, 5.0, 10.0})
    if (factor * magnitude >= raw)
      return static_cast<uint64_t>(factor * magnitude);
  return static_cast<uint64_t>(10 * magnitude);
}

/// Distinct neighbours: hues a golden angle apart, pastel so that labels stay
/// readable.
std::string fill(size_t index) {
  double hue = std::fmod(static_cast<double>(index) * 137.508, 360.0);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("hsl(%.0f,60%%,78%%)", hue);
  return text;
}

struct Panel {
  const FunctionReport &report;
  double cell = 0;
  double scale = 0; ///< pixels per byte
  double width = 0, height = 0;

  explicit Panel(const FunctionReport &report) : report(report) {
    int64_t kernels = std::max<int64_t>(report.kernels, 1);
    cell = std::clamp(kPlotWidth / kernels, kMinCell, kMaxCell);
    uint64_t extent = std::max(report.arenaBytes, report.lowerBoundBytes);
    for (const BufferRow &row : report.buffers)
      extent = std::max(extent, row.offset + row.bytes);
    scale = kPlotHeight / static_cast<double>(std::max<uint64_t>(extent, 1));
    // Wide enough for the two header lines even with a single kernel.
    width = std::max(kLeft + cell * kernels + kRight, kMinWidth);
    height = kTop + kPlotHeight + kBottom;
  }

  double x(int64_t kernel) const { return kLeft + cell * kernel; }
  double y(uint64_t bytes) const {
    return kTop + scale * static_cast<double>(bytes);
  }

  void write(llvm::raw_ostream &os, double top) const {
    int64_t kernels = std::max<int64_t>(report.kernels, 1);
    double plotRight = x(kernels);
    os << llvm::format("<g transform=\"translate(0,%.1f)\">\n", top);
    os << llvm::format("<text x=\"%.0f\" y=\"22\" font-size=\"15\" "
                       "font-weight=\"bold\">@",
                       kLeft) << escape(report.name) << ": "
       << report.kernels << " kernels, " << report.buffers.size()
       << " written results</text>\n";
    os << llvm::format("<text x=\"%.0f\" y=\"40\" font-size=\"12\">arena ",
                       kLeft)
       << escape(formatBytes(report.arenaBytes)) << " ("
       << escape(report.strategy) << ", alignment " << report.alignment
       << ") · lower bound " << escape(formatBytes(report.lowerBoundBytes))
       << " · no reuse " << escape(formatBytes(report.naiveBytes))
       << "</text>\n";

    // Kernel axis across the top, a faint column per kernel.
    int64_t every = 1;
    for (int64_t step : {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000,
                         5000, 10000})
      if (step * cell >= 22) {
        every = step;
        break;
      }
    os << "<g font-size=\"10\" text-anchor=\"middle\" fill=\"#555\">\n";
    for (int64_t k = 0; k < kernels; k += every)
      os << llvm::format("<text x=\"%.1f\" y=\"%.1f\">%lld</text>\n",
                         x(k) + cell / 2, kTop - 6, static_cast<long long>(k));
    os << "</g>\n";
    os << llvm::format("<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                       "height=\"%.1f\" fill=\"#fafafa\" stroke=\"#999\"/>\n",
                       kLeft, kTop, plotRight - kLeft, kPlotHeight);
    os << "<g stroke=\"#eee\">\n";
    for (int64_t k = 1; k < kernels; ++k)
      os << llvm::format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                         "y2=\"%.1f\"/>\n",
                         x(k), kTop, x(k), kTop + kPlotHeight);
    os << "</g>\n";

    // Offset axis down the left.
    uint64_t extent = static_cast<uint64_t>(kPlotHeight / scale);
    uint64_t step = niceStep(extent, 6);
    os << "<g font-size=\"10\" text-anchor=\"end\" fill=\"#555\">\n";
    for (uint64_t tick = 0; tick <= extent; tick += step)
      os << llvm::format("<text x=\"%.1f\" y=\"%.1f\">", kLeft - 6,
                         y(tick) + 3.5)
         << escape(formatBytes(tick)) << "</text>\n"
         << llvm::format("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                         "y2=\"%.1f\" stroke=\"#999\"/>\n",
                         kLeft - 3, y(tick), kLeft, y(tick));
    os << "</g>\n";
    os << llvm::format("<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
                       "fill=\"#555\">kernel →</text>\n",
                       kLeft, kTop + kPlotHeight + 16);
    os << llvm::format("<text x=\"14\" y=\"%.1f\" font-size=\"11\" "
                       "fill=\"#555\" transform=\"rotate(-90 14 %.1f)\" "
                       "text-anchor=\"end\">offset ↓</text>\n",
                       kTop, kTop);

    // One rectangle per written result.
    os << "<g stroke=\"#333\" stroke-width=\"0.6\">\n";
    for (auto [index, row] : llvm::enumerate(report.buffers)) {
      double left = x(row.first), right = x(row.last + 1);
      double top = y(row.offset);
      double height = std::max(scale * static_cast<double>(row.bytes), 0.8);
      std::string title = row.name + " = " + row.producer + " : " +
                          row.typeText() + ", " + sizeText(row.bytes) +
                          "\nkernels " + std::to_string(row.first) + " to " +
                          std::to_string(row.last) +
                          (row.isFunctionResult ? " (function result)" : "") +
                          ", offset " + sizeText(row.offset);
      os << llvm::format("<rect x=\"%.1f\" y=\"%.2f\" width=\"%.1f\" "
                         "height=\"%.2f\" fill=\"",
                         left, top, right - left, height)
         << fill(index) << "\""
         << (row.isFunctionResult ? " stroke-width=\"1.6\"" : "") << ">"
         << "<title>" << escape(title) << "</title></rect>\n";
      // A label only where it fits; the hover text is always there.
      size_t chars = static_cast<size_t>((right - left - 4) / 6);
      if (height >= 11 && chars >= 3) {
        std::string label = fitLabel(row.name, chars);
        os << llvm::format("<text x=\"%.1f\" y=\"%.2f\" font-size=\"10\" "
                           "text-anchor=\"middle\" stroke=\"none\" "
                           "pointer-events=\"none\">",
                           (left + right) / 2, top + std::min(height, 40.0) / 2 + 3.5)
           << escape(label) << "</text>\n";
      }
    }
    os << "</g>\n";

    // The arena size and the lower bound.
    auto mark = [&](uint64_t bytes, llvm::StringRef what, llvm::StringRef color,
                    llvm::StringRef dash, double dy) {
      os << llvm::format("<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" "
                         "y2=\"%.2f\" stroke=\"",
                         kLeft, y(bytes), plotRight + 6, y(bytes))
         << color << "\" stroke-width=\"1.5\"" << dash << "/>\n"
         << llvm::format("<text x=\"%.1f\" y=\"%.2f\" font-size=\"11\" "
                         "fill=\"",
                         plotRight + 10, y(bytes) + dy)
         << color << "\">" << what << " " << escape(formatBytes(bytes))
         << "</text>\n";
    };
    // Labels go above/below their lines so that equal values stay readable.
    mark(report.arenaBytes, "arena", "#1f4e99", "", 12);
    mark(report.lowerBoundBytes, "lower bound", "#c0392b",
         " stroke-dasharray=\"6 4\"", -4);
    os << "</g>\n";
  }
};

} // namespace

void report::writePlanSvg(llvm::ArrayRef<FunctionReport> reports,
                          llvm::raw_ostream &os) {
  std::vector<Panel> panels;
  double width = 0, height = 0;
  for (const FunctionReport &report : reports) {
    panels.emplace_back(report);
    width = std::max(width, panels.back().width);
    height += panels.back().height;
  }
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
     << llvm::format("<svg xmlns=\"http://www.w3.org/2000/svg\" "
                     "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
                     "font-family=\"sans-serif\">\n",
                     width, height, width, height)
     << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  double top = 0;
  for (const Panel &panel : panels) {
    panel.write(os, top);
    top += panel.height;
  }
  os << "</svg>\n";
}
