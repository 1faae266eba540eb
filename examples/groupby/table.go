package main

import (
	"math/rand/v2"
	goruntime "runtime"
	"sync"

	"github.com/gocccl/gocccl/runtime"
)

// table is the host side: the columns in pinned memory, so that their
// uploads run asynchronously at the link's speed.
type table struct {
	keys *runtime.Pinned[int64]
	vals *runtime.Pinned[float64]
}

// newTable fills rows of random keys in [0, groups) and values that are
// multiples of 1/8 in [-125, 125], so that every sum is exact in float64
// and the check can ask for equality whatever order the GPU adds in.
func newTable(dev *runtime.Device, rows, groups int) (*table, error) {
	keys, err := runtime.AllocPinned[int64](dev, rows)
	if err != nil {
		return nil, err
	}
	vals, err := runtime.AllocPinned[float64](dev, rows)
	if err != nil {
		keys.Free()
		return nil, err
	}
	k, v := keys.Host(), vals.Host()
	seed := rand.Uint64()
	parallelRanges(rows, func(part, lo, hi int) {
		r := rand.New(rand.NewPCG(seed, uint64(part)))
		for i := lo; i < hi; i++ {
			k[i] = int64(r.Uint64N(uint64(groups)))
			v[i] = float64(r.IntN(2001)-1000) / 8
		}
	})
	return &table{keys: keys, vals: vals}, nil
}

func (t *table) free() {
	t.keys.Free()
	t.vals.Free()
}

func goroutines() int { return goruntime.GOMAXPROCS(0) }

// parallelRanges splits [0, n) into one range per goroutine and runs f on
// each at once.
func parallelRanges(n int, f func(part, lo, hi int)) {
	parts := goroutines()
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := n*p/parts, n*(p+1)/parts
		wg.Go(func() { f(p, lo, hi) })
	}
	wg.Wait()
}
