// Stand-in for `cs349-gen layer --preset llama3.1-8b --seq 2048` until the
// generator lands: one Llama-3.1-8B decoder layer at T = 2048 in the
// layer-level ops of SPEC §2, weights as function arguments.
func.func @layer(%x: tensor<2048x4096xbf16>, %attn_norm: tensor<4096xbf16>, %wq: tensor<4096x4096xbf16>, %wk: tensor<4096x1024xbf16>, %wv: tensor<4096x1024xbf16>,
                 %wo: tensor<4096x4096xbf16>, %mlp_norm: tensor<4096xbf16>, %w_gate: tensor<4096x14336xbf16>, %w_up: tensor<4096x14336xbf16>, %w_down: tensor<14336x4096xbf16>) -> tensor<2048x4096xbf16> {
  %h = cs349.rms_norm %x, %attn_norm epsilon = 1.000000e-05 : tensor<2048x4096xbf16>, tensor<4096xbf16>
  %q = cs349.matmul %h, %wq : tensor<2048x4096xbf16>, tensor<4096x4096xbf16> -> tensor<2048x4096xbf16>
  %k = cs349.matmul %h, %wk : tensor<2048x4096xbf16>, tensor<4096x1024xbf16> -> tensor<2048x1024xbf16>
  %v = cs349.matmul %h, %wv : tensor<2048x4096xbf16>, tensor<4096x1024xbf16> -> tensor<2048x1024xbf16>
  %q3 = cs349.reshape %q : tensor<2048x4096xbf16> -> tensor<2048x32x128xbf16>
  %k3 = cs349.reshape %k : tensor<2048x1024xbf16> -> tensor<2048x8x128xbf16>
  %v3 = cs349.reshape %v : tensor<2048x1024xbf16> -> tensor<2048x8x128xbf16>
  %qh = cs349.transpose %q3 perm = [1, 0, 2] : tensor<2048x32x128xbf16> -> tensor<32x2048x128xbf16>
  %kh = cs349.transpose %k3 perm = [1, 0, 2] : tensor<2048x8x128xbf16> -> tensor<8x2048x128xbf16>
  %vh = cs349.transpose %v3 perm = [1, 0, 2] : tensor<2048x8x128xbf16> -> tensor<8x2048x128xbf16>
  %cos = cs349.rope_table cos theta = 5.000000e+05 : tensor<2048x128xbf16>
  %sin = cs349.rope_table sin theta = 5.000000e+05 : tensor<2048x128xbf16>
  %qr = cs349.rope %qh, %cos, %sin : tensor<32x2048x128xbf16>, tensor<2048x128xbf16>
  %kr = cs349.rope %kh, %cos, %sin : tensor<8x2048x128xbf16>, tensor<2048x128xbf16>
  %krep = cs349.repeat %kr axis = 0 times = 4 : tensor<8x2048x128xbf16> -> tensor<32x2048x128xbf16>
  %vrep = cs349.repeat %vh axis = 0 times = 4 : tensor<8x2048x128xbf16> -> tensor<32x2048x128xbf16>
  %s = cs349.matmul %qr, %krep transpose_b : tensor<32x2048x128xbf16>, tensor<32x2048x128xbf16> -> tensor<32x2048x2048xbf16>
  %scale = cs349.constant dense<0.08838834764831843> : tensor<bf16>
  %ss = cs349.mul %s, %scale : tensor<32x2048x2048xbf16>, tensor<bf16>
  %mask = cs349.causal_mask : tensor<2048x2048xbf16>
  %sm = cs349.add %ss, %mask : tensor<32x2048x2048xbf16>, tensor<2048x2048xbf16>
  %p = cs349.softmax %sm axis = 2 : tensor<32x2048x2048xbf16>
  %o = cs349.matmul %p, %vrep : tensor<32x2048x2048xbf16>, tensor<32x2048x128xbf16> -> tensor<32x2048x128xbf16>
  %ot = cs349.transpose %o perm = [1, 0, 2] : tensor<32x2048x128xbf16> -> tensor<2048x32x128xbf16>
  %o2 = cs349.reshape %ot : tensor<2048x32x128xbf16> -> tensor<2048x4096xbf16>
  %attn = cs349.matmul %o2, %wo : tensor<2048x4096xbf16>, tensor<4096x4096xbf16> -> tensor<2048x4096xbf16>
  %x2 = cs349.add %x, %attn : tensor<2048x4096xbf16>
  %h2 = cs349.rms_norm %x2, %mlp_norm epsilon = 1.000000e-05 : tensor<2048x4096xbf16>, tensor<4096xbf16>
  %gate = cs349.matmul %h2, %w_gate : tensor<2048x4096xbf16>, tensor<4096x14336xbf16> -> tensor<2048x14336xbf16>
  %up = cs349.matmul %h2, %w_up : tensor<2048x4096xbf16>, tensor<4096x14336xbf16> -> tensor<2048x14336xbf16>
  %act = cs349.silu %gate : tensor<2048x14336xbf16>
  %gu = cs349.mul %act, %up : tensor<2048x14336xbf16>
  %down = cs349.matmul %gu, %w_down : tensor<2048x14336xbf16>, tensor<14336x4096xbf16> -> tensor<2048x4096xbf16>
  %out = cs349.add %x2, %down : tensor<2048x4096xbf16>
  return %out : tensor<2048x4096xbf16>
}
