package emit

import (
	"strconv"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// basicCTypes are the CUDA C++ spellings of the basic kinds: fixed-width
// types, 64 bits for int, uint and uintptr as on every platform gocccl
// targets.
var basicCTypes = [...]string{
	model.Invalid: "void",
	model.Bool:    "bool",
	model.Int8:    "int8_t",
	model.Int16:   "int16_t",
	model.Int32:   "int32_t",
	model.Int64:   "int64_t",
	model.Int:     "int64_t",
	model.Uint8:   "uint8_t",
	model.Uint16:  "uint16_t",
	model.Uint32:  "uint32_t",
	model.Uint64:  "uint64_t",
	model.Uint:    "uint64_t",
	model.Uintptr: "uint64_t",
	model.Float32: "float",
	model.Float64: "double",
	// complex64 and complex128 are gocccl/gocomplex.cuh's structs of two
	// floats, with Go's size and alignment.
	model.Complex64:  "::gocccl::go::complex64",
	model.Complex128: "::gocccl::go::complex128",
	// half.Float16 and half.BFloat16 are gocccl/gohalf.cuh's structs of
	// one 16-bit pattern, with Go's size and alignment (2 and 2).
	model.Float16:  "::gocccl::go::float16",
	model.BFloat16: "::gocccl::go::bfloat16",
}

// cType returns the CUDA C++ spelling of t's representation: the
// fixed-width type of a basic kind, the qualified struct generated for a
// struct type (see cNamespace and cStruct), gocccl::go::array for an
// array and gocccl::go::view for a runtime.View. A tuple has no C++ spelling of its own, and neither has a type
// outside the subset: both are "void".
func cType(t *model.Type) string {
	switch t.Kind {
	case model.Struct:
		return "::" + cNamespace(t.Pkg) + "::" + cStruct(t.Name)
	case model.Array:
		if t.Elem == nil {
			return "void"
		}
		return "::gocccl::go::array<" + cType(t.Elem) + ", " + strconv.FormatInt(t.Len, 10) + ">"
	case model.View:
		if t.Elem == nil {
			return "void"
		}
		return "::gocccl::go::view<" + cType(t.Elem) + ">"
	}
	if t.Kind < 0 || int(t.Kind) >= len(basicCTypes) || basicCTypes[t.Kind] == "" {
		return "void"
	}
	return basicCTypes[t.Kind]
}
