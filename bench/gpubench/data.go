package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/gocccl/gocccl/runtime"
)

// rng returns the random source of one case, seeded from the run's seed and
// the case's coordinates so that each case gets fresh data.
func rng(env *Env, algorithm, typ string, n int) *rand.Rand {
	h := uint64(14695981039346656037)
	for _, c := range fmt.Sprintf("%s/%s/%d", algorithm, typ, n) {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return rand.New(rand.NewPCG(env.Seed, h))
}

// rotation uploads env.Buffers copies of host; free releases them.
func rotation[T any](env *Env, host []T, elemSize int) (bufs []*runtime.Slice[T], free func(), err error) {
	free = func() {
		for _, b := range bufs {
			b.Free()
		}
	}
	for range env.Buffers(int64(len(host)) * int64(elemSize)) {
		b, err := runtime.FromHost(env.Dev, host)
		if err != nil {
			free()
			return nil, nil, err
		}
		bufs = append(bufs, b)
	}
	return bufs, free, nil
}
