package main

import (
	"fmt"
	"unsafe"

	"github.com/gocccl/gocccl/bench/ops"
	"github.com/gocccl/gocccl/runtime"
)

// Compactions, as bench/cub/select.cu, over uint32, float32, uint64 and
// float64: select and partition (integers keep odd values, floats keep
// x < 0.5), three_way_partition (x % 3 == 0, then == 1; x < 1/3, then
// < 2/3), and over runs of 7 equal items unique, unique_by_key (values of the
// type) and run_length_encode (int64 lengths).
func init() {
	register(func(sizes []int) []Case {
		var cs []Case
		for _, n := range sizes {
			cs = append(cs, selectCases(n, "uint32", selectOps[uint32]{
				keep: ops.KeepUint32, first: ops.FirstUint32, second: ops.SecondUint32,
				sel: ops.SelectUint32, part: ops.PartitionUint32, three: ops.ThreeWayUint32,
				uniq: ops.UniqueUint32, ubk: ops.UniqueByKeyUint32, rle: ops.RunLengthEncodeUint32,
			})...)
			cs = append(cs, selectCases(n, "float32", selectOps[float32]{
				keep: ops.KeepFloat32, first: ops.FirstFloat32, second: ops.SecondFloat32,
				sel: ops.SelectFloat32, part: ops.PartitionFloat32, three: ops.ThreeWayFloat32,
				uniq: ops.UniqueFloat32, ubk: ops.UniqueByKeyFloat32, rle: ops.RunLengthEncodeFloat32,
			})...)
			cs = append(cs, selectCases(n, "uint64", selectOps[uint64]{
				keep: ops.KeepUint64, first: ops.FirstUint64, second: ops.SecondUint64,
				sel: ops.SelectUint64, part: ops.PartitionUint64, three: ops.ThreeWayUint64,
				uniq: ops.UniqueUint64, ubk: ops.UniqueByKeyUint64, rle: ops.RunLengthEncodeUint64,
			})...)
			cs = append(cs, selectCases(n, "float64", selectOps[float64]{
				keep: ops.KeepFloat64, first: ops.FirstFloat64, second: ops.SecondFloat64,
				sel: ops.SelectFloat64, part: ops.PartitionFloat64, three: ops.ThreeWayFloat64,
				uniq: ops.UniqueFloat64, ubk: ops.UniqueByKeyFloat64, rle: ops.RunLengthEncodeFloat64,
			})...)
		}
		return cs
	})
}

type selectOps[T wide] struct {
	keep, first, second func(T) bool
	sel                 *runtime.SelectOp[T]
	part                *runtime.PartitionOp[T]
	three               *runtime.ThreeWayPartitionOp[T]
	uniq                *runtime.UniqueOp[T]
	ubk                 *runtime.UniqueByKeyOp[T, T]
	rle                 *runtime.RunLengthEncodeOp[T]
}

// selectData is the host side of one type and size.
type selectData[T wide] struct {
	x, runs                         []T
	sel, part, first, second, other []T
	uniq, uvals                     []T
	lens                            []int64
}

// lastSelect holds the host data of the latest type and size: the six
// algorithms of one type and size run one after another on the same data
// (rng's seed names "select", not the algorithm), and at 2^28 building it
// took most of each case's 12–20 s.
var lastSelect struct {
	seed uint64
	typ  string
	n    int
	data any
}

// selectDataFor returns makeSelectData's result for typ and n, built once
// for consecutive cases of the same run seed, type and size.
func selectDataFor[T wide](env *Env, typ string, n int, o selectOps[T]) *selectData[T] {
	if d, ok := lastSelect.data.(*selectData[T]); ok && lastSelect.seed == env.Seed && lastSelect.typ == typ && lastSelect.n == n {
		return d
	}
	lastSelect.data = nil // the old data can go before the new is built
	d := makeSelectData(env, typ, n, o)
	lastSelect.seed, lastSelect.typ, lastSelect.n, lastSelect.data = env.Seed, typ, n, d
	return d
}

func makeSelectData[T wide](env *Env, typ string, n int, o selectOps[T]) *selectData[T] {
	r := rng(env, "select", typ, n)
	d := &selectData[T]{x: randomItems[T](r, n)}
	group := randomItems[T](r, (n+6)/7)
	d.runs = make([]T, n)
	var rej []T
	for i, v := range d.x {
		d.runs[i] = group[i/7]
		if o.keep(v) {
			d.sel = append(d.sel, v)
		} else {
			rej = append(rej, v)
		}
		switch {
		case o.first(v):
			d.first = append(d.first, v)
		case o.second(v):
			d.second = append(d.second, v)
		default:
			d.other = append(d.other, v)
		}
	}
	d.part = append([]T{}, d.sel...)
	for i := len(rej) - 1; i >= 0; i-- {
		d.part = append(d.part, rej[i])
	}
	for i, v := range d.runs {
		if i == 0 || v != d.runs[i-1] {
			d.uniq = append(d.uniq, v)
			d.uvals = append(d.uvals, d.x[i])
			d.lens = append(d.lens, 0)
		}
		d.lens[len(d.lens)-1]++
	}
	return d
}

func selectCases[T wide](n int, typ string, o selectOps[T]) []Case {
	s := int64(unsafe.Sizeof(*new(T)))
	nn := int64(n)
	// The outputs' sizes depend on the data; the byte counts use the
	// expected halves, thirds and sevenths.
	runs := (nn + 6) / 7
	mk := func(alg string, bytes int64, note string, run func(env *Env, d *selectData[T], in, rin []*runtime.Slice[T],
		out, out2, out3 *runtime.Slice[T], lens, count *runtime.Slice[int64], i int) error,
		check func(d *selectData[T], out, out2, out3 *runtime.Slice[T], lens, count *runtime.Slice[int64]) error) Case {
		return Case{
			Algorithm: alg, Type: typ, N: n, Bytes: bytes, Note: note,
			Setup: func(env *Env) (*Instance, error) {
				d := selectDataFor(env, typ, n, o)
				h := &holder{}
				in, err := rot(h, env, d.x, int(s))
				if err != nil {
					return nil, err
				}
				rin, err := rot(h, env, d.runs, int(s))
				if err != nil {
					return nil, err
				}
				var outs [3]*runtime.Slice[T]
				for k := range outs {
					if outs[k], err = alloc[T](h, env, n); err != nil {
						return nil, err
					}
				}
				lens, err := alloc[int64](h, env, n)
				if err != nil {
					return nil, err
				}
				count, err := alloc[int64](h, env, 2)
				if err != nil {
					return nil, err
				}
				return &Instance{
					Poison: poisonAll(poisoner(outs[0]), poisoner(outs[1]), poisoner(outs[2]), poisoner(lens), poisoner(count)),
					Run:    func(i int) error { return run(env, d, in, rin, outs[0], outs[1], outs[2], lens, count, i) },
					Check:  func() error { return check(d, outs[0], outs[1], outs[2], lens, count) },
					Free:   h.Free,
				}, nil
			},
		}
	}
	return []Case{
		mk("select", s*(nn+nn/2)+8, "",
			func(env *Env, d *selectData[T], in, rin []*runtime.Slice[T], out, _, _ *runtime.Slice[T], _, count *runtime.Slice[int64], i int) error {
				return o.sel.Run(env.Stream, in[i%len(in)], out, count.Range(0, 1))
			},
			func(d *selectData[T], out, _, _ *runtime.Slice[T], _, count *runtime.Slice[int64]) error {
				return checkOut(count, []int{len(d.sel)}, []*runtime.Slice[T]{out}, [][]T{d.sel})
			}),
		mk("partition", 2*s*nn+8, "",
			func(env *Env, d *selectData[T], in, rin []*runtime.Slice[T], out, _, _ *runtime.Slice[T], _, count *runtime.Slice[int64], i int) error {
				return o.part.Run(env.Stream, in[i%len(in)], out, count.Range(0, 1))
			},
			func(d *selectData[T], out, _, _ *runtime.Slice[T], _, count *runtime.Slice[int64]) error {
				return checkOut(count, []int{len(d.sel)}, []*runtime.Slice[T]{out}, [][]T{d.part})
			}),
		mk("three_way_partition", 2*s*nn+16, "",
			func(env *Env, d *selectData[T], in, rin []*runtime.Slice[T], out, out2, out3 *runtime.Slice[T], _, count *runtime.Slice[int64], i int) error {
				return o.three.Run(env.Stream, in[i%len(in)], out, out2, out3, count)
			},
			func(d *selectData[T], out, out2, out3 *runtime.Slice[T], _, count *runtime.Slice[int64]) error {
				return checkOut(count, []int{len(d.first), len(d.second)}, []*runtime.Slice[T]{out, out2, out3}, [][]T{d.first, d.second, d.other})
			}),
		mk("unique", s*(nn+runs)+8, "runs of 7",
			func(env *Env, d *selectData[T], in, rin []*runtime.Slice[T], out, _, _ *runtime.Slice[T], _, count *runtime.Slice[int64], i int) error {
				return o.uniq.Run(env.Stream, rin[i%len(rin)], out, count.Range(0, 1))
			},
			func(d *selectData[T], out, _, _ *runtime.Slice[T], _, count *runtime.Slice[int64]) error {
				return checkOut(count, []int{len(d.uniq)}, []*runtime.Slice[T]{out}, [][]T{d.uniq})
			}),
		mk("unique_by_key", 2*s*(nn+runs)+8, "runs of 7 keys, values of the type",
			func(env *Env, d *selectData[T], in, rin []*runtime.Slice[T], out, out2, _ *runtime.Slice[T], _, count *runtime.Slice[int64], i int) error {
				return o.ubk.Run(env.Stream, rin[i%len(rin)], in[i%len(in)], out, out2, count.Range(0, 1))
			},
			func(d *selectData[T], out, out2, _ *runtime.Slice[T], _, count *runtime.Slice[int64]) error {
				return checkOut(count, []int{len(d.uniq)}, []*runtime.Slice[T]{out, out2}, [][]T{d.uniq, d.uvals})
			}),
		mk("run_length_encode", s*(nn+runs)+8*runs+8, "runs of 7, int64 lengths",
			func(env *Env, d *selectData[T], in, rin []*runtime.Slice[T], out, _, _ *runtime.Slice[T], lens, count *runtime.Slice[int64], i int) error {
				return o.rle.Run(env.Stream, rin[i%len(rin)], out, lens, count.Range(0, 1))
			},
			func(d *selectData[T], out, _, _ *runtime.Slice[T], lens, count *runtime.Slice[int64]) error {
				if err := checkOut(count, []int{len(d.uniq)}, []*runtime.Slice[T]{out}, [][]T{d.uniq}); err != nil {
					return err
				}
				got, err := lens.ToHost()
				if err != nil {
					return err
				}
				return sameItems("lengths", got, d.lens)
			}),
	}
}

// checkOut compares the counts and the outputs' leading items.
func checkOut[T wide](count *runtime.Slice[int64], counts []int, outs []*runtime.Slice[T], want [][]T) error {
	c, err := count.ToHost()
	if err != nil {
		return err
	}
	for k, w := range counts {
		if c[k] != int64(w) {
			return fmt.Errorf("count %d is %d, want %d", k, c[k], w)
		}
	}
	for k, s := range outs {
		got, err := s.ToHost()
		if err != nil {
			return err
		}
		if err := sameItems(fmt.Sprintf("output %d", k), got, want[k]); err != nil {
			return err
		}
	}
	return nil
}
