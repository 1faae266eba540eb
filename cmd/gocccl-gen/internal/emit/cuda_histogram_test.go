package emit

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// histogramProgram is a host program over histogram.cuh's experimental
// binners (HIST_EXP_BINS): for each case of @EVEN@ it prints the bin
// EvenBinner32 gives every sample, and for each of @RANGE@ the bin
// RangeBinnerSteps gives; then it checks EvenBinner32 over every sample of
// the 1- and 2-byte types for many levels and bin counts against the exact
// 128-bit formula and prints the failures' count.
const histogramProgram = `#include <gocccl/histogram.cuh>
#include <cstdint>
#include <cstdio>

using namespace gocccl::detail;
typedef unsigned __int128 u128;

template <typename T>
void even(const char* name, T lower, T upper, int bins, const T* xs, int n)
{
  const EvenBinner32<T> b(lower, upper, 0.0, bins);
  for (int i = 0; i < n; ++i)
  {
    std::printf("even %s %d %d\n", name, i, b(xs[i]));
  }
}

template <typename T>
void range(const char* name, const T* levels, int bins, const T* xs, int n)
{
  const RangeBinnerSteps<T> b(levels, bins);
  for (int i = 0; i < n; ++i)
  {
    std::printf("range %s %d %d\n", name, i, b(xs[i]));
  }
}

// exact is floor((x - lower) * bins / (upper - lower)) in 128 bits, -1 outside.
template <typename T>
int exact(T x, T lower, T upper, int bins)
{
  if (!(x >= lower && x < upper)) return -1;
  typedef typename std::make_unsigned<T>::type U;
  const unsigned long long d = (U)((U)x - (U)lower), r = (U)((U)upper - (U)lower);
  return (int)((u128)d * (unsigned)bins / r);
}

template <typename T>
long long sweep(long long* checked)
{
  typedef typename std::make_unsigned<T>::type U;
  const long long span = (long long)(U)~(U)0 + 1;
  const int binses[] = {1, 2, 3, 7, 16, 255, 256, 257, 1000, 4096, 65535, 65536, 1 << 20, 2147483647};
  long long failures = 0;
  unsigned long long s = 11;
  for (int bins : binses)
    for (int t = 0; t < 24; ++t)
    {
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      U a = (U)(s >> 33), c = (U)(s >> 17);
      if (t == 0) a = 0, c = (U)~(U)0;            // the whole range
      if (t == 1) a = (U)(c - 1);                  // one value
      T lo = (T)(a < c ? a : c), up = (T)(a < c ? c : a);
      if (!(lo < up)) continue;
      const EvenBinner32<T> b(lo, up, 0.0, bins);
      for (long long v = 0; v < span; ++v)
      {
        const T x = (T)(U)v;
        ++*checked;
        if (b(x) != exact<T>(x, lo, up, bins) && failures++ < 5)
          std::printf("sweep bins=%d lo=%lld up=%lld x=%lld: %d, want %d\n", bins, (long long)lo, (long long)up, (long long)x, b(x), exact<T>(x, lo, up, bins));
      }
    }
  return failures;
}

int main()
{
@CALLS@
  long long checked = 0;
  const long long failures = sweep<uint8_t>(&checked) + sweep<int8_t>(&checked) + sweep<uint16_t>(&checked) + sweep<int16_t>(&checked);
  std::printf("sweep %lld checked %lld failures\n", checked, failures);
  return 0;
}
`

// histEvenCase is one EvenBinner32 case: levels, bins and samples of an
// integer type of width bits (raw two's complement values).
type histEvenCase struct {
	name, ctype  string
	width        int
	signed       bool
	lower, upper uint64
	bins         int
	xs           []uint64
}

// value returns raw as the signed or unsigned integer of the case's width.
func (c histEvenCase) value(raw uint64) int64 {
	if c.signed {
		return int64(raw<<(64-c.width)) >> (64 - c.width)
	}
	return int64(raw)
}

// want is the bin of raw: floor((x - lower) * bins / (upper - lower)) over
// the unsigned differences, -1 outside [lower, upper).
func (c histEvenCase) want(raw uint64) int {
	mask := ^uint64(0) >> (64 - c.width)
	x, lo, up := c.value(raw), c.value(c.lower), c.value(c.upper)
	if c.signed && !(x >= lo && x < up) || !c.signed && !(uint64(x) >= uint64(lo) && uint64(x) < uint64(up)) {
		return -1
	}
	d, r := (raw-c.lower)&mask, (c.upper-c.lower)&mask
	hi, lo64 := bits.Mul64(d, uint64(c.bins))
	q, _ := bits.Div64(hi, lo64, r)
	return int(q)
}

// TestHistogramExperimentBinners compiles histogramProgram for the host and
// checks HIST_EXP_BINS's binners against plain Go: EvenBinner32 against the
// exact 128-bit formula for 32-bit and narrower integers at random and edge
// levels, bin counts and samples (and over every sample of the 1- and 2-byte
// types in the program), RangeBinnerSteps against the first level above the
// sample (sort.Search) over sorted levels with repeats, for 1 to 300 bins.
func TestHistogramExperimentBinners(t *testing.T) {
	cc, args := hostCompiler(t)
	if filepath.Base(cc) != "nvcc" {
		t.Skip("histogram.cuh needs nvcc")
	}
	r := rand.New(rand.NewPCG(41, 7))
	types := []struct {
		name, ctype string
		width       int
		signed      bool
	}{
		{"int8", "int8_t", 8, true}, {"uint8", "uint8_t", 8, false},
		{"int16", "int16_t", 16, true}, {"uint16", "uint16_t", 16, false},
		{"int32", "int32_t", 32, true}, {"uint32", "uint32_t", 32, false},
	}
	var evens []histEvenCase
	var calls strings.Builder
	for _, ty := range types {
		mask := ^uint64(0) >> (64 - ty.width)
		binses := []int{1, 2, 3, 255, 256, 257, 65536, 1 << 24, math.MaxInt32}
		for k, bins := range binses {
			for lv := 0; lv < 4; lv++ {
				c := histEvenCase{name: fmt.Sprintf("%s_%d_%d", ty.name, k, lv), ctype: ty.ctype, width: ty.width, signed: ty.signed, bins: bins}
				switch lv {
				case 0: // the whole range of the type
					c.lower, c.upper = 0, mask
					if ty.signed {
						c.lower, c.upper = (mask>>1)+1, mask>>1
					}
				default:
					a, b := r.Uint64()&mask, r.Uint64()&mask
					if lv == 3 {
						b = (a + 1 + uint64(r.IntN(5))) & mask
					}
					c.lower, c.upper = a, b
					if c.value(a) > c.value(b) || !ty.signed && a > b {
						c.lower, c.upper = b, a
					}
					if c.lower == c.upper {
						continue
					}
				}
				lo, up := c.value(c.lower), c.value(c.upper)
				c.xs = []uint64{c.lower, c.upper, (c.upper - 1) & mask, (c.lower + 1) & mask, 0, mask, mask >> 1, (mask >> 1) + 1}
				for range 200 {
					x := r.Uint64() & mask
					if r.IntN(2) == 0 && up > lo { // inside the levels
						x = uint64(lo+int64(r.Uint64()%uint64(up-lo))) & mask
						if !ty.signed {
							x = c.lower + r.Uint64()%(c.upper-c.lower)
						}
					}
					c.xs = append(c.xs, x)
				}
				var xs []string
				for _, x := range c.xs {
					xs = append(xs, fmt.Sprintf("(%s)%dll", ty.ctype, c.value(x)))
				}
				fmt.Fprintf(&calls, "  { const %s xs[] = {%s}; even<%s>(%q, (%s)%dll, (%s)%dll, %d, xs, %d); }\n",
					ty.ctype, strings.Join(xs, ", "), ty.ctype, c.name, ty.ctype, lo, ty.ctype, up, bins, len(c.xs))
				evens = append(evens, c)
			}
		}
	}

	// RangeBinnerSteps over uint64 and float64 levels: sorted, with repeats.
	type rangeCase struct {
		name      string
		levels    []float64 // exact in both types (integers below 2^53)
		xs        []float64
		bins      int
		isFloat64 bool
	}
	var ranges []rangeCase
	for i, bins := range []int{1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 32, 33, 100, 255, 256, 257, 300} {
		for _, f := range []bool{false, true} {
			c := rangeCase{name: fmt.Sprintf("r%d_%v", i, f), bins: bins, isFloat64: f}
			v := float64(r.IntN(1000))
			for j := 0; j <= bins; j++ {
				c.levels = append(c.levels, v)
				if r.IntN(4) != 0 { // a repeat one time in four
					v += float64(1 + r.IntN(50))
				}
			}
			if c.levels[bins] == c.levels[0] {
				c.levels[bins]++
			}
			for _, l := range c.levels {
				c.xs = append(c.xs, l, l-1, l+1)
			}
			for range 100 {
				x := c.levels[0] - 10 + float64(r.IntN(int(c.levels[bins]-c.levels[0])+20))
				if f {
					x += 0.5
				}
				c.xs = append(c.xs, x)
			}
			if f {
				c.xs = append(c.xs, math.NaN(), math.Inf(1), math.Inf(-1))
			} else {
				kept := c.xs[:0]
				for _, x := range c.xs {
					if x >= 0 {
						kept = append(kept, x)
					}
				}
				c.xs = kept
			}
			ctype, lit := "unsigned long long", func(x float64) string { return strconv.FormatUint(uint64(x), 10) + "ull" }
			if f {
				ctype, lit = "double", func(x float64) string {
					switch {
					case math.IsNaN(x):
						return "__builtin_nan(\"\")"
					case math.IsInf(x, 1):
						return "__builtin_inf()"
					case math.IsInf(x, -1):
						return "-__builtin_inf()"
					}
					return strconv.FormatFloat(x, 'g', -1, 64)
				}
			}
			var ls, xs []string
			for _, l := range c.levels {
				ls = append(ls, lit(l))
			}
			for _, x := range c.xs {
				xs = append(xs, lit(x))
			}
			fmt.Fprintf(&calls, "  { const %s lv[] = {%s}; const %s xs[] = {%s}; range<%s>(%q, lv, %d, xs, %d); }\n",
				ctype, strings.Join(ls, ", "), ctype, strings.Join(xs, ", "), ctype, c.name, bins, len(c.xs))
			ranges = append(ranges, c)
		}
	}

	lines := runHeaderProgram(t, cc, args, "histogram", strings.Replace(histogramProgram, "@CALLS@", calls.String(), 1))

	i := 0
	next := func() string {
		require.Less(t, i, len(lines), "the program printed too few lines")
		i++
		return lines[i-1]
	}
	for _, c := range evens {
		for j, x := range c.xs {
			require.Equal(t, fmt.Sprintf("even %s %d %d", c.name, j, c.want(x)), next(),
				"EvenBinner32<%s>(lower %d, upper %d, %d bins) of %d", c.ctype, c.value(c.lower), c.value(c.upper), c.bins, c.value(x))
		}
	}
	for _, c := range ranges {
		for j, x := range c.xs {
			want := -1
			if x >= c.levels[0] && x < c.levels[c.bins] {
				// The first level above x among levels[1:bins+1], less one.
				want = sort.Search(c.bins, func(k int) bool { return x < c.levels[k+1] })
			}
			require.Equal(t, fmt.Sprintf("range %s %d %d", c.name, j, want), next(),
				"RangeBinnerSteps over %d bins %v of %v", c.bins, c.levels, x)
		}
	}
	last := next()
	var checked, failures int64
	_, err := fmt.Sscanf(last, "sweep %d checked %d failures", &checked, &failures)
	require.NoError(t, err, "the sweep's line: %q (its failures are printed before it: %q)", last, lines[max(0, i-6):i])
	require.Zero(t, failures, "EvenBinner32 over every 1- and 2-byte sample: %v", lines[max(0, i-6):i])
	require.Greater(t, checked, int64(1_000_000), "the sweep checked too few samples")
	require.Equal(t, len(lines), i, "the program printed more lines than expected")
}
