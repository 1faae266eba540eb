package difftest

import "github.com/gocccl/gocccl/runtime"

// Subtle points where a line-by-line C++ translation goes wrong: integer
// promotion in comparisons, the copy a range over an array iterates, the
// two phases of a tuple assignment, double rounding of integer-to-float32
// conversions, constant divisors of -1, names that are C++ keywords.

// OverflowCheckUint8 compares wrapped 8-bit results: in C++ a+b and ^a are
// ints and the comparisons never see the wrap.
//
//gocccl:op
func OverflowCheckUint8(a, b uint8) uint8 {
	var r uint8
	if a+b < a {
		r |= 1
	}
	if ^a == 0 {
		r |= 2
	}
	if a*b == 1 {
		r |= 4
	}
	if int8(a)-int8(b) > 0 {
		r |= 8
	}
	if a<<1 < a {
		r |= 16
	}
	return r
}

// SwitchFloatTag switches on a float: -0 matches 0, NaN matches nothing.
//
//gocccl:op
func SwitchFloatTag(x float64) int8 {
	switch x {
	case 0:
		return 1
	case 1, -1:
		return 2
	case x * 2:
		return 3
	}
	return 0
}

// RangeIntTyped ranges over a uint8: i is a uint8 and the loop ends at 255.
//
//gocccl:op
func RangeIntTyped(n uint8) uint32 {
	s := uint32(0)
	for i := range n {
		s = s*3 + uint32(i)
	}
	return s
}

// RangeArrayCopy changes the array while ranging over it: the values come
// from a copy taken before the loop.
//
//gocccl:op
func RangeArrayCopy(a [4]int32) int32 {
	s := int32(0)
	for i, v := range a {
		if i < 3 {
			a[i+1] += v + 1
		}
		s = s*7 + v
	}
	return s ^ a[3]
}

// TupleIndex: the index on the left is evaluated before any assignment.
//
//gocccl:op
func TupleIndex(x int32) [3]int32 {
	var a [3]int32
	i := 0
	i, a[i] = 1, x
	a[i], i = x+1, 2
	a[i] = int32(i)
	return a
}

// Fib uses a tuple assignment whose right side reads both old values.
//
//gocccl:op
func Fib(n uint8) uint64 {
	a, b := uint64(0), uint64(1)
	for range n {
		a, b = b, a+b
	}
	return a
}

// Int64ToFloat32Tricky converts integers near 2^62 + 2^38, where rounding
// through float64 first would land on a float32 tie and round differently.
//
//gocccl:op
func Int64ToFloat32Tricky(x int16) float32 { return float32(int64(1)<<62 + int64(1)<<38 + int64(x)) }

//gocccl:op
func Uint64ToFloat32Tricky(x int16) float32 {
	return float32(uint64(1)<<63 + uint64(1)<<39 + uint64(int64(x)))
}

//gocccl:op
func DivByMinusOne(x int64) int64 { return x/-1 ^ x%-1 }

// KeywordNames uses C++ keywords and names of the CUDA headers as
// identifiers.
//
//gocccl:op
func KeywordNames(class, this int32) int32 {
	auto := class + this
	double := auto * 2
	float, char, template, register := double, auto, class, this
	int32_t := float ^ char
	threadIdx, blockDim := template, register
	return int32_t - threadIdx + blockDim
}

//gocccl:op
func NegUint32(x uint32) uint32 { return -x * 3 }

//gocccl:op
func LenCap(a [5]int8) int { return len(a)*10 + cap(a) + int(a[len(a)-1]) }

//gocccl:op
func NestedLiteral(x uint16) Histo {
	return Histo{Bins: [5]uint16{x, 2: x >> 1, x ^ 0xff}, N: int32(x)}
}

//gocccl:op
func StructArrayEq(a, b Histo) bool { return a == b || a.Bins == b.Bins && a.N != b.N }

// RangeNestedArray ranges over the rows of a matrix, then over a row.
//
//gocccl:op
func RangeNestedArray(m [3][3]float32) float32 {
	s := float32(0)
	for _, row := range m {
		for j := range row {
			s += row[j] * float32(j+1)
		}
	}
	return s
}

// ShadowConst declares a local that shadows a package-level constant.
//
//gocccl:op
func ShadowConst(x int32) int32 {
	Third := x * 2
	{
		Offset := Third + 1
		Third += Offset
	}
	return Third + Offset
}

// LabeledContinueRange sums the values of an array that occur once.
//
//gocccl:op
func LabeledContinueRange(a [6]int16) int32 {
	n := int32(0)
outer:
	for i, v := range a {
		for j := range 6 {
			if a[j] == v && j != i {
				continue outer
			}
		}
		n += int32(v)
	}
	return n
}

var (
	_ = runtime.BinaryTransform(OverflowCheckUint8)
	_ = runtime.UnaryTransform(SwitchFloatTag)
	_ = runtime.UnaryTransform(RangeIntTyped)
	_ = runtime.UnaryTransform(RangeArrayCopy)
	_ = runtime.UnaryTransform(TupleIndex)
	_ = runtime.UnaryTransform(Fib)
	_ = runtime.UnaryTransform(Int64ToFloat32Tricky)
	_ = runtime.UnaryTransform(Uint64ToFloat32Tricky)
	_ = runtime.UnaryTransform(DivByMinusOne)
	_ = runtime.BinaryTransform(KeywordNames)
	_ = runtime.UnaryTransform(NegUint32)
	_ = runtime.UnaryTransform(LenCap)
	_ = runtime.UnaryTransform(NestedLiteral)
	_ = runtime.BinaryTransform(StructArrayEq)
	_ = runtime.UnaryTransform(RangeNestedArray)
	_ = runtime.UnaryTransform(ShadowConst)
	_ = runtime.UnaryTransform(LabeledContinueRange)
)
