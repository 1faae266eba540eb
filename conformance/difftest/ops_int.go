package difftest

import "github.com/gocccl/gocccl/runtime"

// Integers: wrapping arithmetic at every width, bit operators, comparisons,
// op= forms, ++/--, and arithmetic on narrow types that C++ would promote.

//gocccl:op
func AddWrapInt8(a, b int8) int8 { return a + b }

//gocccl:op
func SubMulInt16(a, b int16) int16 { return a*b - (a - b) }

//gocccl:op
func NegInt32(x int32) int32 { return -x + -(x >> 1) }

//gocccl:op
func MulXorInt64(a, b int64) int64 { return a*b ^ (a + b) ^ (a - b) }

//gocccl:op
func MulInt(a, b int) int { return a * b * 3 }

//gocccl:op
func BitOpsUint8(a, b uint8) uint8 { return (a &^ b) | (^a & b) ^ (a|b)&0x5a }

// PromoteUint8 multiplies at 8 bits: C++ would compute a*b as an int.
//
//gocccl:op
func PromoteUint8(a, b uint8) uint8 { return a * b / 3 }

// PromoteUint16 multiplies at 16 bits: in C++ 65535*65535 overflows int.
//
//gocccl:op
func PromoteUint16(a, b uint16) uint16 { return a * b >> 4 }

//gocccl:op
func ComplementUint32(x uint32) uint32 { return ^x + x*0x9e3779b9 }

//gocccl:op
func UnaryOpsInt16(x int16) int16 { return -x ^ ^x + +x }

//gocccl:op
func CompareInt64(a, b int64) uint8 {
	var r uint8
	if a < b {
		r |= 1
	}
	if a <= b {
		r |= 2
	}
	if a == b {
		r |= 4
	}
	if a != b {
		r |= 8
	}
	if a > b {
		r |= 16
	}
	if a >= b {
		r |= 32
	}
	return r
}

//gocccl:op
func CompareUint(a, b uint) bool { return a < b && a+b > a || a >= b && a-b < 100 }

//gocccl:op
func LogicBool(a, b bool) bool { return a && !b || (a != b) == a }

//gocccl:op
func AssignOpsUint(x uint) uint {
	x++
	x++
	x--
	x += 7
	x -= 3
	x *= 5
	x /= 3
	x %= 1 << 40
	x |= 1
	x &= ^uint(4)
	x &^= 2
	x ^= 0xF0
	x <<= 1
	x >>= 2
	return x
}

//gocccl:op
func AssignOpsInt8(x int8) int8 {
	x--
	x *= 3
	x += 100
	x >>= 1
	x <<= 2
	x ^= -1
	return x
}

//gocccl:op
func UintptrMix(a, b uintptr) uintptr { return a*31 + b ^ a>>7 }

//gocccl:op
func MixedWidth(a int32, b uint32) int64 { return int64(a)*int64(b) - int64(b>>1) }

//gocccl:op
func AddInt8(a, b int8) int8 { return a + b }

//gocccl:op
func MulWrapInt64(a, b int64) int64 { return a * b }

//gocccl:op
func XorUint32(a, b uint32) uint32 { return a ^ b }

//gocccl:op
func OrUint16(a, b uint16) uint16 { return a | b }

var (
	_ = runtime.BinaryTransform(AddWrapInt8)
	_ = runtime.BinaryTransform(SubMulInt16)
	_ = runtime.UnaryTransform(NegInt32)
	_ = runtime.BinaryTransform(MulXorInt64)
	_ = runtime.BinaryTransform(MulInt)
	_ = runtime.BinaryTransform(BitOpsUint8)
	_ = runtime.BinaryTransform(PromoteUint8)
	_ = runtime.BinaryTransform(PromoteUint16)
	_ = runtime.UnaryTransform(ComplementUint32)
	_ = runtime.UnaryTransform(UnaryOpsInt16)
	_ = runtime.BinaryTransform(CompareInt64)
	_ = runtime.BinaryTransform(CompareUint)
	_ = runtime.BinaryTransform(LogicBool)
	_ = runtime.UnaryTransform(AssignOpsUint)
	_ = runtime.UnaryTransform(AssignOpsInt8)
	_ = runtime.BinaryTransform(UintptrMix)
	_ = runtime.BinaryTransform(MixedWidth)
	_ = runtime.Reduce(AddInt8)
	_ = runtime.Reduce(MulWrapInt64)
	_ = runtime.Reduce(XorUint32)
	_ = runtime.Reduce(OrUint16)
)
