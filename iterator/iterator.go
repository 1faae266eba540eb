// Package iterator declares iterator compositions that gocccl algorithms
// read their inputs through and write their outputs through, compiled
// ahead of time like operators.
//
// A composition's shape is fixed where it is declared: its kinds, value
// types, operators and cache modes. Declare it with the constructors of
// this package, at package level, and declare the instances that use it
// with their Over (inputs) and Into (outputs) methods, so that gocccl-gen
// sees both and compiles the kernels:
//
//	var (
//		Start   = iterator.Counting[int32]()           // a leaf bound per call
//		Squares = iterator.Transform(Start, Square)    // reads Square(start + i)
//		SumSq   = runtime.Reduce(Add).Over(Squares)
//	)
//
// Its values are bound per call: every leaf (Slice, Counting, Constant,
// Shuffle) takes its value in Bind, by the leaf's own typed With:
//
//	err := SumSq.Run(s, Squares.Bind(Start.With(5)).Take(n), out, 0)
//
// Nothing of a call is kept after it returns: a Bound holds the values of
// one call and the runtime reads them once.
//
// A Run with a composition no instance declared returns an error wrapping
// runtime.ErrNotGenerated that names the Over or Into to declare; there is
// no fallback. The CPU backend evaluates the same compositions with the Go
// operators.
//
// Inputs: Slice, Counting, Constant, Shuffle (leaves), Transform (nested to
// any depth), Permutation, Reverse, Zip, CacheModified. Outputs: Slice,
// Discard, TransformOutput, ReverseOutput, PermutationOutput, ZipOutput.
package iterator

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/internal/iter"
	"github.com/gocccl/gocccl/runtime"
)

// In is a declared input composition that reads values of T.
type In[T any] struct{ n *iter.Node }

// GoccclIterator is for gocccl's own use.
func (c *In[T]) GoccclIterator() iter.Decl[T] { return iter.Decl[T]{N: c.node()} }

// GoccclInputNode is for gocccl's own use.
func (c *In[T]) GoccclInputNode() *iter.Node { return c.node() }

func (c *In[T]) node() *iter.Node {
	if c == nil {
		return nil
	}
	return c.n
}

// Bind binds the composition's leaves for one call, one Value per leaf
// (each leaf's With makes it), and returns the input to pass to Run. Its
// length is that of the buffers and Shuffles it reads (the shortest, under
// Zip; the index input's, under Permutation); Take sets or shortens it.
func (c *In[T]) Bind(vals ...Value) *Bound[T] {
	return &Bound[T]{b: bind(c.node(), vals)}
}

// Out is a declared output composition that accepts values of T.
type Out[T any] struct{ n *iter.Node }

// GoccclOutputIterator is for gocccl's own use.
func (c *Out[T]) GoccclOutputIterator() iter.OutDecl[T] { return iter.OutDecl[T]{N: c.node()} }

// GoccclOutputNode is for gocccl's own use.
func (c *Out[T]) GoccclOutputNode() *iter.Node { return c.node() }

func (c *Out[T]) node() *iter.Node {
	if c == nil {
		return nil
	}
	return c.n
}

// Bind binds the output composition's leaves for one call and returns the
// output to pass to Run. Its length is that of the buffers it writes;
// Discard has none of its own, and takes the algorithm's.
func (c *Out[T]) Bind(vals ...Value) *BoundOut[T] {
	return &BoundOut[T]{b: bind(c.node(), vals)}
}

func bind(n *iter.Node, vals []Value) iter.Binding {
	b := iter.Binding{Root: n, Take: -1, Vals: make([]iter.Value, len(vals))}
	for i, v := range vals {
		b.Vals[i] = v.v
	}
	return b
}

// Value is one leaf's value for a call; a leaf's With makes it.
type Value struct{ v iter.Value }

// Bound is an input composition bound for one call.
type Bound[T any] struct{ b iter.Binding }

// GoccclInput is for gocccl's own use.
func (b *Bound[T]) GoccclInput() iter.Input[T] {
	if b == nil {
		return iter.Input[T]{}
	}
	return iter.Input[T]{B: &b.b}
}

// Take sets the length of the input to n: required when it reads no buffer
// (a Counting, a Constant, a Transform of them), and it may shorten one
// that does. A negative n is an error when the input is used.
func (b *Bound[T]) Take(n int) *Bound[T] {
	b.b.Take = int64(n)
	if n < 0 {
		b.b.Take = -2
	}
	return b
}

// BoundOut is an output composition bound for one call.
type BoundOut[T any] struct{ b iter.Binding }

// GoccclOutput is for gocccl's own use.
func (b *BoundOut[T]) GoccclOutput() iter.Output[T] {
	if b == nil {
		return iter.Output[T]{}
	}
	return iter.Output[T]{B: &b.b}
}

// AnyIn is any declared input composition, whatever its value type: the
// operands of Zip.
type AnyIn interface {
	// GoccclInputNode is for gocccl's own use.
	GoccclInputNode() *iter.Node
}

// AnyOut is any declared output composition: the operands of ZipOutput.
type AnyOut interface {
	// GoccclOutputNode is for gocccl's own use.
	GoccclOutputNode() *iter.Node
}

func nodeOf(x any) *iter.Node {
	switch x := x.(type) {
	case interface{ GoccclInputNode() *iter.Node }:
		return x.GoccclInputNode()
	case interface{ GoccclOutputNode() *iter.Node }:
		return x.GoccclOutputNode()
	}
	return nil
}

func inNode[T any](x runtime.Iterator[T]) *iter.Node {
	if x == nil {
		return nil
	}
	return x.GoccclIterator().N
}

func outNode[T any](x runtime.OutputIterator[T]) *iter.Node {
	if x == nil {
		return nil
	}
	return x.GoccclOutputIterator().N
}

// node makes an inner node, recording the first problem with its operands.
func node(kind iter.Kind, t reflect.Type, ins ...*iter.Node) *iter.Node {
	n := &iter.Node{Kind: kind, Type: t, In: ins}
	for i, c := range ins {
		if c == nil {
			n.Err = fmt.Errorf("iterator.%s: operand %d is nil", kind, i+1)
			return n
		}
	}
	return n
}

// raw makes the ReadRaw of a node from its typed reader.
func raw[T any](read iter.Reader[T]) func(env *iter.Env) (func(int64, unsafe.Pointer), error) {
	return func(env *iter.Env) (func(int64, unsafe.Pointer), error) {
		f, err := read(env)
		if err != nil {
			return nil, err
		}
		return func(i int64, dst unsafe.Pointer) { *(*T)(dst) = f(i) }, nil
	}
}

// rawOut makes the WriteRaw of a node from its typed writer.
func rawOut[T any](write iter.Writer[T]) func(env *iter.Env) (func(int64, unsafe.Pointer), error) {
	return func(env *iter.Env) (func(int64, unsafe.Pointer), error) {
		f, err := write(env)
		if err != nil {
			return nil, err
		}
		return func(i int64, src unsafe.Pointer) { f(i, *(*T)(src)) }, nil
	}
}

func withReader[T any](n *iter.Node, read iter.Reader[T]) *iter.Node {
	n.Read, n.ReadRaw = read, raw(read)
	return n
}

func withWriter[T any](n *iter.Node, write iter.Writer[T]) *iter.Node {
	n.Write, n.WriteRaw = write, rawOut(write)
	return n
}

// reader returns the typed reader of n (an operand of value type T).
func reader[T any](n *iter.Node) iter.Reader[T] {
	if r, ok := n.Read.(iter.Reader[T]); ok {
		return r
	}
	return func(*iter.Env) (func(int64) T, error) {
		return nil, fmt.Errorf("iterator.%s[%v] cannot be read as %v", n.Kind, n.Type, reflect.TypeFor[T]())
	}
}

func writer[T any](n *iter.Node) iter.Writer[T] {
	if w, ok := n.Write.(iter.Writer[T]); ok {
		return w
	}
	return func(*iter.Env) (func(int64, T), error) {
		return nil, fmt.Errorf("iterator.%s[%v] cannot be written as %v", n.Kind, n.Type, reflect.TypeFor[T]())
	}
}
