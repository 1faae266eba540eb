// Package composites holds operators over structs and arrays.
package composites

// Pixel has padding between its fields, as Go lays them out.
type Pixel struct {
	A int8
	B float64
	C int16
	D [3]uint8
}

// Pair nests structs and has a blank field.
type Pair struct {
	P, Q Pixel
	_    int32
	N    Grid
}

// Grid is a named array type.
type Grid [2][2]int32

// Alias has the underlying type of Pixel.
type Alias Pixel

//gocccl:op
func Mix(a, b Pixel) Pixel {
	var out Pixel
	out.A = a.A + b.A
	out.B = a.B * b.B
	out.D[1] = a.D[2]
	if a == b {
		out.C++
	}
	return out
}

//gocccl:op
func Swap(p Pair) Pair {
	p.P, p.Q = p.Q, p.P
	p.N[1][0] += p.N[0][1]
	return p
}

//gocccl:op
func Literal(x int32, i int) [4]int32 {
	a := [4]int32{1, 2: x, 3}
	a[i&3] = -x
	g := Grid{{x, 1}, {2, x}}
	return [...]int32{a[0], g[1][1], a[i&3], int32(len(a))}
}

//gocccl:op
func Convert(p Pixel) Alias { return Alias(p) }

//gocccl:op
func Keyed(a int8) Pixel { return Pixel{C: int16(a), A: a} }

// A4 is a named array type; [4]int32 values are assignable to it and back.
type A4 [4]int32

// functors and a are names the generated C++ uses for itself or for
// parameters: they must still work as Go names.
type functors struct{ X int32 }

type a struct{ X, Y int32 }

//gocccl:op
func Arrays(x int32, u [4]int32) A4 {
	var b A4 = [4]int32{x}
	b = u
	c := A4(u)
	d := [4]int32(c)
	if b == u && c == d {
		return [4]int32{x, x}
	}
	return b
}

//gocccl:op
func Names(f functors, v a) a {
	if v == (a{X: f.X}) {
		return a{Y: 1}
	}
	return v
}

//gocccl:op
func RangeAssign(b [3]int32) int32 {
	var arr [4]int32
	i := 3
	for i, arr[i] = range b {
	}
	return arr[0] + arr[1]*10 + arr[2]*100 + arr[3]*1000
}

// Blank keeps what may panic although its value is dropped: an index out of
// range must trap on the GPU as it panics in Go.
//
//gocccl:op
func Blank(arr [4]int32, i int) int32 {
	_ = arr[i]
	var _ = arr[i+1]
	y, _ := arr[0], arr[i&3]
	_, _ = y, arr[2]
	Arrays(y, arr)
	return y
}
