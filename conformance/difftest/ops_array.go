package difftest

import "github.com/gocccl/gocccl/runtime"

// Arrays: fixed-size arrays as parameters, results, locals and struct
// fields, indexing with constants and computed indices, range over arrays,
// array literals (keyed too), equality, copies by value, arrays as Reduce
// elements, two dimensions.

// Histo is a struct holding an array.
type Histo struct {
	Bins [5]uint16
	N    int32
}

//gocccl:op
func ArrSum(a [4]int32) int32 {
	s := int32(0)
	for i := 0; i < len(a); i++ {
		s += a[i] * int32(i+1)
	}
	return s
}

//gocccl:op
func ArrReverse(a [5]uint8) [5]uint8 {
	for i, j := 0, len(a)-1; i < j; i, j = i+1, j-1 {
		a[i], a[j] = a[j], a[i]
	}
	return a
}

// ArrIndex reads at a computed index; indices out of range panic in Go and
// are kept out of the inputs.
//
//gocccl:op
func ArrIndex(a [8]float32, i int) float32 { return a[i] - a[7-i] }

//gocccl:op
func ArrRange(a [6]int16) int64 {
	var s int64
	for i, v := range a {
		s += int64(v) << i
	}
	for _, v := range a {
		s ^= int64(v)
	}
	return s
}

//gocccl:op
func ArrLiteral(x uint8) [4]uint8 { return [4]uint8{x, x + 1, 3: ^x, 2: x * 2} }

//gocccl:op
func ArrEq(a, b [3]float64) bool { return a == b }

// ArrCopy copies an array and changes the copy.
//
//gocccl:op
func ArrCopy(a [3]int64) int64 {
	b := a
	b[0] = 9
	return a[0]*31 + b[0] + b[2]
}

//gocccl:op
func ArrMax(a, b [4]int16) [4]int16 {
	var r [4]int16
	for i := range a {
		r[i] = a[i]
		if b[i] > a[i] {
			r[i] = b[i]
		}
	}
	return r
}

//gocccl:op
func Trace(m [3][3]float64) float64 { return m[0][0] + m[1][1] + m[2][2] }

//gocccl:op
func Transpose(m [3][3]float32) [3][3]float32 {
	var t [3][3]float32
	for i := range 3 {
		for j := range 3 {
			t[j][i] = m[i][j]
		}
	}
	return t
}

//gocccl:op
func HistoAdd(h Histo, x uint32) Histo {
	h.Bins[x%5]++
	h.N++
	return h
}

//gocccl:op
func ArrOfStruct(a [3]Padded) Padded {
	best := a[0]
	for i := 1; i < 3; i++ {
		if a[i].C > best.C {
			best = a[i]
		}
	}
	return best
}

//gocccl:op
func ArrBool(a [3]bool) [3]bool { return [3]bool{!a[0], a[1] && a[2], a[0] != a[2]} }

var (
	_ = runtime.UnaryTransform(ArrBool)
	_ = runtime.UnaryTransform(ArrSum)
	_ = runtime.UnaryTransform(ArrReverse)
	_ = runtime.BinaryTransform(ArrIndex)
	_ = runtime.UnaryTransform(ArrRange)
	_ = runtime.UnaryTransform(ArrLiteral)
	_ = runtime.BinaryTransform(ArrEq)
	_ = runtime.UnaryTransform(ArrCopy)
	_ = runtime.Reduce(ArrMax)
	_ = runtime.UnaryTransform(Trace)
	_ = runtime.UnaryTransform(Transpose)
	_ = runtime.BinaryTransform(HistoAdd)
	_ = runtime.UnaryTransform(ArrOfStruct)
)
