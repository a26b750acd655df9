// RUN: not cs349-run %s --function=huge 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not cs349-run %s --function=overflowing 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// RUN: not cs349-run %s --function=huge_arena 2>&1 | FileCheck %s --check-prefix=ARENA
// RUN: cs349-run %s --function=huge_arena --mode=unplanned --summary | FileCheck %s --check-prefix=UNPLANNED

// Tensors (and a planned arena) that cannot be in memory are an error
// before anything is allocated, not an abort in the allocator: 2^60 bytes
// is more than any machine has, and 2^63 elements overflow the byte count.

// HUGE: cs349-run: @huge: a tensor<1073741824x1073741824xbf16> does not fit in this machine's memory
// OVERFLOW: cs349-run: @overflowing: a tensor<9223372036854775807xf32> does not fit in this machine's memory
// ARENA: cs349-run: the arena of @huge_arena (4611686018427387904 bytes) does not fit in this machine's memory
// UNPLANNED: result 0: tensor<4xf32>

func.func private @huge(%x: tensor<1073741824x1073741824xbf16>) -> tensor<1073741824x1073741824xbf16> {
  return %x : tensor<1073741824x1073741824xbf16>
}

func.func private @overflowing(%x: tensor<9223372036854775807xf32>) -> tensor<9223372036854775807xf32> {
  return %x : tensor<9223372036854775807xf32>
}

func.func private @huge_arena(%x: tensor<4xf32>) -> tensor<4xf32> attributes {cs349.arena = #cs349.arena<bytes = 4611686018427387904, naive = 4611686018427387904, lower_bound = 16, alignment = 64, kernels = 1, strategy = "naive">} {
  %0 = cs349.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
