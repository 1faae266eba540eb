package emit

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/half"
)

// gohalfProgram reads float32 inputs (fs.bin) and right operands (bs.bin)
// and writes, for every input, what cuda_fp16.h's and cuda_bf16.h's host
// functions compute and what gohalf.cuh's helpers compute, side by side.
const gohalfProgram = `#include <gocccl/gohalf.cuh>
#include <cstdio>
#include <vector>

namespace go = ::gocccl::go;
namespace hf = ::gocccl::go::half;

static std::vector<char> slurp(const char* name) {
  FILE* f = fopen(name, "rb");
  std::vector<char> b;
  char buf[1 << 16];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) b.insert(b.end(), buf, buf + n);
  fclose(f);
  return b;
}
static uint16_t hbits(__half h) { return static_cast<__half_raw>(h).x; }
static uint16_t bbits(__nv_bfloat16 h) { return static_cast<__nv_bfloat16_raw>(h).x; }
static __half mkh(uint16_t u) { __half_raw r; r.x = u; return __half(r); }
static __nv_bfloat16 mkb(uint16_t u) { __nv_bfloat16_raw r; r.x = u; return __nv_bfloat16(r); }
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

// cuda_fp16.h and cuda_bf16.h define their arithmetic and comparisons for
// the host from CUDA 12.2 on (computing in float32 and rounding once); with
// an older toolkit the reference spells out that same host path.
#if __CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 2)
#define HOST_ARITH 1
#define HADD __hadd
#define HSUB __hsub
#define HMUL __hmul
#define HDIV __hdiv
#define HEQ __heq
#define HLT __hlt
#define HLE __hle
#else
#define HOST_ARITH 0
static __half HADD(__half a, __half b) { return __float2half(__half2float(a) + __half2float(b)); }
static __half HSUB(__half a, __half b) { return __float2half(__half2float(a) - __half2float(b)); }
static __half HMUL(__half a, __half b) { return __float2half(__half2float(a) * __half2float(b)); }
static __half HDIV(__half a, __half b) { return __float2half(__half2float(a) / __half2float(b)); }
static bool HEQ(__half a, __half b) { return __half2float(a) == __half2float(b); }
static bool HLT(__half a, __half b) { return __half2float(a) < __half2float(b); }
static bool HLE(__half a, __half b) { return __half2float(a) <= __half2float(b); }
static __nv_bfloat16 HADD(__nv_bfloat16 a, __nv_bfloat16 b) { return __float2bfloat16(__bfloat162float(a) + __bfloat162float(b)); }
static __nv_bfloat16 HSUB(__nv_bfloat16 a, __nv_bfloat16 b) { return __float2bfloat16(__bfloat162float(a) - __bfloat162float(b)); }
static __nv_bfloat16 HMUL(__nv_bfloat16 a, __nv_bfloat16 b) { return __float2bfloat16(__bfloat162float(a) * __bfloat162float(b)); }
static __nv_bfloat16 HDIV(__nv_bfloat16 a, __nv_bfloat16 b) { return __float2bfloat16(__bfloat162float(a) / __bfloat162float(b)); }
static bool HEQ(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) == __bfloat162float(b); }
static bool HLT(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) < __bfloat162float(b); }
static bool HLE(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) <= __bfloat162float(b); }
#endif

int main() {
  std::vector<char> fsb = slurp("fs.bin"), bsb = slurp("bs.bin");
  const float* fs = reinterpret_cast<const float*>(fsb.data());
  const uint16_t* bs = reinterpret_cast<const uint16_t*>(bsb.data());
  const size_t nf = fsb.size() / 4, nb = bsb.size() / 2;
  FILE* conv = fopen("conv.bin", "wb");
  for (size_t i = 0; i < nf; i++) {
    uint16_t o[4] = {hbits(__float2half_rn(fs[i])), hf::FromFloat32(fs[i]).x,
                     bbits(__float2bfloat16_rn(fs[i])), hf::BFloat16FromFloat32(fs[i]).x};
    fwrite(o, 2, 4, conv);
  }
  fclose(conv);
  FILE* widen = fopen("widen.bin", "wb");
  for (uint32_t i = 0; i < 65536; i++) {
    uint32_t o[4] = {fbits(__half2float(mkh(uint16_t(i)))), fbits(hf::Float16_Float32(go::float16{uint16_t(i)})),
                     fbits(__bfloat162float(mkb(uint16_t(i)))), fbits(hf::BFloat16_Float32(go::bfloat16{uint16_t(i)}))};
    fwrite(o, 4, 4, widen);
  }
  fclose(widen);
  FILE* ar = fopen("arith.bin", "wb");
  for (uint32_t i = 0; i < 65536; i++) {
    const uint16_t a = uint16_t(i);
    const __half ha = mkh(a);
    const __nv_bfloat16 ba = mkb(a);
    const go::float16 ga{a};
    const go::bfloat16 gb{a};
    for (size_t j = 0; j < nb; j++) {
      const uint16_t b = bs[j];
      const __half hb = mkh(b);
      const __nv_bfloat16 bb = mkb(b);
      const go::float16 gh{b};
      const go::bfloat16 gg{b};
      uint16_t o[17] = {
          hbits(HADD(ha, hb)), hf::Float16_Add(ga, gh).x, hbits(HSUB(ha, hb)), hf::Float16_Sub(ga, gh).x,
          hbits(HMUL(ha, hb)), hf::Float16_Mul(ga, gh).x, hbits(HDIV(ha, hb)), hf::Float16_Div(ga, gh).x,
          bbits(HADD(ba, bb)), hf::BFloat16_Add(gb, gg).x, bbits(HSUB(ba, bb)), hf::BFloat16_Sub(gb, gg).x,
          bbits(HMUL(ba, bb)), hf::BFloat16_Mul(gb, gg).x, bbits(HDIV(ba, bb)), hf::BFloat16_Div(gb, gg).x, 0};
      const bool cmp[12] = {HEQ(ha, hb), hf::Float16_Eq(ga, gh), HLT(ha, hb), hf::Float16_Lt(ga, gh),
                            HLE(ha, hb), hf::Float16_Le(ga, gh), HEQ(ba, bb), hf::BFloat16_Eq(gb, gg),
                            HLT(ba, bb), hf::BFloat16_Lt(gb, gg), HLE(ba, bb), hf::BFloat16_Le(gb, gg)};
      for (int k = 0; k < 12; k++) o[16] |= uint16_t(cmp[k]) << k;
      fwrite(o, 2, 17, ar);
    }
  }
  fclose(ar);
  printf("%d\n", HOST_ARITH);
  return 0;
}
`

// TestGoHalf compiles a host program with the toolkit's nvcc that computes
// every conversion and operation of package half with cuda_fp16.h's and
// cuda_bf16.h's own host functions (__float2half_rn, __half2float, __hadd,
// __hsub, __hmul, __hdiv, __heq, __hlt, __hle and their bfloat16
// counterparts; on the host they compute in float32 and round once) and with
// gohalf.cuh's helpers, and compares both with package half bit for bit:
// float32 inputs over a stride of all patterns, both formats' rounding
// midpoints and their neighbours and edge values; every 16-bit pattern
// widened to float32; every pattern as the left operand against 40 right
// operands (zeros, subnormals, ±1, the largest finite values, ±Inf, NaNs
// and random patterns).
func TestGoHalf(t *testing.T) {
	cc, args := hostCompiler(t)
	if filepath.Base(cc) != "nvcc" {
		t.Skip("the gohalf.cuh host test needs nvcc (cuda_fp16.h)")
	}
	dir := t.TempDir()
	include, err := filepath.Abs("../../../../kernels/include")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "gohalf_test.cu"), []byte(gohalfProgram), 0o644))

	var fs []float32
	for u := uint64(0); u < 1<<32; u += 65521 {
		fs = append(fs, math.Float32frombits(uint32(u)))
	}
	for i := range 1 << 16 {
		// Midpoints between consecutive patterns of both formats (exact in
		// float32) and their neighbours.
		for _, m := range []float32{
			(half.Float16(i).Float32() + half.Float16(i+1).Float32()) / 2,
			math.Float32frombits(uint32(i)<<16 | 0x8000),
		} {
			b := math.Float32bits(m)
			fs = append(fs, math.Float32frombits(b-1), m, math.Float32frombits(b+1))
		}
	}
	for _, u := range []uint32{0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0x7f7fffff, 0xff7fffff, 0x477fe000, 0x477fefff,
		0x477ff000, 0x33000000, 0x33000001, 0x337fffff, 0x33800000, 0x38800000, 0x387fffff, 0x00000001, 0x80000001, 0x007fffff} {
		fs = append(fs, math.Float32frombits(u))
	}
	bs := []uint16{0, 0x8000, 1, 0x8001, 0x3ff, 0x400, 0x3c00, 0xbc00, 0x3c01, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0xfe01,
		0x0080, 0x007f, 0x3f80, 0xbf80, 0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x7f81}
	r := rand.New(rand.NewPCG(3, 7))
	for len(bs) < 40 {
		bs = append(bs, uint16(r.Uint32()))
	}
	fsb := make([]byte, 4*len(fs))
	for i, f := range fs {
		binary.LittleEndian.PutUint32(fsb[4*i:], math.Float32bits(f))
	}
	bsb := make([]byte, 2*len(bs))
	for i, b := range bs {
		binary.LittleEndian.PutUint16(bsb[2*i:], b)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "fs.bin"), fsb, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bs.bin"), bsb, 0o644))

	cmd := exec.Command(cc, append(append(args, "-O2", "-Xcompiler", "-ffp-contract=off", "-I"+include, "-o", "gohalf"), "gohalf_test.cu")...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "compiling the gohalf host program:\n%s", out)
	run := exec.Command("./gohalf")
	run.Dir = dir
	out, err = run.CombinedOutput()
	require.NoError(t, err, "running the gohalf host program:\n%s", out)

	bad := 0
	fail := func(format string, args ...any) {
		bad++
		if bad <= 20 {
			t.Errorf(format, args...)
		}
	}
	conv, err := os.ReadFile(filepath.Join(dir, "conv.bin"))
	require.NoError(t, err)
	require.Len(t, conv, 8*len(fs))
	for i, f := range fs {
		o := conv[8*i:]
		h, b := uint16(half.FromFloat32(f)), uint16(half.BFloat16FromFloat32(f))
		for k, want := range []uint16{h, h, b, b} {
			if got := binary.LittleEndian.Uint16(o[2*k:]); got != want {
				fail("conversion %d (cuda, gohalf; f16, bf16) of %#08x: %#04x, package half %#04x", k, math.Float32bits(f), got, want)
			}
		}
	}
	widen, err := os.ReadFile(filepath.Join(dir, "widen.bin"))
	require.NoError(t, err)
	require.Len(t, widen, 16*65536)
	for i := range 1 << 16 {
		o := widen[16*i:]
		h, b := math.Float32bits(half.Float16(i).Float32()), math.Float32bits(half.BFloat16(i).Float32())
		for k, want := range []uint32{h, h, b, b} {
			if got := binary.LittleEndian.Uint32(o[4*k:]); got != want {
				fail("Float32 %d (cuda, gohalf; f16, bf16) of %#04x: %#08x, package half %#08x", k, i, got, want)
			}
		}
	}
	ar, err := os.ReadFile(filepath.Join(dir, "arith.bin"))
	require.NoError(t, err)
	require.Len(t, ar, 34*65536*len(bs))
	names := []string{"Float16.Add", "Float16.Sub", "Float16.Mul", "Float16.Div", "BFloat16.Add", "BFloat16.Sub", "BFloat16.Mul", "BFloat16.Div"}
	n := 0
	for i := range 1 << 16 {
		a16, ab := half.Float16(i), half.BFloat16(i)
		for _, bv := range bs {
			o := ar[34*n:]
			n++
			b16, bb := half.Float16(bv), half.BFloat16(bv)
			want := []uint16{uint16(a16.Add(b16)), uint16(a16.Sub(b16)), uint16(a16.Mul(b16)), uint16(a16.Div(b16)),
				uint16(ab.Add(bb)), uint16(ab.Sub(bb)), uint16(ab.Mul(bb)), uint16(ab.Div(bb))}
			for k, w := range want {
				for impl, name := range []string{"cuda", "gohalf.cuh"} {
					if got := binary.LittleEndian.Uint16(o[4*k+2*impl:]); got != w {
						fail("%s %s(%#04x, %#04x) = %#04x, package half %#04x", name, names[k], i, bv, got, w)
					}
				}
			}
			cmp := binary.LittleEndian.Uint16(o[32:])
			wantCmp := []bool{a16.Eq(b16), a16.Lt(b16), a16.Le(b16), ab.Eq(bb), ab.Lt(bb), ab.Le(bb)}
			for k, w := range wantCmp {
				for impl := range 2 {
					if got := cmp>>(2*k+impl)&1 == 1; got != w {
						fail("comparison %d (impl %d) of %#04x and %#04x: %v, package half %v", k, impl, i, bv, got, w)
					}
				}
			}
		}
	}
	require.Zero(t, bad, "%d results differ", bad)
	if string(out) != "1\n" {
		t.Logf("this toolkit's cuda_fp16.h has no host arithmetic (CUDA 12.2+ has): the reference computes as its host path does, in float32")
	}
	t.Logf("%d conversions, 65536 widenings and %d pairs agree with cuda_fp16.h, cuda_bf16.h and package half", len(fs), n)
}
