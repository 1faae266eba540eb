package emit

import (
	"cmp"
	"fmt"
	"go/token"
	"slices"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// structTypes returns the struct types the generated source needs: those of
// the operators' signatures, variables and expressions and of the
// instances, with every struct after the structs its fields hold, and
// otherwise by package path and name.
func structTypes(pkg *model.Package, ops []*model.Op) []*model.Type {
	found := make(map[string]*model.Type)
	var add func(t *model.Type)
	add = func(t *model.Type) {
		switch {
		case t == nil:
		case t.Kind == model.Struct:
			found[t.Pkg+"."+t.Name] = t
		case t.Kind == model.Array || t.Kind == model.View:
			add(t.Elem)
		case t.Kind == model.Tuple:
			for _, e := range t.Elems {
				add(e)
			}
		}
	}
	for _, op := range ops {
		for _, p := range op.Params {
			add(p.Type)
		}
		for _, r := range op.Results {
			add(r)
		}
		if op.Body == nil {
			continue
		}
		model.WalkStmts(op.Body, func(s model.Stmt) {
			if d, ok := s.(*model.DeclStmt); ok && d.Var != nil {
				add(d.Var.Type)
			}
		})
		model.Walk(op.Body, func(x model.Expr) {
			if x != nil {
				add(safeType(x))
			}
		})
	}
	for _, in := range pkg.Instances {
		for _, t := range in.Types {
			add(t)
		}
	}
	roots := make([]*model.Type, 0, len(found))
	for _, t := range found {
		roots = append(roots, t)
	}
	slices.SortFunc(roots, func(a, b *model.Type) int {
		return cmp.Or(strings.Compare(a.Pkg, b.Pkg), strings.Compare(a.Name, b.Name))
	})
	var out []*model.Type
	done := make(map[string]bool)
	var visit func(t *model.Type)
	visit = func(t *model.Type) {
		switch {
		case t == nil:
		case t.Kind == model.Array || t.Kind == model.View:
			visit(t.Elem)
		case t.Kind == model.Struct:
			key := t.Pkg + "." + t.Name
			if done[key] {
				return
			}
			done[key] = true
			for _, f := range t.Fields {
				visit(f.Type)
			}
			out = append(out, t)
		}
	}
	for _, t := range roots {
		visit(t)
	}
	return out
}

// safeType returns x's type, or nil when a malformed model has none.
func safeType(x model.Expr) (t *model.Type) {
	defer func() {
		if recover() != nil {
			t = nil
		}
	}()
	return x.Type()
}

// writeStructs writes the C++ definition of each struct type in the
// namespace of its package, with == and != as Go compares structs, and
// static assertions that pin its layout to Go's.
func writeStructs(e *opEmitter, ts []*model.Type) {
	w := e.w
	structs := make(map[string]string) // qualified C++ name → Go name
	for _, t := range ts {
		ns := cNamespace(t.Pkg)
		name := cStruct(t.Name)
		if other, dup := structs[ns+"::"+name]; dup {
			e.fail(token.NoPos, "struct types %s and %s.%s both translate to the C++ name %s", other, t.Pkg, t.Name, name)
		}
		structs[ns+"::"+name] = t.Pkg + "." + t.Name
		fields := make(map[string]string) // C++ field name → Go name
		for i, f := range t.Fields {
			n := cField(f.Name, i)
			if other, dup := fields[n]; dup {
				e.fail(token.NoPos, "fields %s and %s of %s.%s both translate to the C++ name %s", other, f.Name, t.Pkg, t.Name, n)
			}
			fields[n] = f.Name
		}
		w.p("")
		w.p("namespace %s {", ns)
		w.p("// %s is the Go struct type %s.%s: %d bytes, aligned to %d.", name, t.Pkg, t.Name, t.Size(), t.Align())
		w.p("struct %s {", name)
		w.in()
		for i, f := range t.Fields {
			w.p("%s %s;", cType(f.Type), cField(f.Name, i))
		}
		w.out()
		w.p("};")
		var eq []string
		for i, f := range t.Fields {
			if f.Name == "_" {
				continue // Go's == skips blank fields
			}
			n := cField(f.Name, i)
			eq = append(eq, fmt.Sprintf("gocccl_x.%s == gocccl_y.%s", n, n))
		}
		if len(eq) == 0 {
			eq = []string{"true"}
		}
		w.p("__host__ __device__ __forceinline__ bool operator==(const %s& gocccl_x, const %s& gocccl_y) {", name, name)
		w.p("  return %s;", strings.Join(eq, " && "))
		w.p("}")
		w.p("__host__ __device__ __forceinline__ bool operator!=(const %s& gocccl_x, const %s& gocccl_y) {", name, name)
		w.p("  return !(gocccl_x == gocccl_y);")
		w.p("}")
		w.p("}  // namespace %s", ns)
		q := cType(t)
		w.p("static_assert(sizeof(%s) == %d && alignof(%s) == %d, \"layout of %s differs from Go's\");", q, t.Size(), q, t.Align(), t.Name)
		for i, f := range t.Fields {
			w.p("static_assert(offsetof(%s, %s) == %d, \"offset of %s.%s differs from Go's\");", q, cField(f.Name, i), f.Offset, t.Name, f.Name)
		}
	}
}

// resultsName returns the C++ name of the struct an operator with several
// results returns, in the operator's namespace.
func resultsName(e *opEmitter, op *model.Op) string {
	return "gocccl_results_" + e.names.ops[op]
}

// writeResults writes the result struct of an operator with several
// results: fields r0, r1, … in order.
func writeResults(e *opEmitter, op *model.Op) {
	if len(op.Results) < 2 {
		return
	}
	fields := make([]string, len(op.Results))
	for i, r := range op.Results {
		fields[i] = fmt.Sprintf("%s r%d;", cType(r), i)
	}
	e.w.p("struct %s { %s };", resultsName(e, op), strings.Join(fields, " "))
}
