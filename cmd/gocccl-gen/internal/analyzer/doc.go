// Package analyzer turns a Go package into the model that gocccl-gen emits
// code from.
//
// The flow is the one of the Go team's generators: load the packages with
// golang.org/x/tools/go/packages, find the //gocccl:op functions and the
// algorithm instances declared with the runtime constructors
// (runtime.Reduce, runtime.UnaryTransform, runtime.BinaryTransform), check
// that every operator stays inside the supported subset of Go, and translate
// each operator into a model.Op.
//
// Problems are values: every one is a Diagnostic with a file:line:column
// position, and all of a run's diagnostics come back together as Errors,
// sorted by position. The analyzer never stops at the first problem and
// never panics on unexpected syntax; a construct it does not know is a
// diagnostic too.
//
// # Operators and instances
//
// An operator is a top-level function whose doc comment holds the line
//
//	//gocccl:op [option ...]
//
// The only option so far is fastmath, which lets the emitter fuse float
// multiply-adds (see model.Op.FastMath). A trailing "// comment" after the
// options is allowed. An instance is a call of one of the runtime
// constructors, anywhere in the package's non-test files outside operators,
// whose argument names a //gocccl:op function of the same package. Operators
// may call operators of other packages; Load analyzes those packages too
// (see Importer) and lists the operators used in model.Package.Imported.
//
// # Targets
//
// A package may name the targets it is compiled for with one line, in any of
// its files, outside declarations:
//
//	//gocccl:arch sm_80,sm_90,compute_90
//
// Targets are separated by commas or blanks; sm_XY is SASS for compute
// capability X.Y, compute_XY is PTX. Several such lines must agree. The
// sorted list is model.Package.Targets; the generator's -arch flag overrides
// it, and it overrides the targets of an existing manifest and the
// toolchain's defaults.
//
// # What the model holds
//
// The translation keeps Go's meaning and leaves the emitter little to decide:
//
//   - Every expression go/types evaluates to a constant is one model.Const of
//     its final type, its value normalized: constant.Bool for booleans, an
//     Int that fits the type for integers, a Float that float64 holds
//     exactly (already rounded to float32 for float32) for floats. An untyped
//     constant shift count (x << 3) is a uint.
//   - Parentheses and unary + are dropped. x op= y, x++ and x-- become
//     assignments of a Binary. Expression statements (calls of operators,
//     which have no effects) are dropped, as are assignments to _.
//   - Variables keep their Go names, made unique within their operator:
//     shadowed names get _1, _2, …; unnamed and blank parameters are _0,
//     _1, … by position, blank named results _r. Parameters may be
//     assigned. Names stay Go's: the emitter chooses the C++ names.
//   - A named result is declared, with its zero value, by the first
//     statements of the body; a bare return returns it.
//   - "a, b := x, y" that redeclares a variable declares the new ones first,
//     then assigns all in one AssignStmt (values before targets, as in Go).
//     An if whose init lowers to several statements becomes a Block holding
//     them and the if.
//   - A Binary's position is its operator token's; other nodes start where
//     their Go syntax starts.
//   - Ops are in source order (files by name), so a callee may come after
//     its caller; the call graph has no cycles. Instances are sorted by Key
//     and share their element types with their operator's signature.
package analyzer
