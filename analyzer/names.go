package analyzer

import (
	"fmt"
	"strings"
	"unicode"
)

// namer gives the variables of one operator names that are unique within it
// and safe to print as CUDA C++ identifiers: shadowed Go variables become
// x, x_1, x_2, …; C++ keywords and identifiers the generated code or its
// headers use get a trailing underscore (int → int_).
type namer struct {
	reserved map[string]bool // names no variable may take
	used     map[string]bool // names given so far
}

func newNamer(reserved map[string]bool) *namer {
	return &namer{reserved: reserved, used: make(map[string]bool)}
}

// name returns a fresh name for a Go variable called goName.
func (n *namer) name(goName string) string {
	base := cIdent(goName)
	if n.reserved[base] || cppReserved[base] || strings.HasPrefix(base, "gocccl") {
		base += "_"
	}
	name := base
	sep := "_"
	if strings.HasSuffix(base, "_") {
		sep = ""
	}
	for i := 1; n.used[name] || n.reserved[name] || cppReserved[name]; i++ {
		name = fmt.Sprintf("%s%s%d", base, sep, i)
	}
	n.used[name] = true
	return name
}

// cIdent maps a Go identifier to a C++ identifier that is not reserved to
// the implementation: non-ASCII letters become uXXXX, runs of underscores
// (reserved in C++ when doubled) shrink to one, and a leading underscore
// followed by an upper-case letter gets a "v" in front.
func cIdent(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '_' && strings.HasSuffix(b.String(), "_"):
			// drop: "__" is reserved in C++
		case r <= unicode.MaxASCII:
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "u%04x", r)
		}
	}
	id := b.String()
	switch {
	case id == "" || id == "_":
		return "v"
	case id[0] == '_' && len(id) > 1 && id[1] >= 'A' && id[1] <= 'Z':
		return "v" + id
	}
	return id
}

// cppReserved holds the C++20 keywords and alternative tokens, and names of
// types, macros and functions that generated CUDA code may use unqualified.
var cppReserved = setOf(
	// C++ keywords and alternative tokens.
	"alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor",
	"bool", "break", "case", "catch", "char", "char8_t", "char16_t", "char32_t",
	"class", "compl", "concept", "const", "consteval", "constexpr", "constinit",
	"const_cast", "continue", "co_await", "co_return", "co_yield", "decltype",
	"default", "delete", "do", "double", "dynamic_cast", "else", "enum",
	"explicit", "export", "extern", "false", "float", "for", "friend", "goto",
	"if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept",
	"not", "not_eq", "nullptr", "operator", "or", "or_eq", "private",
	"protected", "public", "register", "reinterpret_cast", "requires",
	"restrict", "return", "short", "signed", "sizeof", "static",
	"static_assert", "static_cast", "struct", "switch", "template", "this",
	"thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
	"union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t",
	"while", "xor", "xor_eq", "final", "override", "import", "module",
	// C and CUDA names: types, macros, built-in variables, namespaces.
	"NULL", "EOF", "assert", "errno", "offsetof", "main", "std", "cub", "cuda",
	"thrust", "cooperative_groups", "size_t", "ptrdiff_t", "intptr_t",
	"uintptr_t", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
	"uint16_t", "uint32_t", "uint64_t", "threadIdx", "blockIdx", "blockDim",
	"gridDim", "warpSize", "INFINITY", "NAN", "HUGE_VAL", "HUGE_VALF",
	// Math functions the emitter may call unqualified.
	"min", "max", "abs", "fabs", "fabsf", "fmin", "fmax", "fminf", "fmaxf",
	"sqrt", "sqrtf", "isnan", "isinf", "signbit", "copysign", "floor", "ceil",
	"trunc", "round", "fma", "fmaf", "exp", "log", "pow", "sin", "cos", "tan",
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
