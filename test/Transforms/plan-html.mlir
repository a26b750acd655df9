// RUN: cs349-opt %s -split-input-file --plan-memory="alignment=1" \
// RUN:   --plan-html="output=%t.html strategies=naive,best-fit" -o /dev/null
// RUN: FileCheck %s < %t.html
// RUN: not cs349-opt %s --plan-html=output=%t.unplanned.html 2>&1 | FileCheck %s --check-prefix=UNPLANNED
// RUN: not cs349-opt %s --plan-memory --plan-html="strategies=fastest" 2>&1 | FileCheck %s --check-prefix=STRATEGY

// The page is self-contained: no external script, style or image.
// CHECK: <!DOCTYPE html>
// CHECK-NOT: src="http
// CHECK-NOT: href="http
// The data: the kernel list with the ops inside each kernel, then the
// recorded plan, then each strategy's plan of the same lifetimes.
// CHECK: <script id="plan-data" type="application/json">
// CHECK-SAME: [{"kernels":[{"name":"a","ops":["exp"]},{"name":"b","ops":["neg"]},{"name":"c","ops":["add"]},{"name":"d","ops":["tanh"]}],"name":"chain",
// CHECK-SAME: "plans":[{"alignment":1,"arena":96,
// CHECK-SAME: "buffers":[{"bytes":32,"first":0,"last":2,"name":"a","offset":0,"op":"exp","out":false,"shape":"8xf32"},
// CHECK-SAME: "lower_bound":96,"naive":128,"peak":{"bytes":96,"kernel":2,"name":"c"},"strategy":"greedy-by-size"}
// CHECK-SAME: {"alignment":1,"arena":128,
// CHECK-SAME: "strategy":"naive"}
// CHECK-SAME: {"alignment":1,"arena":96,
// CHECK-SAME: "strategy":"best-fit"}]}]
// CHECK: </script>
// The script draws them: rectangles, the live-bytes curve, limits, kernels.
// CHECK-DAG: class: "buffer"
// CHECK-DAG: class: "live-curve"
// CHECK-DAG: "lower-bound-line"
// CHECK-DAG: $("kernels")

func.func @chain(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = cs349.kernel(%x) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%x0: tensor<8xf32>):
    %e = cs349.exp %x0 : tensor<8xf32> loc("a")
    cs349.yield %e : tensor<8xf32>
  } loc("a")
  %b = cs349.kernel(%a) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a0: tensor<8xf32>):
    %n = cs349.neg %a0 : tensor<8xf32> loc("b")
    cs349.yield %n : tensor<8xf32>
  } loc("b")
  %c = cs349.kernel(%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a1: tensor<8xf32>, %b1: tensor<8xf32>):
    %s = cs349.add %a1, %b1 : tensor<8xf32>, tensor<8xf32> loc("c")
    cs349.yield %s : tensor<8xf32>
  } loc("c")
  %d = cs349.kernel(%c) : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%c0: tensor<8xf32>):
    %t = cs349.tanh %c0 : tensor<8xf32> loc("d")
    cs349.yield %t : tensor<8xf32>
  } loc("d")
  return %d : tensor<8xf32>
}

// UNPLANNED: error: no function has a memory plan (cs349.arena): run --plan-memory before --plan-html

// STRATEGY: plan-html: unknown strategy 'fastest'; expected any of: naive, greedy-by-size, best-fit, search, best
