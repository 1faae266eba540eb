// Package stmts uses every statement form of the first subset.
package stmts

import "github.com/gocccl/gocccl/runtime"

//gocccl:op
func Decls(a, b int32) int32 {
	var x int32
	var y int32 = a
	var z = b
	w := a + b
	var p, q = a, b
	r, s := b, a
	return x + y + z + w + p + q + r + s
}

//gocccl:op
func Assigns(a, b int64) int64 {
	a, b = b, a
	a = a - b
	_ = b
	a += 1
	a -= b
	a *= 3
	a /= 2
	a %= 7
	a &= 0xff
	a |= 1
	a ^= b
	a &^= 4
	a <<= 2
	a >>= b
	a++
	b--
	_, a = a, b
	return a
}

//gocccl:op
func Redeclare(a, b uint32) uint32 {
	x := a
	x, y := b, x
	return x - y
}

//gocccl:op
func Branches(a, b float64) float64 {
	if a < b {
		return a
	} else if d := a - b; d > 10 {
		return d
	} else if e, f := a*2, b; e > f {
		return e - f
	} else {
		a = -a
	}
	{
		a := b * 2
		b = a
	}
	if !(a == b) && a != 0 || b >= 1 {
		return b
	}
	return +a
}

//gocccl:op
func Named(a int8) (r int8) {
	if a > 0 {
		r = a
	}
	r = ^r
	return
}

//gocccl:op
func Convs(a uint8, b float32) float64 {
	i := int64(a) << 3
	j := uint16(b) >> a
	var t = float64(i) + float64(j)
	return t
}

//gocccl:op
func Shifts(a int16, n uint64) int16 {
	return a<<n | a>>3 | a<<int8(n)
}

//gocccl:op
func Logic(a, b bool) bool {
	return a && !b || (a != b) == true
}

//gocccl:op
func Blanks(_ int32, int32, c int32) int32 { return c }

//gocccl:op
func Unnamed(int32, float32) int32 { return Blanks(1, 2, 3) }

var (
	_ = runtime.Reduce(Decls)
	_ = runtime.BinaryTransform(Assigns)
	_ = runtime.BinaryTransform(Branches)
	_ = runtime.UnaryTransform(Named)
	_ = runtime.BinaryTransform(Convs)
	_ = runtime.BinaryTransform(Shifts)
	_ = runtime.Reduce(Logic)
	_ = runtime.BinaryTransform(Unnamed)
)
