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
// the generated code and headers use, generator names) and the operators'
// own names get a trailing underscore (int → int_). model.ReservedCName is
// the emitter's test too, so every name given here is one it accepts.
type namer struct {
	reserved map[string]bool // names no variable may take besides model.ReservedCName's
	used     map[string]bool // names given so far
}

func newNamer(reserved map[string]bool) *namer {
	return &namer{reserved: reserved, used: make(map[string]bool)}
}

// name returns a fresh name for a Go variable called goName.
func (n *namer) name(goName string) string {
	base := n.safe(cIdent(goName))
	sep := "_"
	if strings.HasSuffix(base, "_") {
		sep = ""
	}
	name := base
	for i := 1; n.used[name] || n.isReserved(name); i++ {
		name = n.safe(fmt.Sprintf("%s%s%d", base, sep, i))
	}
	n.used[name] = true
	return name
}

// safe returns name, or name with a suffix when it is reserved: "_", or "v"
// after a name already ending in "_" (never "__").
func (n *namer) safe(name string) string {
	switch {
	case !n.isReserved(name):
		return name
	case strings.HasSuffix(name, "_"):
		return name + "v"
	}
	return name + "_"
}

// isReserved reports whether no variable may be called name.
func (n *namer) isReserved(name string) bool {
	return n.reserved[name] || model.ReservedCName(name)
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
