package registry

import (
	"reflect"
	"strconv"
	"strings"
)

// layoutOf describes the memory layout of t in the format of
// model.Type.Layout: kinds, array lengths, struct field names and offsets,
// and the size.
func layoutOf(t reflect.Type) string {
	var b strings.Builder
	writeLayout(&b, t)
	b.WriteString("/")
	b.WriteString(strconv.FormatUint(uint64(t.Size()), 10))
	return b.String()
}

func writeLayout(b *strings.Builder, t reflect.Type) {
	if e := viewElem(t); e != nil {
		b.WriteString("view[")
		writeLayout(b, e)
		b.WriteString("]")
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		b.WriteString("{")
		for i := range t.NumField() {
			f := t.Field(i)
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(f.Name)
			b.WriteString("@")
			b.WriteString(strconv.FormatUint(uint64(f.Offset), 10))
			b.WriteString(":")
			writeLayout(b, f.Type)
		}
		b.WriteString("}")
	case reflect.Array:
		b.WriteString("[")
		b.WriteString(strconv.Itoa(t.Len()))
		b.WriteString("]")
		writeLayout(b, t.Elem())
	default:
		b.WriteString(t.Kind().String())
	}
}

// checkLayouts compares the layouts the kernels were compiled for with the
// Go types' own, in order; an empty want (glue from before layouts were
// recorded) checks nothing.
func checkLayouts(want []string, types ...reflect.Type) error {
	if len(want) == 0 {
		return nil
	}
	if len(want) != len(types) {
		return &layoutError{msg: "the generated code records " + strconv.Itoa(len(want)) + " element types, the operator has " + strconv.Itoa(len(types))}
	}
	for i, t := range types {
		if got := layoutOf(t); got != want[i] {
			return &layoutError{msg: "element type " + t.String() + " has layout " + got + " in Go but the kernels were compiled for " + want[i]}
		}
	}
	return nil
}

// layoutError reports element types that changed since go generate.
type layoutError struct{ msg string }

func (e *layoutError) Error() string {
	return e.msg + ": the type changed since the kernels were generated; run go generate (gocccl-gen) again"
}

// viewElem returns T for runtime.View[T], whose layout model.Type.Layout
// writes as "view[T's layout]", or nil for any other type. This package
// cannot import runtime: it finds T in the View's field s, a *Slice[T],
// whose field host is a []T.
func viewElem(t reflect.Type) reflect.Type {
	if t.Kind() != reflect.Struct || t.PkgPath() != "github.com/gocccl/gocccl/runtime" || !strings.HasPrefix(t.Name(), "View[") {
		return nil
	}
	s, ok := t.FieldByName("s")
	if !ok || s.Type.Kind() != reflect.Pointer || s.Type.Elem().Kind() != reflect.Struct {
		return nil
	}
	host, ok := s.Type.Elem().FieldByName("host")
	if !ok || host.Type.Kind() != reflect.Slice {
		return nil
	}
	return host.Type.Elem()
}
