package main

import (
	"github.com/gocccl/gocccl/bench/ops"
)

// N×M transforms, as bench/cub/transform.cu: transform3, three float32
// inputs to one output (a*x + b; 16 bytes an item), and transform3x2, three
// float32 inputs to two outputs (a blend and its complement; 20 bytes an
// item), each against cub::DeviceTransform::Transform over a
// cuda::std::tuple of the inputs (the two outputs through a zip iterator).
// Results are Go's roundings, checked bit for bit against the operators
// run on the host.
func init() {
	register(func(sizes []int) []Case {
		var cs []Case
		for _, n := range sizes {
			cs = append(cs, transform3Case(n), transform3x2Case(n))
		}
		return cs
	})
}

func transform3Case(n int) Case {
	return Case{
		Algorithm: "transform3", Type: "float32", N: n, Bytes: int64(n) * 16, Note: "a*x+b, 3 inputs to 1 output",
		Setup: func(env *Env) (*Instance, error) {
			r := rng(env, "transform3", "float32", n)
			ha, hx, hb := randomItems[float32](r, n), randomItems[float32](r, n), randomItems[float32](r, n)
			h := &holder{}
			a, err := rot(h, env, ha, 4)
			if err != nil {
				return nil, err
			}
			x, err := rot(h, env, hx, 4)
			if err != nil {
				return nil, err
			}
			b, err := rot(h, env, hb, 4)
			if err != nil {
				return nil, err
			}
			out, err := alloc[float32](h, env, n)
			if err != nil {
				return nil, err
			}
			out = out.Range(0, n)
			return &Instance{
				Poison: poisoner(out),
				Run: func(i int) error {
					return ops.Transform3Float32.Run(env.Stream, a[i%len(a)], x[i%len(x)], b[i%len(b)], out)
				},
				Check: func() error {
					got, err := out.ToHost()
					if err != nil {
						return err
					}
					want := make([]float32, n)
					parallelFor(n, func(_, lo, hi int) {
						for i := lo; i < hi; i++ {
							want[i] = ops.Axpb(ha[i], hx[i], hb[i])
						}
					})
					return sameItems("output", got, want)
				},
				Free: h.Free,
			}, nil
		},
	}
}

func transform3x2Case(n int) Case {
	return Case{
		Algorithm: "transform3x2", Type: "float32", N: n, Bytes: int64(n) * 20, Note: "a blend and its complement, 3 inputs to 2 outputs",
		Setup: func(env *Env) (*Instance, error) {
			r := rng(env, "transform3x2", "float32", n)
			ha, hb, hw := randomItems[float32](r, n), randomItems[float32](r, n), randomItems[float32](r, n)
			h := &holder{}
			a, err := rot(h, env, ha, 4)
			if err != nil {
				return nil, err
			}
			b, err := rot(h, env, hb, 4)
			if err != nil {
				return nil, err
			}
			w, err := rot(h, env, hw, 4)
			if err != nil {
				return nil, err
			}
			out1, err := alloc[float32](h, env, n)
			if err != nil {
				return nil, err
			}
			out2, err := alloc[float32](h, env, n)
			if err != nil {
				return nil, err
			}
			out1, out2 = out1.Range(0, n), out2.Range(0, n)
			return &Instance{
				Poison: poisonAll(poisoner(out1), poisoner(out2)),
				Run: func(i int) error {
					return ops.Transform3x2Float32.Run(env.Stream, a[i%len(a)], b[i%len(b)], w[i%len(w)], out1, out2)
				},
				Check: func() error {
					g1, err := out1.ToHost()
					if err != nil {
						return err
					}
					g2, err := out2.ToHost()
					if err != nil {
						return err
					}
					w1, w2 := make([]float32, n), make([]float32, n)
					parallelFor(n, func(_, lo, hi int) {
						for i := lo; i < hi; i++ {
							w1[i], w2[i] = ops.Lerp2(ha[i], hb[i], hw[i])
						}
					})
					if err := sameItems("output 1", g1, w1); err != nil {
						return err
					}
					return sameItems("output 2", g2, w2)
				},
				Free: h.Free,
			}, nil
		},
	}
}
