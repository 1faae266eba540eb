package main

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"

	"github.com/gocccl/gocccl/runtime"
)

// num is the element types of the algorithm families' cases.
type num interface{ uint32 | float32 }

// wide is num with the 8-byte types of the cases that have them.
type wide interface{ num | uint64 | float64 }

// gen returns a random item: integers over their whole range, floats in [0, 1).
func gen[T wide](r *rand.Rand) T {
	var v T
	switch p := any(&v).(type) {
	case *uint32:
		*p = r.Uint32()
	case *uint64:
		*p = r.Uint64()
	case *float32:
		*p = float32(r.Float64())
	case *float64:
		*p = r.Float64()
	}
	return v
}

// randomItems returns n items of gen's kind, made in parallel from streams
// derived from r: the items parallelItems(r, n, gen[T]) returns, with the
// type switched on once per block rather than once per item.
func randomItems[T wide](r *rand.Rand, n int) []T {
	s := make([]T, n)
	cs := newChunkStreams(r)
	parallelFor(n, func(b, lo, hi int) {
		br := cs.stream(b)
		switch p := any(s[lo:hi]).(type) {
		case []uint32:
			for i := range p {
				p[i] = br.Uint32()
			}
		case []uint64:
			for i := range p {
				p[i] = br.Uint64()
			}
		case []float32:
			for i := range p {
				p[i] = float32(br.Float64())
			}
		case []float64:
			for i := range p {
				p[i] = br.Float64()
			}
		}
	})
	return s
}

func isFloat[T any]() bool {
	var v T
	switch any(v).(type) {
	case float32, float64:
		return true
	}
	return false
}

// holder collects what a Setup allocates, so that a failure half way frees it.
type holder struct{ frees []func() }

func (h *holder) Free() {
	for i := len(h.frees) - 1; i >= 0; i-- {
		h.frees[i]()
	}
}

func alloc[T any](h *holder, env *Env, n int) (*runtime.Slice[T], error) {
	s, err := runtime.Alloc[T](env.Dev, max(n, 1))
	if err != nil {
		h.Free()
		return nil, err
	}
	h.frees = append(h.frees, func() { s.Free() })
	return s, nil
}

func upload[T any](h *holder, env *Env, host []T) (*runtime.Slice[T], error) {
	s, err := runtime.FromHost(env.Dev, host)
	if err != nil {
		h.Free()
		return nil, err
	}
	h.frees = append(h.frees, func() { s.Free() })
	return s, nil
}

func rot[T any](h *holder, env *Env, host []T, size int) ([]*runtime.Slice[T], error) {
	bufs, free, err := rotation(env, host, size)
	if err != nil {
		h.Free()
		return nil, err
	}
	h.frees = append(h.frees, free)
	return bufs, nil
}

// poisonAll fills every slice with 0xAB bytes.
func poisonAll(ps ...func() error) func() error {
	return func() error {
		for _, p := range ps {
			if err := p(); err != nil {
				return err
			}
		}
		return nil
	}
}

func poisoner[T any](s *runtime.Slice[T]) func() error {
	return func() error { return s.CopyFromHost(fill(s.Len(), poison[T]())) }
}

// sameItems compares got[:len(want)] with want bit for bit.
func sameItems[T comparable](what string, got, want []T) error {
	if len(got) < len(want) {
		return fmt.Errorf("%s: %d items, want %d", what, len(got), len(want))
	}
	if i := firstDifference(got, want); i >= 0 {
		return fmt.Errorf("%s: item %d is %v, want %v", what, i, got[i], want[i])
	}
	return nil
}

// close compares a float result with an exact one relative to mag.
func closeTo(got, want, mag float64) bool { return math.Abs(got-want) <= 1e-5*mag+1e-6 }

// checkSorted checks that got is ascending and a permutation of in (by sums
// of mixed key bits, O(n) without a map: the 2^28 cases stay cheap). The
// sums and xors of fixed blocks are taken in parallel and combined, which
// gives the same totals as one pass.
func checkSorted[K cmp.Ordered](in, got []K) error {
	if len(in) != len(got) {
		return fmt.Errorf("%d keys, want %d", len(got), len(in))
	}
	if i := firstUnsorted(got); i >= 0 {
		return fmt.Errorf("not sorted at %d of %d", i, len(got))
	}
	var a, b, c, d uint64
	for _, s := range parallelBlocks(len(got), func(lo, hi int) [4]uint64 {
		var s [4]uint64
		for i := lo; i < hi; i++ {
			x, y := mixBits(in[i]), mixBits(got[i])
			s[0], s[1], s[2], s[3] = s[0]+x, s[1]^(x*3), s[2]+y, s[3]^(y*3)
		}
		return s
	}) {
		a, b, c, d = a+s[0], b^s[1], c+s[2], d^s[3]
	}
	if a != c || b != d {
		return fmt.Errorf("keys are not a permutation of the input")
	}
	return nil
}

// mixBits hashes a key's bits (splitmix64's finaliser).
func mixBits[K any](k K) uint64 {
	var z uint64
	switch v := any(k).(type) {
	case uint32:
		z = uint64(v)
	case uint64:
		z = v
	case float32:
		z = uint64(math.Float32bits(v))
	case float64:
		z = math.Float64bits(v)
	case int32:
		z = uint64(uint32(v))
	}
	z += 0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// checkStable checks that (keys, vals) is the stable sort of (in[i], i):
// vals a permutation, keys[i] == in[vals[i]], keys ascending, vals
// ascending among equal keys. The pairs are checked in parallel (a bitset
// marks the values seen); only a failure is looked at again one by one, for
// the first bad pair's message.
func checkStable[K cmp.Ordered](in, keys []K, vals []uint32) error {
	if len(keys) == len(in) && len(vals) == len(in) && stableOK(in, keys, vals) {
		return nil
	}
	seen := make([]bool, len(in))
	for i, v := range vals {
		if int(v) >= len(in) || seen[v] || keys[i] != in[v] {
			return fmt.Errorf("pair %d: value %d is not a fresh index of its key", i, v)
		}
		seen[v] = true
		if i > 0 && (keys[i] < keys[i-1] || (keys[i] == keys[i-1] && v < vals[i-1])) {
			return fmt.Errorf("not sorted or not stable at %d of %d", i, len(keys))
		}
	}
	return nil
}

// stableOK is checkStable's parallel pass: true when every pair holds.
func stableOK[K cmp.Ordered](in, keys []K, vals []uint32) bool {
	seen := make([]uint32, (len(in)+31)/32)
	return firstIndex(len(vals), func(i int) bool {
		v := vals[i]
		if int(v) >= len(in) || keys[i] != in[v] {
			return true
		}
		if atomic.OrUint32(&seen[v/32], 1<<(v%32))&(1<<(v%32)) != 0 {
			return true
		}
		return i > 0 && (keys[i] < keys[i-1] || (keys[i] == keys[i-1] && v < vals[i-1]))
	}) < 0
}
