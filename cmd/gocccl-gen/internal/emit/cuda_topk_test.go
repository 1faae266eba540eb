package emit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// topkProgram is a host program over topk.cuh's helpers: it prints, for
// each key of the tables, Keys<K>::in (smallest and largest) and whether
// Keys<K>::out gives the key back, then checks Geometry (digits, prefix
// masks and compare, placing digits) against 128-bit composites itself and
// prints its failures.
const topkProgram = `#include <gocccl/topk.cuh>
#include <cstdio>
#include <cstring>

using namespace gocccl::detail::topk;

template <typename K>
void keys(const char* name, const unsigned long long* raw, int n)
{
  for (int j = 0; j < n; ++j)
  {
    K x;
    std::memcpy(&x, &raw[j], sizeof(K));
    for (int l = 0; l < 2; ++l)
    {
      const unsigned long long b = Keys<K>::in(x, l != 0);
      const K back = Keys<K>::out(b, l != 0);
      std::printf("%s %d %d %llx %d\n", name, j, l, b, std::memcmp(&back, &x, sizeof(K)) == 0 ? 1 : 0);
    }
  }
}

static unsigned long long state = 37;
static unsigned long long next()
{
  unsigned long long z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

typedef unsigned __int128 u128;

int main()
{
@CALLS@
  long long failures = 0;
  const int kbs[] = {8, 16, 32, 64};
  const int ibs[] = {0, 1, 3, 5, 10, 11, 12, 13, 21, 22, 23, 31, 32};
  for (int kb : kbs)
    for (int ib : ibs)
    {
      const Geometry g(kb, ib);
      for (int t = 0; t < 2000; ++t)
      {
        const unsigned long long b = next() & low_mask(kb), i = next() & low_mask(ib);
        const u128 c = ((u128)b << ib) | i;
        // A second composite: random, or sharing a random prefix with the first.
        unsigned long long b2 = next() & low_mask(kb), i2 = next() & low_mask(ib);
        if (t % 2 == 1)
        {
          const int keep = int(next() % (kb + ib + 1));
          const u128 c2r = ((u128)b2 << ib) | i2;
          const u128 lowm = keep >= 128 ? ~(u128)0 : (((u128)1 << (kb + ib - keep)) - 1);
          const u128 c2 = (c & ~lowm) | (c2r & lowm);
          b2 = (unsigned long long)(c2 >> ib) & low_mask(kb);
          i2 = (unsigned long long)c2 & low_mask(ib);
        }
        const u128 c2 = ((u128)b2 << ib) | i2;
        unsigned long long tk = 0, ti = 0;
        for (int q = 0; q < g.levels(); ++q)
        {
          const int lo = g.lo(q);
          const int w = (g.width - DIGIT_BITS * q) - lo;
          const unsigned want = (unsigned)((c >> lo) & (((u128)1 << w) - 1));
          if (g.digit(b, i, q) != want)
          {
            if (failures++ < 5) std::printf("digit kb=%d ib=%d q=%d: %u, want %u\n", kb, ib, q, g.digit(b, i, q), want);
          }
          g.place(want, q, tk, ti);
          unsigned long long km, im;
          g.masks(q, km, im);
          const u128 p1 = c >> lo, p2 = c2 >> lo;
          const int wantc = p1 < p2 ? -1 : (p1 > p2 ? 1 : 0);
          if (compare(b, i, b2, i2, km, im) != wantc)
          {
            if (failures++ < 5) std::printf("compare kb=%d ib=%d q=%d: %d, want %d\n", kb, ib, q, compare(b, i, b2, i2, km, im), wantc);
          }
          if (compare(b, i, tk, ti, km, im) != 0)
          {
            if (failures++ < 5) std::printf("placed prefix kb=%d ib=%d q=%d differs\n", kb, ib, q);
          }
        }
        if (tk != b || ti != i)
        {
          if (failures++ < 5) std::printf("placed kb=%d ib=%d: (%llx, %llx), want (%llx, %llx)\n", kb, ib, tk, ti, b, i);
        }
      }
    }
  std::printf("geometry failures %lld\n", failures);
  return 0;
}
`

// topkOrdered is the radix sort's ordered bits of raw (a key of width bits),
// flipped for the largest: what Keys<K>::in must return.
func topkOrdered(raw uint64, width int, float, signed, largest bool) uint64 {
	all := ^uint64(0) >> (64 - width)
	sign := uint64(1) << (width - 1)
	b := raw & all
	switch {
	case float && b&sign != 0:
		b = ^b & all
	case float, signed:
		b ^= sign
	}
	if largest {
		b ^= all
	}
	return b
}

// TestTopKHelpers compiles topkProgram with nvcc for the host (topk.cuh
// includes CUB) and compares its key orders with the radix sort's, and
// requires Geometry's self-check to pass.
func TestTopKHelpers(t *testing.T) {
	cc, args := hostCompiler(t)
	if filepath.Base(cc) != "nvcc" {
		t.Skip("topk.cuh needs nvcc (it includes CUB)")
	}
	r := rand.New(rand.NewPCG(37, 1))
	type table struct {
		name, ctype   string
		width         int
		float, signed bool
	}
	tables := []table{
		{"int8", "int8_t", 8, false, true}, {"int16", "int16_t", 16, false, true},
		{"int32", "int32_t", 32, false, true}, {"int64", "long long", 64, false, true},
		{"uint8", "uint8_t", 8, false, false}, {"uint16", "uint16_t", 16, false, false},
		{"uint32", "uint32_t", 32, false, false}, {"uint64", "unsigned long long", 64, false, false},
		{"float32", "float", 32, true, false}, {"float64", "double", 64, true, false},
	}
	raws := map[string][]uint64{}
	var calls strings.Builder
	for _, tb := range tables {
		all := ^uint64(0) >> (64 - tb.width)
		rs := []uint64{0, 1, all, all >> 1, (all >> 1) + 1, 2}
		switch tb.width {
		case 32:
			if tb.float {
				for _, f := range []float32{float32(math.Copysign(0, -1)), 1, -1, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), -float32(math.NaN())} {
					rs = append(rs, uint64(math.Float32bits(f)))
				}
			}
		case 64:
			if tb.float {
				for _, f := range []float64{math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN()} {
					rs = append(rs, math.Float64bits(f))
				}
			}
		}
		for range 40 {
			rs = append(rs, r.Uint64()&all)
		}
		raws[tb.name] = rs
		var vals []string
		for _, x := range rs {
			vals = append(vals, fmt.Sprintf("0x%xull", x))
		}
		fmt.Fprintf(&calls, "  { const unsigned long long raw[] = {%s}; keys<%s>(%q, raw, %d); }\n",
			strings.Join(vals, ", "), tb.ctype, tb.name, len(rs))
	}
	lines := runHeaderProgram(t, cc, args, "topk", strings.Replace(topkProgram, "@CALLS@", calls.String(), 1))
	i := 0
	for _, tb := range tables {
		for j, raw := range raws[tb.name] {
			for l := 0; l < 2; l++ {
				want := fmt.Sprintf("%s %d %d %x 1", tb.name, j, l, topkOrdered(raw, tb.width, tb.float, tb.signed, l == 1))
				require.Less(t, i, len(lines), "output ends early")
				require.Equal(t, want, lines[i], "Keys<%s> of %#x (largest=%v): ordered bits and round trip", tb.ctype, raw, l == 1)
				i++
			}
		}
	}
	require.Equal(t, "geometry failures 0", lines[len(lines)-1], "%s", strings.Join(lines[i:], "\n"))
}
