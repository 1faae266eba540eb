// Package model is the typed description of one Go package that gocccl-gen
// generates for: its operators, translated into a small tree of statements and
// expressions, and the algorithm instances that use them.
//
// The analyzer builds a model; the emitters read it and never look at Go syntax
// or go/types again. Everything in a model is deterministic: slices are sorted
// by source position or by key, never by map order.
package model

import (
	"go/token"
	"slices"

	"github.com/gocccl/gocccl/internal/algo"
	"github.com/gocccl/gocccl/internal/iter"
)

// AnalyzeTag is the build tag the analyzer loads packages with. Generated Go
// glue is built only without it, so a package whose glue no longer compiles
// (an operator was renamed or removed since the last generation) can still be
// analyzed and regenerated.
const AnalyzeTag = "gocccl_analyze"

// Package is everything gocccl-gen knows about one Go package.
type Package struct {
	Path string // import path, e.g. "github.com/gocccl/gocccl/examples/sum"
	Name string // package name, e.g. "sum"
	Dir  string // directory holding the package's files

	// Fset resolves every token.Pos in the model.
	Fset *token.FileSet

	// Ops are the //gocccl:op functions of the package, in source order.
	Ops []*Op

	// Imported are the operators of other packages that Ops call, directly
	// or through each other, sorted by package path and source order.
	Imported []*Op

	// Instances are the distinct algorithm instances the package declares,
	// sorted by Key.
	Instances []*Instance

	// Targets are the compile targets named by the package's
	// "//gocccl:arch sm_80,sm_90,compute_90" directive, as nvcc spells them,
	// sorted by compute capability (SASS before PTX) and free of duplicates;
	// nil when the package has no such directive. The generator's -arch flag
	// overrides them, and they override the targets of an existing manifest
	// and the toolchain's defaults.
	Targets []string
	// TargetsPos is the position of the //gocccl:arch directive that named
	// Targets; token.NoPos without one.
	TargetsPos token.Pos
}

// Op is one //gocccl:op function, or method: an operator with per-call
// state is a method whose value receiver is the state,
// "func (p Axpy) Apply(x, y float32) float32", and its receiver is Params[0].
type Op struct {
	Name    string // Go name, e.g. "Add"; "Axpy.Apply" for a method
	Pkg     string // import path of the package that declares it
	PkgName string // name of that package, e.g. "ops"
	Pos     token.Pos
	Params  []*Var
	Results []*Type
	Body    *Block

	// State is the receiver's type (a named struct) of a method operator,
	// whose receiver is then Params[0]; nil for a function. Instances pass
	// the state per call, as the last argument of every kernel.
	State *Type

	// FastMath is set by "//gocccl:op fastmath": the emitter contracts
	// x*y + z in float arithmetic into one fused multiply-add, as Go may on
	// some platforms. Without it nothing is fused and float results equal
	// the CPU backend's on amd64 bit for bit.
	FastMath bool
}

// Signature returns the operator's parameter types followed by its result
// types, as an algorithm sees them: without a method's receiver.
func (o *Op) Signature() (params, results []*Type) {
	for _, p := range o.Params[o.StateParams():] {
		params = append(params, p.Type)
	}
	return params, o.Results
}

// StateParams is the number of leading Params that are the receiver: 1 for
// a method operator, 0 for a function.
func (o *Op) StateParams() int {
	if o.State != nil {
		return 1
	}
	return 0
}

// Var is a parameter or local variable of an operator. Each Var is declared
// once; references point to the same *Var. Names are Go identifiers unique
// within an Op: the analyzer renames shadowed variables (x, x_1, x_2, …) and
// names the variables its translation introduces (range_i) apart from them.
// What a name becomes in another language is the emitter's business.
type Var struct {
	Name string
	Type *Type
	Pos  token.Pos
}

// Instance is one algorithm applied to one or more operators. Two declarations
// of the same algorithm over the same operators are one Instance.
type Instance struct {
	// Algorithm is the description of the algorithm the instance runs.
	Algorithm *algo.Algorithm
	// Ops are its operators, in the order of Algorithm.Ops.
	Ops []*Op
	// Types are its element types, in the order of Algorithm.TypeParams:
	// Reduce [T]; UnaryTransform [In, Out]; BinaryTransform [A, B, Out].
	Types []*Type
	// Pos is the first call of the runtime constructor that declares it.
	Pos token.Pos
	// Pkg is the import path of the package that declares the instance;
	// its operators may be of other packages.
	Pkg string
	// Inputs are the compositions the instance reads its inputs through
	// (runtime's Over), one per name of Algorithm.Inputs(), nil for a plain
	// buffer; Outputs those it writes through (Into). Both are empty for an
	// instance over plain buffers.
	Inputs, Outputs []*Iter
	// State is the type of the per-call state of an instance declared with
	// a stateful constructor (runtime.ReduceWith(S.Op)): the receiver type
	// of its method operators, passed by value as the last parameter of
	// every kernel. Nil for an instance without state.
	State *Type
}

// Key identifies the instance within its package, e.g.
// "BinaryTransform(Mul)", "Reduce(ops.Add)" for an operator of package ops,
// or "RadixSortPairs[uint32,float32]" for an algorithm whose operators do
// not determine its element types.
func (in *Instance) Key() string {
	s := in.Algorithm.Name
	if in.Algorithm.Typed() {
		s += "["
		for i, t := range in.Types {
			if i > 0 {
				s += ","
			}
			s += t.GoName()
		}
		s += "]"
	}
	if len(in.Ops) == 0 && in.Algorithm.Typed() {
		if in.HasIters() {
			s += "{" + in.IterKey() + "}"
		}
		return s
	}
	s += "("
	for i, op := range in.Ops {
		if i > 0 {
			s += ","
		}
		s += in.OpRef(op, ".")
	}
	s += ")"
	if in.HasIters() {
		s += "{" + in.IterKey() + "}"
	}
	return s
}

// OpRef names op in the instance's key: its name, joined with sep to its
// package's name when another package declares it.
func (in *Instance) OpRef(op *Op, sep string) string {
	if op.Pkg != "" && in.Pkg != "" && op.Pkg != in.Pkg && op.PkgName != "" {
		return op.PkgName + sep + op.Name
	}
	return op.Name
}

// Iter is an iterator composition an instance reads an input or writes an
// output through (package iterator), as its declaration fixes it: the kinds,
// value types, operators and cache modes; its values are bound per call.
type Iter struct {
	Kind iter.Kind
	// Type is the value type the node reads (an input) or accepts (an
	// output).
	Type *Type
	// Op is the operator of Transform and TransformOutput.
	Op *Op
	// Mode is CacheModified's loads.
	Mode iter.CacheMode
	// In are the operands, as iter.Kind documents them.
	In []*Iter
	// Pos is the constructor call that declares the node.
	Pos token.Pos
}

// Sig prints the composition for keys and messages, with operators as the
// instance names them: "Transform[int32](Counting[int32],Square)".
func (it *Iter) Sig(in *Instance) string {
	if it == nil {
		return "-"
	}
	s := it.Kind.String() + "[" + it.Type.GoName() + "]"
	if it.Kind.Leaf() || it.Kind == iter.Discard {
		return s
	}
	s += "("
	for i, c := range it.In {
		if i > 0 {
			s += ","
		}
		s += c.Sig(in)
	}
	if it.Op != nil {
		s += "," + in.OpRef(it.Op, ".")
	}
	if it.Kind == iter.CacheModified {
		s += "," + it.Mode.String()
	}
	return s + ")"
}

// Walk calls f for every node of the composition, parents first.
func (it *Iter) Walk(f func(*Iter)) {
	if it == nil {
		return
	}
	f(it)
	for _, c := range it.In {
		c.Walk(f)
	}
}

// HasIters reports whether the instance reads or writes through an
// iterator composition.
func (in *Instance) HasIters() bool {
	for _, it := range append(append([]*Iter(nil), in.Inputs...), in.Outputs...) {
		if it != nil {
			return true
		}
	}
	return false
}

// IterKey prints the instance's compositions: its inputs' and outputs'
// signatures ("-" for a plain buffer), "" without any.
func (in *Instance) IterKey() string {
	if !in.HasIters() {
		return ""
	}
	s := ""
	for i, it := range in.Inputs {
		if i > 0 {
			s += ","
		}
		s += it.Sig(in)
	}
	s += ">"
	for i, it := range in.Outputs {
		if i > 0 {
			s += ","
		}
		s += it.Sig(in)
	}
	return s
}

// AllOps returns the instance's operators followed by those of its
// iterator compositions, each once.
func (in *Instance) AllOps() []*Op {
	ops := append([]*Op(nil), in.Ops...)
	for _, it := range append(append([]*Iter(nil), in.Inputs...), in.Outputs...) {
		it.Walk(func(n *Iter) {
			if n.Op != nil && !slices.Contains(ops, n.Op) {
				ops = append(ops, n.Op)
			}
		})
	}
	return ops
}
