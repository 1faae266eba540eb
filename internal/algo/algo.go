// Package algo describes every device-wide algorithm once, for every layer
// that needs to know it: the analyzer finds an instance by its constructor's
// name and checks its operators against Ops; the emitter includes Header,
// writes one extern "C" entry point per Kernel and compiles the Policy into
// it; the generated glue registers the kernels under the algorithm's Name;
// the runtime looks them up by the same description and launches each by
// its index in Kernels, which it takes by the kernel's Suffix (KernelIndex).
//
// Adding an algorithm is one file here (its description, registered in
// init), its kernel header under kernels/include/gocccl, its runtime file
// (the generic constructor named Name, with Run and TempStorageBytes) and
// its tests; nothing else names it.
package algo

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gocccl/gocccl/internal/arch"
)

// Algorithm is the description of one algorithm.
type Algorithm struct {
	// Name is the name of the runtime constructor that declares an
	// instance, e.g. "Reduce" for runtime.Reduce.
	Name string
	// Stem starts the C symbols of an instance's kernels: "reduce" gives
	// gocccl_reduce_Add_partial.
	Stem string
	// Header is the kernel header under kernels/include/gocccl that
	// defines the kernel templates, e.g. "reduce.cuh".
	Header string
	// TypeParams are the names of the constructor's type parameters, in
	// their order: the instance's element types. Operator signatures and
	// kernel parameters refer to them by name.
	TypeParams []string
	// Ops are the operator parameters of the constructor, in order: every
	// argument of the constructor call is one //gocccl:op function.
	Ops []Operator
	// Kernels are the instance's entry points. The runtime launches them
	// by index, and finds each index by its Suffix (KernelIndex).
	Kernels []Kernel
	// Policy is the tuning table: the launch policy on architecture a when
	// the widest element type has size bytes.
	Policy func(size int64, a int) arch.Policy
}

// Operator is one operator parameter of a constructor.
type Operator struct {
	Role string // what it is for, in messages: "operator", "predicate", "equality"
	// Params and Results name the operator's types: type parameters of the
	// algorithm (TypeParams) or predeclared Go types such as "bool".
	Params, Results []string
}

// Signature prints the operator's Go signature: "func(T, T) T".
func (o Operator) Signature() string {
	s := "func(" + strings.Join(o.Params, ", ") + ")"
	switch len(o.Results) {
	case 0:
	case 1:
		s += " " + o.Results[0]
	default:
		s += " (" + strings.Join(o.Results, ", ") + ")"
	}
	return s
}

// Kernel is one extern "C" entry point of an instance. Its body calls
// Template<THREADS, ITEMS, TypeParams..., Functors...>(Params...): the
// policy's threads and items, the C types of the instance's element types in
// TypeParams order, the functors of its operators in Ops order; iterator
// types of inputs are deduced from the arguments.
type Kernel struct {
	// Suffix follows the instance's symbol: "partial" names
	// gocccl_reduce_Add_partial; "" names the symbol itself.
	Suffix string
	// Template is the kernel template in the header, e.g.
	// "::gocccl::reduce_partial".
	Template string
	Params   []Param
	// Delay marks a kernel of a decoupled look-back whose template takes
	// the policy's Delay (arch.Policy) as a trailing tag argument
	// (kernels/include/gocccl/look_back.cuh).
	Delay bool
}

// Param is one parameter of an entry point.
type Param struct {
	Name string
	Kind ParamKind
	// Type names the element type of In, Out and Value parameters: a type
	// parameter of the algorithm, or one of the fixed types of FixedCType
	// ("int64" for counts and offsets, "bool", …).
	Type string
	// Fixed marks an In or Out parameter that stays a pointer whatever
	// iterators an instance reads and writes through (scan's d_init).
	Fixed bool
	// Count marks an Out parameter that receives counts (a compaction's
	// d_count): it stays a buffer, so Into declares no composition for it,
	// but unlike a Fixed one it keeps its place in Outputs, and so in the
	// registry keys of the instance's compositions.
	Count bool
}

// Inputs returns the names of the parameters an instance may read through
// an iterator (runtime's Over): the In parameters that are not Fixed, each
// once, in the order they first appear in Kernels.
func (a *Algorithm) Inputs() []string { return a.params(In) }

// Outputs returns the names of the parameters an instance may write
// through an output iterator (runtime's Into), as Inputs does.
func (a *Algorithm) Outputs() []string { return a.params(Out) }

// IntoOutputs returns the names of the outputs that runtime's Into takes a
// composition for, in its argument order: Outputs without the Count ones.
func (a *Algorithm) IntoOutputs() []string {
	var names []string
	for _, name := range a.Outputs() {
		if !a.count(name) {
			names = append(names, name)
		}
	}
	return names
}

// count reports whether the Out parameter name is marked Count in some
// kernel.
func (a *Algorithm) count(name string) bool {
	for _, k := range a.Kernels {
		for _, p := range k.Params {
			if p.Kind == Out && p.Name == name && p.Count {
				return true
			}
		}
	}
	return false
}

func (a *Algorithm) params(kind ParamKind) []string {
	var names []string
	for _, k := range a.Kernels {
		for _, p := range k.Params {
			if p.Kind == kind && !p.Fixed && !slices.Contains(names, p.Name) {
				names = append(names, p.Name)
			}
		}
	}
	return names
}

// fixedC are the C types of the fixed element types kernel parameters may
// name besides type parameters, as Go's sized types are laid out.
var fixedC = map[string]string{
	"bool": "bool", "int8": "int8_t", "int16": "int16_t", "int32": "int32_t", "int64": "int64_t",
	"uint8": "uint8_t", "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t",
	"float32": "float", "float64": "double",
}

// FixedCType returns the C type of a fixed element type name ("int64" →
// "int64_t"), or "" when name is not one.
func FixedCType(name string) string { return fixedC[name] }

// ParamKind says how a parameter is passed: the C type the emitter writes
// and the argument the runtime packs.
type ParamKind int

// The kinds of kernel parameters.
const (
	In      ParamKind = iota + 1 // an input sequence of Type: const T* (a Slice)
	Out                          // an output sequence of Type: T*
	Value                        // one Type by value, e.g. an init value
	Size                         // a count or index: long long
	Scratch                      // device scratch memory: void*
)

// CType returns the C type of a parameter of this kind, given the C name of
// its Type.
func (k ParamKind) CType(t string) string {
	switch k {
	case In:
		return "const " + t + "*"
	case Out:
		return t + "*"
	case Value:
		return t
	case Size:
		return "long long"
	case Scratch:
		return "void*"
	}
	return "?"
}

// Symbol returns the entry point of kernel k for an instance whose symbol is
// sym.
func (k Kernel) Symbol(sym string) string {
	if k.Suffix == "" {
		return sym
	}
	return sym + "_" + k.Suffix
}

// Typed reports whether some type parameter of a appears in no operator's
// signature, so that the instance's key and symbol must name its types: an
// instance is then declared with explicit type arguments
// (runtime.RadixSortKeys[uint32]()).
func (a *Algorithm) Typed() bool {
	for _, tp := range a.TypeParams {
		found := false
		for _, op := range a.Ops {
			if slices.Contains(op.Params, tp) || slices.Contains(op.Results, tp) {
				found = true
			}
		}
		if !found {
			return true
		}
	}
	return false
}

// TypeIndex returns the index of the type parameter named name, or -1.
func (a *Algorithm) TypeIndex(name string) int { return slices.Index(a.TypeParams, name) }

// KernelIndex returns the index in Kernels of the kernel whose Suffix is
// suffix, or -1: the runtime launches kernels by index and takes each
// index from here, so that a description states its kernels' order once.
func (a *Algorithm) KernelIndex(suffix string) int {
	return slices.IndexFunc(a.Kernels, func(k Kernel) bool { return k.Suffix == suffix })
}

// String returns the algorithm's name.
func (a *Algorithm) String() string { return a.Name }

var (
	all    []*Algorithm
	byName = map[string]*Algorithm{}
)

// register adds a description; each algorithm's file calls it from init.
func register(a *Algorithm) *Algorithm {
	if err := a.validate(); err != nil {
		panic("algo: " + err.Error()) // a description is a program constant
	}
	if byName[a.Name] != nil {
		panic("algo: " + a.Name + " described twice")
	}
	byName[a.Name] = a
	all = append(all, a)
	slices.SortFunc(all, func(x, y *Algorithm) int { return strings.Compare(x.Name, y.Name) })
	return a
}

// Lookup returns the algorithm whose runtime constructor is named name, or
// nil.
func Lookup(name string) *Algorithm { return byName[name] }

// StatefulSuffix ends the name of the runtime constructor of an instance
// with per-call state: runtime.ReduceWith(S.Op) declares a Reduce whose
// operator is a method of the state type S, and whose handle's Bind(s S)
// gives the state of the calls it makes. The stateful constructor's type
// parameters are S followed by the algorithm's TypeParams.
const StatefulSuffix = "With"

// LookupConstructor returns the algorithm that the runtime constructor
// named name declares, and whether the constructor is its stateful one
// (Name + StatefulSuffix); nil when name is neither.
func LookupConstructor(name string) (a *Algorithm, stateful bool) {
	if a := byName[name]; a != nil {
		return a, false
	}
	if base, ok := strings.CutSuffix(name, StatefulSuffix); ok && byName[base] != nil && len(byName[base].Ops) > 0 {
		return byName[base], true
	}
	return nil, false
}

// StateParam is the parameter every kernel of a stateful instance takes
// after its description's Params: the state, by value, as a C struct of the
// state type's layout. The entry point makes it visible to the instance's
// functors for the launch (docs/ARCHITECTURE.md, "Per-call state").
const StateParam = "gocccl_state"

// All returns every algorithm, sorted by name.
func All() []*Algorithm { return slices.Clone(all) }

// predeclared are the Go types an operator signature may name besides type
// parameters.
var predeclared = map[string]bool{"bool": true, "int64": true, "int32": true, "int": true, "uint32": true, "uint64": true}

// validate checks that a description is complete and consistent.
func (a *Algorithm) validate() error {
	if a.Name == "" || a.Stem == "" || a.Header == "" || a.Policy == nil || len(a.Kernels) == 0 {
		return fmt.Errorf("%q: name, stem, header, policy and kernels are required", a.Name)
	}
	known := func(t string) bool { return a.TypeIndex(t) >= 0 || predeclared[t] }
	for _, op := range a.Ops {
		for _, t := range append(slices.Clone(op.Params), op.Results...) {
			if !known(t) {
				return fmt.Errorf("%s: operator %s names unknown type %s", a.Name, op.Role, t)
			}
		}
	}
	seen := map[string]bool{}
	for _, k := range a.Kernels {
		if seen[k.Suffix] {
			return fmt.Errorf("%s: two kernels with suffix %q", a.Name, k.Suffix)
		}
		seen[k.Suffix] = true
		for _, p := range k.Params {
			if p.Count && (p.Kind != Out || p.Fixed) {
				return fmt.Errorf("%s: kernel %s: parameter %s: only an Out parameter that is not Fixed can be a Count", a.Name, k.Suffix, p.Name)
			}
			switch p.Kind {
			case In, Out, Value:
				if a.TypeIndex(p.Type) < 0 && FixedCType(p.Type) == "" {
					return fmt.Errorf("%s: kernel %s: parameter %s names unknown type %q", a.Name, k.Suffix, p.Name, p.Type)
				}
			case Size, Scratch:
			default:
				return fmt.Errorf("%s: kernel %s: parameter %s has no kind", a.Name, k.Suffix, p.Name)
			}
		}
	}
	return nil
}
