// Package plainalloc instantiates the plain (Slice) calls of the
// algorithms whose Run takes Inputs and Outputs, for TestPlainCallsEscape,
// which reads the compiler's escape analysis of them.
package plainalloc

import "github.com/gocccl/gocccl/runtime"

func add(a, b int64) int64    { return a + b }
func odd(x int64) bool        { return x&1 == 1 }
func same(a, b int64) bool    { return a == b }
func less(a, b int64) bool    { return a < b }
func lessF(a, b float32) bool { return a < b }

var (
	sel   = runtime.Select(odd)
	part  = runtime.Partition(odd)
	three = runtime.ThreeWayPartition(odd, odd)
	uniq  = runtime.Unique(same)
	byKey = runtime.UniqueByKey[int64, int64](same)
	seg   = runtime.SegmentedReduce(add)
	evenI = runtime.HistogramEven[int64]()
	evenF = runtime.HistogramEven[float32]()
	rng   = runtime.HistogramRange[float32]()
	lower = runtime.LowerBound(less)
	upper = runtime.UpperBound(lessF)
)

// Calls makes every plain call once.
func Calls(s *runtime.Stream, a, b, c, d *runtime.Slice[int64], f, g *runtime.Slice[float32], h *runtime.Slice[int32]) {
	_ = sel.Run(s, a, b, c)
	_ = part.Run(s, a, b, c)
	_ = three.Run(s, a, b, c, d, c)
	_ = uniq.Run(s, a, b, c)
	_ = byKey.Run(s, a, b, c, d, c)
	_ = seg.Run(s, a, b, c, d, 0)
	_ = evenI.Run(s, a, h, 4, 0, 10)
	_ = evenF.Run(s, f, h, 4, 0, 10)
	_ = rng.Run(s, f, h, g)
	_ = lower.Run(s, a, b, c)
	_ = upper.Run(s, f, g, c)
}
