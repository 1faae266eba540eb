package analyzer

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/gocccl/gocccl/model"
)

// namer gives the variables of one operator names that are unique within it
// and safe to print as CUDA C++ identifiers: shadowed Go variables become
// x, x_1, x_2, …; names model.ReservedCName rejects (C++ keywords, names
// the generated code and headers use), the operators' own names and the math
// functions generated code may call get a trailing underscore (int → int_).
type namer struct {
	reserved map[string]bool // names no variable may take besides the fixed ones
	used     map[string]bool // names given so far
}

func newNamer(reserved map[string]bool) *namer {
	return &namer{reserved: reserved, used: make(map[string]bool)}
}

// name returns a fresh name for a Go variable called goName.
func (n *namer) name(goName string) string {
	base := cIdent(goName)
	if n.reserved[base] || isReserved(base) || strings.HasPrefix(base, "gocccl") {
		if strings.HasSuffix(base, "_") {
			base += "v" // never "__"
		} else {
			base += "_"
		}
	}
	name := base
	sep := "_"
	if strings.HasSuffix(base, "_") {
		sep = ""
	}
	for i := 1; n.used[name] || n.reserved[name] || isReserved(name); i++ {
		name = fmt.Sprintf("%s%s%d", base, sep, i)
	}
	n.used[name] = true
	return name
}

// isReserved reports whether name may not be a variable of generated code.
func isReserved(name string) bool {
	return model.ReservedCName(name) || mathNames[name]
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

// mathNames are functions generated code may call unqualified, in
// addition to the names model.ReservedCName knows.
var mathNames = setOf(
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
