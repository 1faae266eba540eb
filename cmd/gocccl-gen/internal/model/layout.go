package model

import (
	"strconv"
	"strings"
)

// Layout describes the memory layout of a value of type t, ignoring type
// names: a basic kind's Go name ("int8", "float64"), "[N]" and the element's
// layout for an array, "{name@offset:layout,…}" for a struct, followed by
// "/size" at the top. Generated glue records the layout of every element
// type the kernels were compiled for, and the runtime compares it with the
// layout reflect reports for the Go type (runtime.layoutOf prints the same
// format), so that a type changed after go generate is reported instead of
// read with the old layout.
func (t *Type) Layout() string {
	var b strings.Builder
	t.layout(&b)
	b.WriteString("/")
	b.WriteString(strconv.FormatInt(t.Size(), 10))
	return b.String()
}

func (t *Type) layout(b *strings.Builder) {
	switch t.Kind {
	case Struct:
		b.WriteString("{")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(f.Name)
			b.WriteString("@")
			b.WriteString(strconv.FormatInt(f.Offset, 10))
			b.WriteString(":")
			f.Type.layout(b)
		}
		b.WriteString("}")
	case Array:
		b.WriteString("[")
		b.WriteString(strconv.FormatInt(t.Len, 10))
		b.WriteString("]")
		t.Elem.layout(b)
	case View:
		b.WriteString("view[")
		t.Elem.layout(b)
		b.WriteString("]")
	case Float16, BFloat16:
		b.WriteString("uint16") // their underlying type: what reflect reports
	default:
		b.WriteString(t.Kind.String())
	}
}
