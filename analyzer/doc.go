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
// An operator is a top-level function whose doc comment holds the line
//
//	//gocccl:op [option ...]
//
// The only option so far is fastmath. A trailing "// comment" after the
// options is allowed.
package analyzer
