// The human table (--memory-report) and the JSON report (--plan-memory's
// report=PATH, --memory-report=format=json) of one module with two functions.
// RUN: cs349-opt %s --plan-memory=alignment=1 --memory-report -o /dev/null | FileCheck %s --check-prefix=TABLE
// RUN: cs349-opt %s --plan-memory=alignment=1 --memory-report=output=%t.txt -o /dev/null && FileCheck %s --check-prefix=TABLE < %t.txt
// RUN: cs349-opt %s --plan-memory="alignment=1 report=-" -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: cs349-opt %s --plan-memory="alignment=1 report=%t.json" -o /dev/null && FileCheck %s --check-prefix=JSON < %t.json
// RUN: cs349-opt %s --plan-memory=alignment=1 --memory-report=format=json -o /dev/null | FileCheck %s --check-prefix=JSON
// RUN: cs349-opt %s --plan-memory=alignment=1 --memory-report=exact=true -o /dev/null | FileCheck %s --check-prefix=EXACT
// A rank-0 result's type is its element type alone ("f32", not "xf32").
// RUN: cs349-opt %S/Inputs/scalar-result.mlir --fuse --plan-memory --memory-report -o /dev/null | FileCheck %s --check-prefix=SCALAR
// SCALAR: k0#0 exp f32 4 B 0 0 (out) 0 B
// The report only reads the plan; the planned module goes through unchanged.
// RUN: cs349-opt %s --plan-memory=alignment=1 | cs349-opt --memory-report=output=%t.ignored | FileCheck %s --check-prefix=IR

// A generated layer, its steps run file by file: the results keep their
// step names (not k0#0), whether the file carries them as SSA names (the
// default) or as locations, and the peak names its kernel by step.
// RUN: cs349-gen layer --preset tiny --seq 16 | cs349-opt --decompose > %t.decomposed.mlir
// RUN: cs349-opt %t.decomposed.mlir --fold-norm-weight > %t.folded.mlir
// RUN: cs349-opt %t.folded.mlir --fuse --plan-memory=alignment=1 --memory-report=exact=true -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=LAYER
// RUN: cs349-gen layer --preset tiny --seq 16 | cs349-opt --decompose -mlir-print-debuginfo > %t.located.mlir
// RUN: cs349-opt %t.located.mlir --fuse --plan-memory=alignment=1 --memory-report=exact=true -o /dev/null \
// RUN:   | FileCheck %s --check-prefix=LAYER
// LAYER:      @layer: 12 kernels, 12 written results, alignment 1
// LAYER-NEXT: result                     op      shape         size  first  last      offset  end
// LAYER-NEXT: layer0.attn.norm           mul     16x128xbf16   4096  0      3         {{[0-9]+ +[0-9]+$}}
// LAYER:      layer0.mlp.residual        add     16x128xbf16   4096  11     11 (out)
// LAYER-NEXT: naive 56832 B | greedy-by-size 30208 B | lower bound 30208 B
// LAYER-NEXT: peak 30208 B at kernel {{[0-9]+}} (layer0.{{[a-z_.]+}}), live: layer0.
// LAYER-NOT:  k{{[0-9]+}}#

// Errors.
// RUN: not cs349-opt %s --memory-report 2>&1 | FileCheck %s --check-prefix=NO-PLAN
// NO-PLAN: error: 'func.func' op has no memory plan: run --plan-memory before --memory-report
// RUN: not cs349-opt %s --memory-report=format=xml 2>&1 | FileCheck %s --check-prefix=BAD-FORMAT
// BAD-FORMAT: for the --format option: Cannot find option named 'xml'!
// RUN: cs349-opt --help | FileCheck %s --check-prefix=HELP-FORMAT
// HELP-FORMAT-LABEL: --memory-report
// HELP-FORMAT:       --format=<value>
// HELP-FORMAT-NEXT:    =table {{ *}}- a table for people
// HELP-FORMAT-NEXT:    =json {{ *}}- the JSON report of --plan-memory=report=PATH
// RUN: not cs349-opt %s --plan-memory=report=%t.no/such/dir/plan.json 2>&1 | FileCheck %s --check-prefix=BAD-PATH
// BAD-PATH: error: cannot write the memory report to '{{.*}}plan.json'

// TABLE:      @chain: 3 kernels, 3 written results, alignment 1
// TABLE-NEXT: result  op    shape    size   first  last     offset
// TABLE-NEXT: a       exp   4x8xf32  128 B  0      1        0 B
// TABLE-NEXT: k1#0    neg   4x8xf32  128 B  1      2        128 B
// TABLE-NEXT: c       tanh  4x8xf32  128 B  2      2 (out)  0 B
// TABLE-NEXT: naive 384 B (384 B) | greedy-by-size 256 B (256 B) | lower bound 256 B (256 B)
// TABLE-NEXT: peak 256 B (256 B) at kernel 1 (k1), live: a, k1#0
// TABLE-NEXT: @units: 3 kernels, 3 written results, alignment 1
// TABLE-NEXT: result  op      shape                size     first  last     offset
// TABLE-NEXT: kB      exp     1024xf32             4.1 kB   0      2        69.0 GB
// TABLE-NEXT: MB      matmul  32x2048x2048xbf16    268 MB   1      2        68.7 GB
// TABLE-NEXT: GB      matmul  32x32768x32768xbf16  68.7 GB  2      2 (out)  0 B
// TABLE-NEXT: naive 69.0 GB (68987916288 B) | greedy-by-size 69.0 GB (68987916288 B) | lower bound 69.0 GB (68987916288 B)
// TABLE-NEXT: peak 69.0 GB (68987916288 B) at kernel 2 (g), live: kB, MB, GB

// exact=true: every size and offset in bytes, and where each result ends, so
// that "kB" ([68987912192, 68987916288)) visibly does not overlap "MB" (the
// rounded table prints 69.0 GB and 68.7 GB).
// EXACT:      @chain: 3 kernels, 3 written results, alignment 1
// EXACT-NEXT: result  op    shape    size  first  last     offset  end
// EXACT-NEXT: a       exp   4x8xf32  128   0      1        0       128
// EXACT-NEXT: k1#0    neg   4x8xf32  128   1      2        128     256
// EXACT-NEXT: c       tanh  4x8xf32  128   2      2 (out)  0       128
// EXACT-NEXT: naive 384 B | greedy-by-size 256 B | lower bound 256 B
// EXACT-NEXT: peak 256 B at kernel 1 (k1), live: a, k1#0
// EXACT-NEXT: @units: 3 kernels, 3 written results, alignment 1
// EXACT-NEXT: result  op      shape                size         first  last     offset       end
// EXACT-NEXT: kB      exp     1024xf32             4096         0      2        68987912192  68987916288
// EXACT-NEXT: MB      matmul  32x2048x2048xbf16    268435456    1      2        68719476736  68987912192
// EXACT-NEXT: GB      matmul  32x32768x32768xbf16  68719476736  2      2 (out)  0            68719476736
// EXACT-NEXT: naive 68987916288 B | greedy-by-size 68987916288 B | lower bound 68987916288 B
// EXACT-NEXT: peak 68987916288 B at kernel 2 (g), live: kB, MB, GB

// JSON:      [
// JSON-NEXT:   {
// JSON-NEXT:     "alignment": 1,
// JSON-NEXT:     "arena_bytes": 256,
// JSON-NEXT:     "buffers": [
// JSON-NEXT:       {
// JSON-NEXT:         "bytes": 128,
// JSON-NEXT:         "dtype": "f32",
// JSON-NEXT:         "first": 0,
// JSON-NEXT:         "function_result": false,
// JSON-NEXT:         "last": 1,
// JSON-NEXT:         "name": "a",
// JSON-NEXT:         "offset": 0,
// JSON-NEXT:         "producer": "exp",
// JSON-NEXT:         "shape": [
// JSON-NEXT:           4,
// JSON-NEXT:           8
// JSON-NEXT:         ]
// JSON-NEXT:       },
// JSON:              "name": "k1#0",
// JSON-NEXT:         "offset": 128,
// JSON-NEXT:         "producer": "neg",
// JSON:              "function_result": true,
// JSON-NEXT:         "last": 2,
// JSON-NEXT:         "name": "c",
// JSON:          "kernels": 3,
// JSON-NEXT:     "lower_bound_bytes": 256,
// JSON-NEXT:     "naive_bytes": 384,
// JSON-NEXT:     "name": "chain",
// JSON-NEXT:     "peak": {
// JSON-NEXT:       "bytes": 256,
// JSON-NEXT:       "kernel": 1,
// JSON-NEXT:       "kernel_name": "k1",
// JSON-NEXT:       "live": [
// JSON-NEXT:         "a",
// JSON-NEXT:         "k1#0"
// JSON-NEXT:       ]
// JSON-NEXT:     },
// JSON-NEXT:     "strategy": "greedy-by-size"
// JSON-NEXT:   },
// JSON-NEXT:   {
// JSON-NEXT:     "alignment": 1,
// JSON-NEXT:     "arena_bytes": 68987916288,
// JSON:              "bytes": 68719476736,
// JSON-NEXT:         "dtype": "bf16",
// JSON:          "name": "units",
// JSON-NEXT:     "peak": {
// JSON-NEXT:       "bytes": 68987916288,
// JSON-NEXT:       "kernel": 2,
// JSON:          "strategy": "greedy-by-size"
// JSON-NEXT:   }
// JSON-NEXT: ]

// IR: func.func @chain
// IR-SAME: cs349.arena = #cs349.arena<bytes = 256, naive = 384, lower_bound = 256, alignment = 1, kernels = 3, strategy = "greedy-by-size">

// The middle kernel has neither a step name nor a named SSA value (%1): the
// report calls its result k1#0.
func.func @chain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = cs349.kernel(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%xa: tensor<4x8xf32>):
    %0 = cs349.exp %xa : tensor<4x8xf32> loc("a")
    cs349.yield %0 : tensor<4x8xf32>
  }
  %1 = cs349.kernel(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%aa: tensor<4x8xf32>):
    %0 = cs349.neg %aa : tensor<4x8xf32>
    cs349.yield %0 : tensor<4x8xf32>
  }
  %c = cs349.kernel(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%ba: tensor<4x8xf32>):
    %0 = cs349.tanh %ba : tensor<4x8xf32> loc("c")
    cs349.yield %0 : tensor<4x8xf32>
  }
  return %c : tensor<4x8xf32>
}

// Decimal units from kB to GB (4,096 B, 268,435,456 B, 68,719,476,736 B).
func.func @units(%x: tensor<1024xf32>, %q: tensor<32x2048x128xbf16>, %k: tensor<32x32768x128xbf16>)
    -> (tensor<32x32768x32768xbf16>) {
  %a = cs349.kernel(%x) : (tensor<1024xf32>) -> tensor<1024xf32> {
  ^bb0(%xa: tensor<1024xf32>):
    %0 = cs349.exp %xa : tensor<1024xf32> loc("kB")
    cs349.yield %0 : tensor<1024xf32>
  }
  %s = cs349.kernel(%q) : (tensor<32x2048x128xbf16>) -> tensor<32x2048x2048xbf16> {
  ^bb0(%qa: tensor<32x2048x128xbf16>):
    %0 = cs349.matmul %qa, %qa transpose_b : tensor<32x2048x128xbf16>, tensor<32x2048x128xbf16> -> tensor<32x2048x2048xbf16> loc("MB")
    cs349.yield %0 : tensor<32x2048x2048xbf16>
  }
  %g = cs349.kernel(%k, %a, %s) : (tensor<32x32768x128xbf16>, tensor<1024xf32>, tensor<32x2048x2048xbf16>) -> tensor<32x32768x32768xbf16> {
  ^bb0(%ka: tensor<32x32768x128xbf16>, %aa: tensor<1024xf32>, %sa: tensor<32x2048x2048xbf16>):
    %0 = cs349.matmul %ka, %ka transpose_b : tensor<32x32768x128xbf16>, tensor<32x32768x128xbf16> -> tensor<32x32768x32768xbf16> loc("GB")
    cs349.yield %0 : tensor<32x32768x32768xbf16>
  }
  return %g : tensor<32x32768x32768xbf16>
}
