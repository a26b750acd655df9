//===- PlanPageHtml.cpp - writing the interactive plan page ---------------===//
//
// One HTML file with everything inline: the plans as JSON in a script block
// and a small script that draws them as SVG and reacts to the pointer. It
// opens from disk in any browser, with no network and no external file.
//
//===----------------------------------------------------------------------===//

#include "PlanPage.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

using namespace mlir::cs349::report;
namespace json = llvm::json;

namespace {

json::Object planJson(const FunctionReport &plan) {
  json::Array buffers;
  for (const BufferRow &row : plan.buffers)
    buffers.push_back(json::Object{{"name", row.name},
                                   {"op", row.producer},
                                   {"shape", row.typeText()},
                                   {"bytes", row.bytes},
                                   {"first", row.first},
                                   {"last", row.last},
                                   {"offset", row.offset},
                                   {"out", row.isFunctionResult}});
  json::Object object{{"strategy", plan.strategy},
                      {"alignment", plan.alignment},
                      {"kernels", plan.kernels},
                      {"arena", plan.arenaBytes},
                      {"naive", plan.naiveBytes},
                      {"lower_bound", plan.lowerBoundBytes},
                      {"buffers", std::move(buffers)}};
  if (plan.peak)
    object["peak"] = json::Object{{"kernel", plan.peak->kernel},
                                  {"name", plan.peak->kernelName},
                                  {"bytes", plan.peak->bytes}};
  return object;
}

json::Array pagesJson(llvm::ArrayRef<FunctionPage> pages) {
  json::Array functions;
  for (const FunctionPage &page : pages) {
    json::Array kernels;
    for (const KernelRow &kernel : page.kernels) {
      json::Array ops;
      for (const std::string &op : kernel.ops)
        ops.push_back(op);
      kernels.push_back(
          json::Object{{"name", kernel.name}, {"ops", std::move(ops)}});
    }
    json::Array plans;
    for (const FunctionReport &plan : page.plans)
      plans.push_back(planJson(plan));
    functions.push_back(json::Object{{"name", page.name},
                                     {"kernels", std::move(kernels)},
                                     {"plans", std::move(plans)}});
  }
  return functions;
}

constexpr llvm::StringLiteral kHead = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>cs349 memory plan</title>
<style>
body { font-family: system-ui, sans-serif; margin: 16px; color: #222; }
header { display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; }
h1 { font-size: 18px; margin: 0 16px 0 0; }
#summary { margin: 8px 0; }
.panels { display: flex; gap: 16px; flex-wrap: wrap; align-items: flex-start; }
svg { background: #fff; border: 1px solid #ccc; }
rect.buffer { stroke: #333; stroke-width: 0.5; }
rect.buffer.selected { stroke: #000; stroke-width: 2; }
line.arena-line { stroke: #000; stroke-width: 1.5; }
line.lower-bound-line { stroke: #c00; stroke-width: 1.5; stroke-dasharray: 6 4; }
polyline.live-curve { fill: none; stroke: #06c; stroke-width: 2; }
text { font-size: 11px; }
#details { min-width: 260px; border: 1px solid #ccc; padding: 8px; white-space: pre; font-family: monospace; }
table { border-collapse: collapse; margin-top: 12px; }
td, th { border-bottom: 1px solid #ddd; padding: 2px 8px; text-align: left; font-size: 13px; }
tr.live { background: #fff3c4; }
tr.peak td:first-child { font-weight: bold; }
</style>
</head>
<body>
<header>
<h1>cs349 memory plan</h1>
<label>function <select id="function"></select></label>
<label>plan <select id="plan"></select></label>
</header>
<div id="summary"></div>
<div class="panels">
<svg id="plan-picture" width="760" height="440" role="img" aria-label="plan: kernel across, offset down"></svg>
<div id="details">Point at a rectangle.</div>
</div>
<svg id="live-bytes" width="760" height="220" role="img" aria-label="live bytes per kernel"></svg>
<table id="kernels"><thead><tr><th>kernel</th><th>name</th><th>ops</th></tr></thead><tbody></tbody></table>
<noscript>This page draws the plan with JavaScript.</noscript>
<script id="plan-data" type="application/json">)html";

constexpr llvm::StringLiteral kTail = R"html(</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("plan-data").textContent);
const svgNS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

function bytesText(bytes) {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let value = bytes, unit = 0;
  while (value >= 1000 && unit + 1 < units.length) { value /= 1000; unit++; }
  const shown = unit === 0 ? String(value) : value.toPrecision(3);
  return unit === 0 ? shown + " B" : shown + " " + units[unit] + " (" + bytes + " B)";
}

function element(name, attributes, parent) {
  const node = document.createElementNS(svgNS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  parent.appendChild(node);
  return node;
}

function hue(text) {
  let h = 0;
  for (const c of text) h = (h * 31 + c.charCodeAt(0)) % 360;
  return h;
}

function liveBytes(plan) {
  const live = new Array(plan.kernels).fill(0);
  for (const b of plan.buffers)
    for (let k = b.first; k <= b.last; k++) live[k] += b.bytes;
  return live;
}

function showDetails(buffer) {
  $("details").textContent = buffer
    ? buffer.name + "\n" + buffer.op + " : " + buffer.shape + "\n" + bytesText(buffer.bytes) +
      "\nkernels " + buffer.first + " to " + buffer.last + (buffer.out ? " (returned)" : "") +
      "\noffset " + bytesText(buffer.offset) + "\nend    " + bytesText(buffer.offset + buffer.bytes)
    : "Point at a rectangle.";
  for (const row of $("kernels").tBodies[0].rows) {
    const k = Number(row.dataset.kernel);
    row.classList.toggle("live", !!buffer && buffer.first <= k && k <= buffer.last);
  }
}

// The arena size (solid) and the lower bound (dashed), labelled at opposite
// ends so that both stay readable when they are close; one label when equal.
function drawLimits(svg, plan, left, width, y) {
  for (const [cls, bytes] of [["arena-line", plan.arena], ["lower-bound-line", plan.lower_bound]])
    element("line", {class: cls, x1: left, x2: left + width, y1: y(bytes), y2: y(bytes)}, svg);
  if (plan.arena === plan.lower_bound) {
    element("text", {x: left + width - 4, y: y(plan.arena) - 3, "text-anchor": "end"}, svg)
      .textContent = "arena = lower bound = " + bytesText(plan.arena);
    return;
  }
  element("text", {x: left + width - 4, y: y(plan.arena) - 3, "text-anchor": "end"}, svg)
    .textContent = "arena " + bytesText(plan.arena);
  element("text", {x: left + 4, y: y(plan.lower_bound) - 3}, svg)
    .textContent = "lower bound " + bytesText(plan.lower_bound);
}

function drawPlan(fn, plan) {
  const svg = $("plan-picture");
  svg.replaceChildren();
  const left = 70, top = 20, width = 660, height = 380;
  const top_bytes = Math.max(plan.arena, plan.lower_bound, 1);
  const cell = width / Math.max(plan.kernels, 1);
  const y = (bytes) => top + height * bytes / top_bytes;
  element("rect", {x: left, y: top, width: width, height: height, fill: "#f7f7f7"}, svg);
  for (const b of plan.buffers) {
    const rect = element("rect", {
      class: "buffer", "data-name": b.name,
      x: (left + b.first * cell).toFixed(1), y: y(b.offset).toFixed(2),
      width: ((b.last - b.first + 1) * cell).toFixed(1),
      height: Math.max(y(b.offset + b.bytes) - y(b.offset), 0.5).toFixed(2),
      fill: "hsl(" + hue(b.op) + ",60%,75%)"}, svg);
    element("title", {}, rect).textContent = b.name + " = " + b.op + " : " + b.shape;
    rect.addEventListener("mouseenter", () => {
      for (const r of svg.querySelectorAll("rect.buffer")) r.classList.remove("selected");
      rect.classList.add("selected");
      showDetails(b);
    });
  }
  drawLimits(svg, plan, left, width, y);
  for (let k = 0; k < plan.kernels; k += Math.ceil(plan.kernels / 20))
    element("text", {x: left + (k + 0.5) * cell, y: top + height + 14, "text-anchor": "middle"}, svg)
      .textContent = k;
  element("text", {x: left + width / 2, y: top + height + 30, "text-anchor": "middle"}, svg)
    .textContent = "kernel";
  element("text", {x: 4, y: top + 10}, svg).textContent = "offset 0";
  element("text", {x: 4, y: top + height}, svg).textContent = bytesText(top_bytes).split(" (")[0];
}

function drawLiveBytes(plan) {
  const svg = $("live-bytes");
  svg.replaceChildren();
  const left = 70, top = 16, width = 660, height = 160;
  const live = liveBytes(plan);
  const top_bytes = Math.max(plan.arena, plan.lower_bound, 1);
  const cell = width / Math.max(plan.kernels, 1);
  const y = (bytes) => top + height - height * bytes / top_bytes;
  element("rect", {x: left, y: top, width: width, height: height, fill: "#f7f7f7"}, svg);
  const points = [];
  live.forEach((bytes, k) => {
    points.push((left + k * cell).toFixed(1) + "," + y(bytes).toFixed(2));
    points.push((left + (k + 1) * cell).toFixed(1) + "," + y(bytes).toFixed(2));
  });
  const curve = element("polyline", {class: "live-curve", points: points.join(" ")}, svg);
  element("title", {}, curve).textContent = "bytes live at each kernel";
  drawLimits(svg, plan, left, width, y);
  element("text", {x: left + width / 2, y: top + height + 16, "text-anchor": "middle"}, svg)
    .textContent = "live bytes per kernel";
}

function drawKernels(fn, plan) {
  const body = $("kernels").tBodies[0];
  body.replaceChildren();
  fn.kernels.forEach((kernel, k) => {
    const row = body.insertRow();
    row.dataset.kernel = k;
    if (plan.peak && plan.peak.kernel === k) row.classList.add("peak");
    row.insertCell().textContent = k;
    row.insertCell().textContent = kernel.name;
    row.insertCell().textContent = kernel.ops.join(", ");
  });
}

function show() {
  const fn = data[Number($("function").value)];
  const plan = fn.plans[Number($("plan").value)] || fn.plans[0];
  $("summary").textContent = "@" + fn.name + ": " + plan.strategy + ", arena " + bytesText(plan.arena) +
    ", lower bound " + bytesText(plan.lower_bound) + ", naive " + bytesText(plan.naive) +
    ", " + plan.kernels + " kernels, " + plan.buffers.length + " written results, alignment " +
    plan.alignment + (plan.peak ? "; peak at kernel " + plan.peak.kernel + " (" + plan.peak.name + ")" : "");
  drawPlan(fn, plan);
  drawLiveBytes(plan);
  drawKernels(fn, plan);
  showDetails(null);
}

function fillPlans() {
  const fn = data[Number($("function").value)];
  $("plan").replaceChildren(...fn.plans.map((plan, i) =>
    new Option((i === 0 ? "recorded: " : "") + plan.strategy + " (" + bytesText(plan.arena).split(" (")[0] + ")", i)));
  show();
}

$("function").replaceChildren(...data.map((fn, i) => new Option("@" + fn.name, i)));
$("function").addEventListener("change", fillPlans);
$("plan").addEventListener("change", show);
fillPlans();
</script>
</body>
</html>
)html";

} // namespace

void mlir::cs349::report::writePlanPage(llvm::ArrayRef<FunctionPage> pages,
                                        llvm::raw_ostream &os) {
  std::string data;
  llvm::raw_string_ostream dataStream(data);
  dataStream << json::Value(pagesJson(pages));
  // Names come from the input: "</script" inside the data must not end the
  // script block, and JSON allows "<\/" for "</".
  std::string safe;
  for (size_t i = 0; i < data.size(); ++i) {
    if (data[i] == '<' && i + 1 < data.size() && data[i + 1] == '/') {
      safe += "<\\/";
      ++i;
      continue;
    }
    safe += data[i];
  }
  os << kHead << safe << kTail;
}
