// Package iter is the representation of iterator compositions shared by
// package iterator (which users call to declare and bind them), the
// generated glue (which registers the compositions gocccl-gen compiled), the
// registry (which keys kernels by a composition's signature) and the runtime
// (which evaluates a bound composition on the CPU backend and packs it into
// a kernel argument on a GPU).
//
// A composition is a tree of Nodes. Its shape (kinds, value types,
// operators, cache modes) is fixed where it is declared, so gocccl-gen sees
// it; its values (device buffers, start values, constants, seeds) are bound
// per call, one Value per leaf. The kernel argument of a bound composition
// is the C struct of kernels/include/gocccl/iterator.cuh for its shape,
// which Pack lays out byte for byte.
package iter

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unsafe"
)

// Kind is the kind of a node.
type Kind uint8

// The kinds of nodes. Inputs read values; outputs accept them.
const (
	// Slice is a device buffer: a leaf bound to a *runtime.Slice, read as an
	// input or written as an output.
	Slice Kind = iota + 1
	// Counting reads start + i: a leaf bound to its start.
	Counting
	// Constant reads the same value everywhere: a leaf bound to it.
	Constant
	// Shuffle reads a deterministic random permutation of [0, n) (int64): a
	// leaf bound to n and a seed.
	Shuffle
	// Transform reads op(in[i]).
	Transform
	// Permutation reads values[indices[i]]: In is [values, indices]. Its
	// packed argument ends with the number of values (-1 when they have no
	// length of their own), against which the kernels check every index.
	Permutation
	// Reverse reads in[len-1-i].
	Reverse
	// Zip reads a struct whose field k is In[k][i].
	Zip
	// CacheModified reads a device buffer (its only operand, a Slice leaf)
	// with the loads of its Mode.
	CacheModified

	// Discard accepts values and drops them.
	Discard
	// TransformOutput writes op(v) to its operand.
	TransformOutput
	// ReverseOutput writes element i to out[len-1-i].
	ReverseOutput
	// PermutationOutput writes element i to out[indices[i]]: In is [out,
	// indices].
	PermutationOutput
	// ZipOutput writes field k of a struct to In[k][i].
	ZipOutput
)

var kindNames = [...]string{
	Slice: "Slice", Counting: "Counting", Constant: "Constant", Shuffle: "Shuffle",
	Transform: "Transform", Permutation: "Permutation", Reverse: "Reverse", Zip: "Zip",
	CacheModified: "CacheModified", Discard: "Discard", TransformOutput: "TransformOutput",
	ReverseOutput: "ReverseOutput", PermutationOutput: "PermutationOutput", ZipOutput: "ZipOutput",
}

// String returns the name of the iterator constructor of package iterator.
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// KindNamed returns the kind whose constructor is named name, or 0.
func KindNamed(name string) Kind {
	for k, n := range kindNames {
		if n == name && n != "" {
			return Kind(k)
		}
	}
	return 0
}

// Output reports whether k accepts values rather than reading them.
func (k Kind) Output() bool { return k >= Discard }

// Leaf reports whether k is bound to a value per call.
func (k Kind) Leaf() bool { return k == Slice || k == Counting || k == Constant || k == Shuffle }

// CacheMode is the load of a CacheModified input.
type CacheMode uint8

// The cache modes, as CUB's CacheLoadModifier names them.
const (
	// Streaming loads (ld.global.cs): data read once, evicted first.
	Streaming CacheMode = iota + 1
	// L2Only loads (ld.global.cg): cached in L2, not in L1.
	L2Only
	// Volatile loads (ld.volatile.global): read from memory every time.
	Volatile
)

var modeNames = [...]string{Streaming: "Streaming", L2Only: "L2Only", Volatile: "Volatile"}

// String returns the mode's constant name in package iterator.
func (m CacheMode) String() string {
	if int(m) < len(modeNames) && modeNames[m] != "" {
		return modeNames[m]
	}
	return fmt.Sprintf("CacheMode(%d)", m)
}

// ModeNamed returns the mode whose constant is named name, or 0.
func ModeNamed(name string) CacheMode {
	for m, n := range modeNames {
		if n == name && n != "" {
			return CacheMode(m)
		}
	}
	return 0
}

// Node is one node of a composition.
type Node struct {
	Kind Kind
	// Type is the value type the node reads (an input) or accepts (an
	// output): Transform's is its operator's result, TransformOutput's its
	// operator's parameter, Zip's the struct.
	Type reflect.Type
	// Op is the //gocccl:op function of Transform and TransformOutput.
	Op any
	// Mode is the loads of CacheModified.
	Mode CacheMode
	// In are the operands, as the Kind says.
	In []*Node

	// Err is set by a constructor that was given a composition that makes
	// no sense (gocccl-gen reports it at the declaration too); binding or
	// running the composition returns it.
	Err error

	// Read is set by the typed constructors of package iterator: a
	// Reader[Type] that evaluates the node on the CPU backend.
	Read any
	// ReadRaw evaluates the node into memory of Type (Zip's fields).
	ReadRaw func(env *Env) (func(i int64, dst unsafe.Pointer), error)
	// Write is a Writer[Type] for outputs.
	Write any
	// WriteRaw writes a value of Type from memory (ZipOutput's fields).
	WriteRaw func(env *Env) (func(i int64, src unsafe.Pointer), error)

	sigOnce sync.Once
	sig     string
}

// Reader makes a function that returns element i of an input.
type Reader[T any] func(env *Env) (func(i int64) T, error)

// Writer makes a function that stores element i of an output.
type Writer[T any] func(env *Env) (func(i int64, v T), error)

// Sig is the node's signature: its shape, as the registry keys kernels by
// it, e.g. "Transform[int32](Counting[int32],main.Square)". Operators are
// named by their Go function names, types as reflect prints them.
func (n *Node) Sig() string {
	if n == nil {
		return ""
	}
	n.sigOnce.Do(func() {
		var b strings.Builder
		n.writeSig(&b)
		n.sig = b.String()
	})
	return n.sig
}

func (n *Node) writeSig(b *strings.Builder) {
	b.WriteString(n.Kind.String())
	b.WriteString("[")
	if n.Type != nil {
		b.WriteString(n.Type.String())
	}
	b.WriteString("]")
	if n.Kind.Leaf() || n.Kind == Discard {
		return
	}
	b.WriteString("(")
	for i, c := range n.In {
		if i > 0 {
			b.WriteString(",")
		}
		c.writeSig(b)
	}
	if n.Op != nil {
		b.WriteString(",")
		b.WriteString(FuncName(n.Op))
	}
	if n.Kind == CacheModified {
		b.WriteString(",")
		b.WriteString(n.Mode.String())
	}
	b.WriteString(")")
}

// FuncName returns the qualified name of a function value.
func FuncName(f any) string {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Func || v.IsNil() {
		return "<nil>"
	}
	if fn := runtimeFuncForPC(v.Pointer()); fn != "" {
		return fn
	}
	return fmt.Sprintf("func@%#x", v.Pointer())
}

// Plain reports whether an input or output bound to n is a plain device
// buffer: a Slice leaf at the top, which kernels take as a pointer.
func (n *Node) Plain() bool { return n == nil || n.Kind == Slice }

// Check returns the first construction error in the tree.
func (n *Node) Check() error {
	if n == nil {
		return fmt.Errorf("nil iterator")
	}
	if n.Err != nil {
		return n.Err
	}
	for _, c := range n.In {
		if err := c.Check(); err != nil {
			return err
		}
	}
	return nil
}

// Leaves appends the leaves of the tree, depth first, left to right.
func (n *Node) Leaves(dst []*Node) []*Node {
	if n.Kind.Leaf() {
		return append(dst, n)
	}
	for _, c := range n.In {
		dst = c.Leaves(dst)
	}
	return dst
}

// Bounded reports whether the node has a length of its own: it reads a
// device buffer or a Shuffle through every operand that determines its
// length.
func (n *Node) Bounded() bool {
	switch n.Kind {
	case Slice, Shuffle:
		return true
	case Counting, Constant, Discard:
		return false
	case Permutation, PermutationOutput:
		return n.In[1].Bounded()
	case Zip, ZipOutput:
		for _, c := range n.In {
			if c.Bounded() {
				return true
			}
		}
		return false
	}
	return len(n.In) > 0 && n.In[0].Bounded()
}

// Value is one leaf's value for a call.
type Value struct {
	Leaf *Node
	// V is the value: a *runtime.Slice of the leaf's type for a Slice leaf
	// (the runtime replaces it with a Buf), the start of Counting, the value
	// of Constant (of the leaf's type), a ShuffleValue.
	V any
}

// ShuffleValue is a Shuffle leaf's value: a permutation of [0, N) drawn
// from Seed.
type ShuffleValue struct {
	N    int64
	Seed uint64
}

// Buf is a device buffer as the runtime resolves a Slice leaf's value.
type Buf struct {
	Host any     // []T on the CPU backend
	Ptr  uintptr // device pointer on a GPU
	N    int64
}

// Binding is a composition with a value for every leaf, as package
// iterator's Bind returns it.
type Binding struct {
	Root *Node
	Vals []Value
	// Take limits the length (-1: the composition's own).
	Take int64
}

// Env is a binding the runtime resolved: Slice leaves' values are Bufs.
type Env struct {
	Vals []Value
}

// Value returns the value bound to leaf.
func (e *Env) Value(leaf *Node) (any, error) {
	for _, v := range e.Vals {
		if v.Leaf == leaf {
			return v.V, nil
		}
	}
	return nil, fmt.Errorf("no value bound to its %s[%s] leaf: pass one to Bind", leaf.Kind, typeName(leaf.Type))
}

// Buf returns the buffer bound to a Slice leaf.
func (e *Env) Buf(leaf *Node) (Buf, error) {
	v, err := e.Value(leaf)
	if err != nil {
		return Buf{}, err
	}
	b, ok := v.(Buf)
	if !ok {
		return Buf{}, fmt.Errorf("the value bound to a Slice[%s] leaf is %T, not a Slice", typeName(leaf.Type), v)
	}
	return b, nil
}

func typeName(t reflect.Type) string {
	if t == nil {
		return "?"
	}
	return t.String()
}

// Len returns the number of elements n reads or accepts under env, or -1
// when it has no length of its own (Counting, Constant, Discard).
func (n *Node) Len(env *Env) (int64, error) {
	switch n.Kind {
	case Slice:
		b, err := env.Buf(n)
		return b.N, err
	case Shuffle:
		v, err := env.Value(n)
		if err != nil {
			return 0, err
		}
		s, ok := v.(ShuffleValue)
		if !ok || s.N < 0 {
			return 0, fmt.Errorf("bad Shuffle value %v", v)
		}
		return s.N, nil
	case Counting, Constant, Discard:
		return -1, nil
	case Permutation, PermutationOutput:
		return n.In[1].Len(env)
	case Zip, ZipOutput:
		l := int64(-1)
		for _, c := range n.In {
			cl, err := c.Len(env)
			if err != nil {
				return 0, err
			}
			if cl >= 0 && (l < 0 || cl < l) {
				l = cl
			}
		}
		return l, nil
	}
	return n.In[0].Len(env)
}

// Blob is a C struct being laid out: bytes and alignment.
type Blob struct {
	B     []byte
	Align int
}

// field appends f at its alignment.
func (s *Blob) field(f Blob) {
	s.pad(f.Align)
	s.B = append(s.B, f.B...)
	s.Align = max(s.Align, f.Align, 1)
}

func (s *Blob) pad(align int) {
	for len(s.B)%max(align, 1) != 0 {
		s.B = append(s.B, 0)
	}
}

// end pads the struct to its alignment, as C does.
func (s *Blob) end() Blob {
	s.Align = max(s.Align, 1)
	s.pad(s.Align)
	return *s
}

func scalar(p unsafe.Pointer, size, align uintptr) Blob {
	return Blob{B: append([]byte(nil), unsafe.Slice((*byte)(p), size)...), Align: int(align)}
}

func int64Blob(v int64) Blob   { return scalar(unsafe.Pointer(&v), 8, 8) }
func uint64Blob(v uint64) Blob { return scalar(unsafe.Pointer(&v), 8, 8) }

// valueBlob lays out v, of type t, as the kernels see a value of t (Go's
// layout; the generated code pins the C layout to it).
func valueBlob(t reflect.Type, v any) (Blob, error) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Type() != t {
		return Blob{}, fmt.Errorf("value %v (%T) is not a %s", v, v, typeName(t))
	}
	p := reflect.New(t)
	p.Elem().Set(rv)
	return scalar(p.UnsafePointer(), t.Size(), uintptr(t.Align())), nil
}

// Pack lays out the kernel argument of the composition n bound by env: the
// C struct iterator.cuh defines for its shape. A Slice at the top is the
// plain pointer.
func Pack(n *Node, env *Env) (Blob, error) {
	var s Blob
	switch n.Kind {
	case Slice, CacheModified:
		leaf := n
		if n.Kind == CacheModified {
			leaf = n.In[0]
		}
		b, err := env.Buf(leaf)
		if err != nil {
			return Blob{}, err
		}
		return uint64Blob(uint64(b.Ptr)), nil
	case Counting, Constant:
		v, err := env.Value(n)
		if err != nil {
			return Blob{}, err
		}
		f, err := valueBlob(n.Type, v)
		if err != nil {
			return Blob{}, fmt.Errorf("%s[%s]: %w", n.Kind, typeName(n.Type), err)
		}
		s.field(f)
	case Shuffle:
		v, err := env.Value(n)
		if err != nil {
			return Blob{}, err
		}
		sv, ok := v.(ShuffleValue)
		if !ok {
			return Blob{}, fmt.Errorf("bad Shuffle value %v", v)
		}
		s.field(int64Blob(sv.N))
		s.field(uint64Blob(sv.Seed))
	case Discard:
		s.field(Blob{B: []byte{0}, Align: 1})
	case Transform, TransformOutput:
		f, err := Pack(n.In[0], env)
		if err != nil {
			return Blob{}, err
		}
		s.field(f)
	case Reverse, ReverseOutput:
		f, err := Pack(n.In[0], env)
		if err != nil {
			return Blob{}, err
		}
		l, err := n.In[0].Len(env)
		if err != nil {
			return Blob{}, err
		}
		s.field(f)
		s.field(int64Blob(l - 1))
	case Permutation, PermutationOutput:
		for _, c := range n.In {
			f, err := Pack(c, env)
			if err != nil {
				return Blob{}, err
			}
			s.field(f)
		}
		// The kernels trap on an index outside [0, bound); -1: no bound.
		bound, err := n.In[0].Len(env)
		if err != nil {
			return Blob{}, err
		}
		s.field(int64Blob(bound))
	case Zip, ZipOutput:
		return packStore(n.In, env)
	default:
		return Blob{}, fmt.Errorf("cannot pack a %s", n.Kind)
	}
	return s.end(), nil
}

// packStore lays out gocccl::it::Store<Its...>: { head; Store<rest...> tail; }.
func packStore(ns []*Node, env *Env) (Blob, error) {
	var s Blob
	head, err := Pack(ns[0], env)
	if err != nil {
		return Blob{}, err
	}
	s.field(head)
	if len(ns) > 1 {
		tail, err := packStore(ns[1:], env)
		if err != nil {
			return Blob{}, err
		}
		s.field(tail)
	}
	return s.end(), nil
}

// Input is how an algorithm's input reaches the runtime: a *runtime.Slice
// (Slice) or a bound composition (B). runtime.Input's method returns it, so
// that only gocccl's own types implement that interface.
type Input[T any] struct {
	Slice any
	B     *Binding
}

// Output is Input's counterpart for outputs.
type Output[T any] struct {
	Slice any
	B     *Binding
}

// Decl is a declared input composition of value type T.
type Decl[T any] struct{ N *Node }

// OutDecl is a declared output composition accepting T.
type OutDecl[T any] struct{ N *Node }

// Key joins the signatures of an instance's inputs and outputs, in order
// ("-" for a plain buffer): the registry keys kernels by it, e.g.
// "Transform[int32](Counting[int32],main.Square)>-".
func Key(ins, outs []*Node) string {
	var b strings.Builder
	for i, n := range ins {
		if i > 0 {
			b.WriteString(",")
		}
		if n.Plain() {
			b.WriteString("-")
		} else {
			b.WriteString(n.Sig())
		}
	}
	b.WriteString(">")
	for i, n := range outs {
		if i > 0 {
			b.WriteString(",")
		}
		if n.Plain() {
			b.WriteString("-")
		} else {
			b.WriteString(n.Sig())
		}
	}
	return b.String()
}

// GoExpr spells the composition as its declaration with package iterator
// does, for messages: "iterator.Transform(iterator.Counting[int32](), main.Square)".
func GoExpr(n *Node) string {
	if n == nil {
		return "<nil>"
	}
	t := typeName(n.Type)
	var args []string
	for _, c := range n.In {
		args = append(args, GoExpr(c))
	}
	switch n.Kind {
	case Slice, Counting, Constant, Discard:
		return "iterator." + n.Kind.String() + "[" + t + "]()"
	case Shuffle:
		return "iterator.Shuffle()"
	case Transform, TransformOutput:
		args = append(args, FuncName(n.Op))
	case CacheModified:
		args = append(args, "iterator."+n.Mode.String())
	case Zip, ZipOutput:
		return "iterator." + n.Kind.String() + "[" + t + "](" + strings.Join(args, ", ") + ")"
	}
	return "iterator." + n.Kind.String() + "(" + strings.Join(args, ", ") + ")"
}
