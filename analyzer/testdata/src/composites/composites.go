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
