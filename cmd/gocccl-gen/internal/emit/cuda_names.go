package emit

import (
	"fmt"
	"hash/fnv"
	"path"
	"strconv"
	"strings"
	"unicode"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// The model names everything as Go does; this file and cuda_vars.go choose
// what each name becomes in the generated C++. A Go name C++ can use as it
// is (reservedC) stays; a variable C++ cannot use gets a suffix (cuda_vars.go);
// an operator, struct type or field gets a generator prefix. Every
// conversion of a Go name goes through cIdent.

// cNames holds the C++ names that depend on more than one Go name: those
// of the operators (checked to differ within each package) and of their
// variables (unique within each operator, and never an operator's name).
// Types, fields and namespaces are named by cType, cStruct, cField and
// cNamespace from their Go names alone.
type cNames struct {
	ops  map[*model.Op]string
	vars map[*model.Var]string
}

// newCNames names the operators of pkg, its own and imported, and their
// variables.
func newCNames(pkg *model.Package) (*cNames, error) {
	all := append(append([]*model.Op(nil), pkg.Imported...), pkg.Ops...)
	n := &cNames{ops: make(map[*model.Op]string, len(all)), vars: make(map[*model.Var]string)}
	seen := make(map[string]string)
	byPkg := make(map[string]map[string]bool) // import path → C++ names of its operators
	for _, op := range all {
		c := cOp(op)
		p := opPkg(pkg, op)
		key := p + " " + c
		if other, dup := seen[key]; dup {
			return nil, fmt.Errorf("operators %s and %s both translate to the C++ name %s", other, op.Name, c)
		}
		seen[key] = op.Name
		n.ops[op] = c
		if byPkg[p] == nil {
			byPkg[p] = make(map[string]bool)
		}
		byPkg[p][c] = true
	}
	for _, op := range all {
		nameVars(op, byPkg[opPkg(pkg, op)], n.vars)
	}
	return n, nil
}

// cIdent maps a Go identifier (or any other name, such as a package
// directory's) to a C++ identifier fragment that is plain ASCII and never
// reserved to the implementation: ASCII letters and digits stay, a run of
// underscores becomes one ("__" is reserved in C++), any other rune becomes
// uXXXX (its code point in hex), a leading underscore followed by an
// upper-case letter gets a "v" in front, and "" and "_" become "v". It is
// the one escape from Go names to C++ names.
func cIdent(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '_' && strings.HasSuffix(b.String(), "_"):
			// drop: "__" is reserved in C++
		case r == '_' || r <= unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
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

// generated returns a name in the generator's part of the name space:
// prefix, which ends in "_", followed by cIdent(name) without a leading
// underscore, so that the result never holds "__".
func generated(prefix, name string) string {
	return prefix + strings.TrimLeft(cIdent(name), "_")
}

// cOp returns the C++ name of an operator in its package namespace: its
// Go name, or "gocccl_op_" and the escaped name when C++ cannot use the Go
// name (reservedC).
func cOp(op *model.Op) string {
	name := strings.ReplaceAll(op.Name, ".", "_") // a method: Axpy.Apply → Axpy_Apply
	if !reservedC(name) {
		return name
	}
	return generated("gocccl_op_", name)
}

// cNamespace returns the C++ namespace that holds the operators and struct
// types of the package with import path pkgPath: "gocccl_pkg_", the
// package directory's name escaped, and a hash of the whole path, so that
// two packages of the same name never share one.
func cNamespace(pkgPath string) string {
	h := fnv.New32a()
	h.Write([]byte(pkgPath))
	return fmt.Sprintf("%s_%08x", strings.TrimRight(generated("gocccl_pkg_", path.Base(pkgPath)), "_"), h.Sum32())
}

// cStruct returns the C++ name of the struct type with Go name name in its
// package namespace: the Go name, or "gocccl_type_" and the escaped name
// when C++ cannot use the Go name (reservedC).
func cStruct(name string) string {
	if !reservedC(name) {
		return name
	}
	return generated("gocccl_type_", name)
}

// cField returns the C++ name of field index of a struct with Go name
// name: the Go name, or "gocccl_f_" and the escaped name when C++ cannot use
// it. Blank fields are named by their index.
func cField(name string, index int) string {
	switch {
	case name == "_":
		return "gocccl_pad" + strconv.Itoa(index)
	case reservedC(name):
		return generated("gocccl_f_", name)
	}
	return name
}

// isCIdent reports whether s is a plain ASCII C identifier.
func isCIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
