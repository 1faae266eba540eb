package runtime

import (
	"fmt"
	"strings"

	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/iter"
)

// This file holds what the N×M transforms of transform_nm.go share (their
// handles are written out per arity from one template; see
// TestTransformNMSource).

// inputOfAs is inputAs for an input that may have no length (a Counting, a
// Constant): its length is then -1, and the caller gives it the other
// inputs' (src.withLen).
func inputOfAs[T any](in *instance, role string, x Input[T]) (src[T], error) {
	if s, ok := x.(*Slice[T]); ok {
		return src[T]{s: s}, s.usableAs(in.name(), role)
	}
	return inputOf(in.name()+" "+role, x, true)
}

// transformNMLength returns the length of an N×M transform's call: that of
// its inputs with one, which must agree, and at least one must have one.
func transformNMLength(in *instance, lens ...int) (int, error) {
	n := -1
	for _, k := range lens {
		switch {
		case k < 0:
		case n < 0:
			n = k
		case k != n:
			s := make([]string, len(lens))
			for i, k := range lens {
				s[i] = fmt.Sprint(k)
				if k < 0 {
					s[i] = "no length"
				}
			}
			return 0, in.errorf("inputs of different lengths: %s", strings.Join(s, ", "))
		}
	}
	if n < 0 {
		return 0, in.errorf("no input has a length: give one with Take(n)")
	}
	return n, nil
}

// launchTransformNM launches the one kernel of an N×M transform over n >= 1
// items: a block a tile.
func launchTransformNM(in *instance, s *Stream, n int, args *cuda.Args, ins, outs []*iter.Node) error {
	k, err := in.kernelsThrough(s.dev, ins, outs)
	if err != nil {
		return err
	}
	tile := k.policy.Tile()
	return k.launch(transformNMKernel, (n+tile-1)/tile, s, args)
}
