package iterator

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/internal/iter"
	"github.com/gocccl/gocccl/runtime"
)

// Number is the value types Counting counts in.
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64
}

// SliceLeaf is a device buffer in a composition, bound per call with With:
// read as an input, written as an output.
type SliceLeaf[T any] struct{ In[T] }

// Slice declares a device buffer of T in a composition. Alone, it is the
// plain buffer an algorithm takes anyway.
func Slice[T any]() *SliceLeaf[T] {
	n := &iter.Node{Kind: iter.Slice, Type: reflect.TypeFor[T]()}
	withReader(n, iter.Reader[T](func(env *iter.Env) (func(int64) T, error) {
		host, err := hostOf[T](env, n)
		if err != nil {
			return nil, err
		}
		return func(i int64) T { return host[i] }, nil
	}))
	withWriter(n, iter.Writer[T](func(env *iter.Env) (func(int64, T), error) {
		host, err := hostOf[T](env, n)
		if err != nil {
			return nil, err
		}
		return func(i int64, v T) { host[i] = v }, nil
	}))
	return &SliceLeaf[T]{In[T]{n}}
}

func hostOf[T any](env *iter.Env, n *iter.Node) ([]T, error) {
	b, err := env.Buf(n)
	if err != nil {
		return nil, err
	}
	host, ok := b.Host.([]T)
	if !ok {
		return nil, fmt.Errorf("iterator.Slice[%v]: no host memory (a GPU buffer on the CPU backend?)", n.Type)
	}
	return host, nil
}

// With binds the leaf to s for a call.
func (l *SliceLeaf[T]) With(s *runtime.Slice[T]) Value {
	return Value{iter.Value{Leaf: l.node(), V: s}}
}

// GoccclOutputIterator is for gocccl's own use: a Slice leaf is an output too.
func (l *SliceLeaf[T]) GoccclOutputIterator() iter.OutDecl[T] { return iter.OutDecl[T]{N: l.node()} }

// GoccclOutputNode is for gocccl's own use.
func (l *SliceLeaf[T]) GoccclOutputNode() *iter.Node { return l.node() }

// BindOutput binds an output composition that is this leaf alone.
func (l *SliceLeaf[T]) BindOutput(vals ...Value) *BoundOut[T] {
	return &BoundOut[T]{b: bind(l.node(), vals)}
}

// CountingLeaf reads start + i, bound to its start per call with With.
type CountingLeaf[T Number] struct{ In[T] }

// Counting declares a counting input: element i is start + T(i), with Go's
// wrapping for integers and Go's rounding of T(i) for floats. It has no
// length: Take one, or read it beside something that has one.
func Counting[T Number]() *CountingLeaf[T] {
	n := &iter.Node{Kind: iter.Counting, Type: reflect.TypeFor[T]()}
	withReader(n, iter.Reader[T](func(env *iter.Env) (func(int64) T, error) {
		v, err := env.Value(n)
		if err != nil {
			return nil, err
		}
		start, ok := v.(T)
		if !ok {
			return nil, fmt.Errorf("iterator.Counting[%v]: start %v is a %T", n.Type, v, v)
		}
		return func(i int64) T { return start + T(i) }, nil
	}))
	return &CountingLeaf[T]{In[T]{n}}
}

// With binds the leaf's start for a call.
func (l *CountingLeaf[T]) With(start T) Value { return Value{iter.Value{Leaf: l.node(), V: start}} }

// ConstantLeaf reads one value everywhere, bound per call with With.
type ConstantLeaf[T any] struct{ In[T] }

// Constant declares a constant input. It has no length of its own.
func Constant[T any]() *ConstantLeaf[T] {
	n := &iter.Node{Kind: iter.Constant, Type: reflect.TypeFor[T]()}
	withReader(n, iter.Reader[T](func(env *iter.Env) (func(int64) T, error) {
		v, err := env.Value(n)
		if err != nil {
			return nil, err
		}
		c, ok := v.(T)
		if !ok {
			return nil, fmt.Errorf("iterator.Constant[%v]: value %v is a %T", n.Type, v, v)
		}
		return func(int64) T { return c }, nil
	}))
	return &ConstantLeaf[T]{In[T]{n}}
}

// With binds the leaf's value for a call.
func (l *ConstantLeaf[T]) With(v T) Value { return Value{iter.Value{Leaf: l.node(), V: v}} }

// ShuffleLeaf reads a deterministic random permutation of [0, n), bound to
// n and a seed per call with With.
type ShuffleLeaf struct{ In[int64] }

// Shuffle declares a random permutation of [0, n) as int64 indices, the
// same on the CPU backend and every GPU for the same n and seed (a Feistel
// bijection with cycle walking; iter.ShuffleAt). Its length is n. Read
// values in shuffled order with Permutation(values, Shuffle()).
func Shuffle() *ShuffleLeaf {
	n := &iter.Node{Kind: iter.Shuffle, Type: reflect.TypeFor[int64]()}
	withReader(n, iter.Reader[int64](func(env *iter.Env) (func(int64) int64, error) {
		v, err := env.Value(n)
		if err != nil {
			return nil, err
		}
		s, ok := v.(iter.ShuffleValue)
		if !ok {
			return nil, fmt.Errorf("iterator.Shuffle: bad value %v", v)
		}
		return func(i int64) int64 { return iter.ShuffleAt(s.N, s.Seed, i) }, nil
	}))
	return &ShuffleLeaf{In[int64]{n}}
}

// With binds the permutation of [0, n) that seed draws for a call.
func (l *ShuffleLeaf) With(n int, seed uint64) Value {
	return Value{iter.Value{Leaf: l.node(), V: iter.ShuffleValue{N: int64(n), Seed: seed}}}
}

// Transform reads op(in[i]); op is a //gocccl:op function, and in any
// input composition, a Transform too.
func Transform[A, B any](in runtime.Iterator[A], op func(A) B) *In[B] {
	c := inNode(in)
	n := node(iter.Transform, reflect.TypeFor[B](), c)
	n.Op = op
	if op == nil {
		n.Err = fmt.Errorf("iterator.Transform: nil operator")
	}
	read := reader[A](orEmpty(c))
	return &In[B]{withReader(n, iter.Reader[B](func(env *iter.Env) (func(int64) B, error) {
		f, err := read(env)
		if err != nil {
			return nil, err
		}
		return func(i int64) B { return op(f(i)) }, nil
	}))}
}

// Permutation reads values[indices[i]]. Its length is that of indices;
// every index must be within values: the CPU backend returns an error for
// one that is not, a GPU reads what it is given.
func Permutation[T any](values runtime.Iterator[T], indices runtime.Iterator[int64]) *In[T] {
	v, x := inNode(values), inNode(indices)
	n := node(iter.Permutation, reflect.TypeFor[T](), v, x)
	rv, rx := reader[T](orEmpty(v)), reader[int64](orEmpty(x))
	return &In[T]{withReader(n, iter.Reader[T](func(env *iter.Env) (func(int64) T, error) {
		fv, err := rv(env)
		if err != nil {
			return nil, err
		}
		fx, err := rx(env)
		if err != nil {
			return nil, err
		}
		lv, err := v.Len(env)
		if err != nil {
			return nil, err
		}
		return func(i int64) T {
			j := fx(i)
			if lv >= 0 && (j < 0 || j >= lv) {
				panic(indexError{"Permutation", "values", i, j, lv})
			}
			return fv(j)
		}, nil
	}))}
}

// indexError is a Permutation index outside its values, which the CPU
// backend reports as an error.
// (kind names the composition, of the values or of the output's elements).
type indexError struct {
	kind, of string
	i, j, n  int64
}

func (e indexError) Error() string {
	return fmt.Sprintf("iterator.%s: index %d (at %d) is outside the %d %s: every index must be in [0, %d)", e.kind, e.j, e.i, e.n, e.of, e.n)
}

// Reverse reads in[len-1-i]: in must have a length (read a buffer or a
// Shuffle).
func Reverse[T any](in runtime.Iterator[T]) *In[T] {
	c := inNode(in)
	n := node(iter.Reverse, reflect.TypeFor[T](), c)
	if n.Err == nil && !c.Bounded() {
		n.Err = fmt.Errorf("iterator.Reverse of %s: its input has no length to reverse (it reads no Slice or Shuffle)", c.Sig())
	}
	read := reader[T](orEmpty(c))
	return &In[T]{withReader(n, iter.Reader[T](func(env *iter.Env) (func(int64) T, error) {
		f, err := read(env)
		if err != nil {
			return nil, err
		}
		l, err := c.Len(env)
		if err != nil {
			return nil, err
		}
		return func(i int64) T { return f(l - 1 - i) }, nil
	}))}
}

// Zip reads a Z whose field k is ins[k][i]: Z is a struct with one field per
// input, of the input's value type, in order.
func Zip[Z any](ins ...AnyIn) *In[Z] {
	cs := make([]*iter.Node, len(ins))
	for i, x := range ins {
		cs[i] = nodeOf(x)
	}
	z := reflect.TypeFor[Z]()
	n := node(iter.Zip, z, cs...)
	if n.Err == nil {
		n.Err = zipFits("Zip", z, cs)
	}
	offs := zipOffsets(z, len(cs))
	return &In[Z]{withReader(n, iter.Reader[Z](func(env *iter.Env) (func(int64) Z, error) {
		fs := make([]func(int64, unsafe.Pointer), len(cs))
		for k, c := range cs {
			if c.ReadRaw == nil {
				return nil, fmt.Errorf("iterator.Zip: operand %d cannot be read", k+1)
			}
			f, err := c.ReadRaw(env)
			if err != nil {
				return nil, err
			}
			fs[k] = f
		}
		return func(i int64) Z {
			var v Z
			for k, f := range fs {
				f(i, unsafe.Add(unsafe.Pointer(&v), offs[k]))
			}
			return v
		}, nil
	}))}
}

// zipFits checks that z is a struct with one field per operand, of its
// value type.
func zipFits(what string, z reflect.Type, cs []*iter.Node) error {
	if len(cs) < 2 {
		return fmt.Errorf("iterator.%s[%v]: zip two or more iterators", what, z)
	}
	if z.Kind() != reflect.Struct || z.NumField() != len(cs) {
		return fmt.Errorf("iterator.%s[%v]: %v must be a struct with one field per iterator (%d)", what, z, z, len(cs))
	}
	for k, c := range cs {
		if f := z.Field(k); f.Type != c.Type {
			return fmt.Errorf("iterator.%s[%v]: field %s is %v but iterator %d is of %v", what, z, f.Name, f.Type, k+1, c.Type)
		}
		if what == "Zip" && c.Kind.Output() || what == "ZipOutput" && !c.Kind.Output() && c.Kind != iter.Slice {
			return fmt.Errorf("iterator.%s: operand %d is a %s", what, k+1, c.Kind)
		}
	}
	return nil
}

func zipOffsets(z reflect.Type, n int) []uintptr {
	offs := make([]uintptr, n)
	if z.Kind() == reflect.Struct {
		for k := range min(n, z.NumField()) {
			offs[k] = z.Field(k).Offset
		}
	}
	return offs
}

// CacheMode is how a CacheModified input loads.
type CacheMode = iter.CacheMode

// The cache modes of CacheModified (CUB's LOAD_CS, LOAD_CG, LOAD_VOLATILE).
const (
	// Streaming loads (ld.global.cs): data read once, evicted first.
	Streaming = iter.Streaming
	// L2Only loads (ld.global.cg): cached in L2, not in L1.
	L2Only = iter.L2Only
	// Volatile loads (ld.volatile): read from memory every time.
	Volatile = iter.Volatile
)

// CacheModified reads the buffer in with the loads of mode (a constant of
// this package, fixed at the declaration). The values are those of in.
func CacheModified[T any](in *SliceLeaf[T], mode CacheMode) *In[T] {
	var c *iter.Node
	if in != nil {
		c = in.node()
	}
	n := node(iter.CacheModified, reflect.TypeFor[T](), c)
	n.Mode = mode
	if n.Err == nil && (mode < Streaming || mode > Volatile) {
		n.Err = fmt.Errorf("iterator.CacheModified: unknown cache mode %d", mode)
	}
	read := reader[T](orEmpty(c))
	return &In[T]{withReader(n, read)}
}

// Discard accepts values and drops them; its length is the algorithm's.
func Discard[T any]() *Out[T] {
	n := &iter.Node{Kind: iter.Discard, Type: reflect.TypeFor[T]()}
	return &Out[T]{withWriter(n, iter.Writer[T](func(*iter.Env) (func(int64, T), error) {
		return func(int64, T) {}, nil
	}))}
}

// TransformOutput writes op(v) to out for every value v stored into it; op
// is a //gocccl:op function.
func TransformOutput[A, B any](out runtime.OutputIterator[B], op func(A) B) *Out[A] {
	c := outNode(out)
	n := node(iter.TransformOutput, reflect.TypeFor[A](), c)
	n.Op = op
	if op == nil {
		n.Err = fmt.Errorf("iterator.TransformOutput: nil operator")
	}
	write := writer[B](orEmpty(c))
	return &Out[A]{withWriter(n, iter.Writer[A](func(env *iter.Env) (func(int64, A), error) {
		f, err := write(env)
		if err != nil {
			return nil, err
		}
		return func(i int64, v A) { f(i, op(v)) }, nil
	}))}
}

// ReverseOutput writes element i to out[len-1-i]; out must have a length.
func ReverseOutput[T any](out runtime.OutputIterator[T]) *Out[T] {
	c := outNode(out)
	n := node(iter.ReverseOutput, reflect.TypeFor[T](), c)
	if n.Err == nil && !c.Bounded() {
		n.Err = fmt.Errorf("iterator.ReverseOutput of %s: its output has no length to reverse", c.Sig())
	}
	write := writer[T](orEmpty(c))
	return &Out[T]{withWriter(n, iter.Writer[T](func(env *iter.Env) (func(int64, T), error) {
		f, err := write(env)
		if err != nil {
			return nil, err
		}
		l, err := c.Len(env)
		if err != nil {
			return nil, err
		}
		return func(i int64, v T) { f(l-1-i, v) }, nil
	}))}
}

// PermutationOutput writes element i to out[indices[i]]; its length is
// that of indices, and every index must be within out. The CPU backend
// returns an error for one that is not (after writing the elements before
// it); a GPU does not check them and writes where it is told, as CUB's
// iterators do, so an index outside out corrupts device memory. Where
// indices repeat, one of the elements written there remains: on a GPU
// which one is unspecified, the CPU backend keeps the last in index order.
func PermutationOutput[T any](out runtime.OutputIterator[T], indices runtime.Iterator[int64]) *Out[T] {
	o, x := outNode(out), inNode(indices)
	n := node(iter.PermutationOutput, reflect.TypeFor[T](), o, x)
	wo, rx := writer[T](orEmpty(o)), reader[int64](orEmpty(x))
	return &Out[T]{withWriter(n, iter.Writer[T](func(env *iter.Env) (func(int64, T), error) {
		fo, err := wo(env)
		if err != nil {
			return nil, err
		}
		fx, err := rx(env)
		if err != nil {
			return nil, err
		}
		lo, err := o.Len(env)
		if err != nil {
			return nil, err
		}
		return func(i int64, v T) {
			j := fx(i)
			if lo >= 0 && (j < 0 || j >= lo) {
				panic(indexError{"PermutationOutput", "elements of its output", i, j, lo})
			}
			fo(j, v)
		}, nil
	}))}
}

// ZipOutput writes field k of every Z stored into it to outs[k]: Z is a
// struct with one field per output, of the type the output accepts.
func ZipOutput[Z any](outs ...AnyOut) *Out[Z] {
	cs := make([]*iter.Node, len(outs))
	for i, x := range outs {
		if x != nil {
			cs[i] = x.GoccclOutputNode()
		}
	}
	z := reflect.TypeFor[Z]()
	n := node(iter.ZipOutput, z, cs...)
	if n.Err == nil {
		n.Err = zipFits("ZipOutput", z, cs)
	}
	offs := zipOffsets(z, len(cs))
	return &Out[Z]{withWriter(n, iter.Writer[Z](func(env *iter.Env) (func(int64, Z), error) {
		fs := make([]func(int64, unsafe.Pointer), len(cs))
		for k, c := range cs {
			if c.WriteRaw == nil {
				return nil, fmt.Errorf("iterator.ZipOutput: operand %d cannot be written", k+1)
			}
			f, err := c.WriteRaw(env)
			if err != nil {
				return nil, err
			}
			fs[k] = f
		}
		return func(i int64, v Z) {
			for k, f := range fs {
				f(i, unsafe.Add(unsafe.Pointer(&v), offs[k]))
			}
		}, nil
	}))}
}

// orEmpty keeps constructors from dereferencing a nil operand, whose error
// the node already holds.
func orEmpty(n *iter.Node) *iter.Node {
	if n == nil {
		return &iter.Node{}
	}
	return n
}
