package difftest

import (
	"math/bits"

	"github.com/gocccl/gocccl/runtime"
)

// math/bits: counts, rotations (negative counts rotate right), reversals,
// lengths, and add/sub/mul with carry and two results.

//gocccl:op
func BitsOnesCount(x uint64) int {
	return bits.OnesCount64(x) + bits.OnesCount32(uint32(x))<<8 +
		bits.OnesCount16(uint16(x))<<16 + bits.OnesCount8(uint8(x))<<24 + bits.OnesCount(uint(x>>3))<<32
}

//gocccl:op
func BitsLeadingZeros(x uint64) int {
	return bits.LeadingZeros64(x) + bits.LeadingZeros32(uint32(x))<<8 +
		bits.LeadingZeros16(uint16(x))<<16 + bits.LeadingZeros8(uint8(x))<<24 + bits.LeadingZeros(uint(x>>5))<<32
}

//gocccl:op
func BitsTrailingZeros(x uint64) int {
	return bits.TrailingZeros64(x) + bits.TrailingZeros32(uint32(x))<<8 +
		bits.TrailingZeros16(uint16(x))<<16 + bits.TrailingZeros8(uint8(x))<<24 + bits.TrailingZeros(uint(x>>7))<<32
}

//gocccl:op
func BitsLen(x uint64) int {
	return bits.Len64(x) + bits.Len32(uint32(x))<<8 + bits.Len16(uint16(x))<<16 + bits.Len8(uint8(x))<<24 + bits.Len(uint(x>>9))<<32
}

//gocccl:op
func BitsRotate64(x uint64, k int) uint64 { return bits.RotateLeft64(x, k) }

//gocccl:op
func BitsRotate32(x uint32, k int) uint32 {
	return bits.RotateLeft32(x, k) ^ uint32(bits.RotateLeft(uint(x), -k))
}

//gocccl:op
func BitsRotate8(x uint8, k int8) uint16 {
	return uint16(bits.RotateLeft8(x, int(k))) | bits.RotateLeft16(uint16(x)<<4, int(k))
}

//gocccl:op
func BitsReverse(x uint64) uint64 {
	return bits.Reverse64(x) ^ uint64(bits.Reverse32(uint32(x))) ^ uint64(bits.Reverse16(uint16(x)))<<32 ^ uint64(bits.Reverse8(uint8(x)))<<48
}

//gocccl:op
func BitsReverseBytes(x uint64) uint64 {
	return bits.ReverseBytes64(x) ^ uint64(bits.ReverseBytes32(uint32(x>>16))) ^ uint64(bits.ReverseBytes16(uint16(x)))<<40 ^ uint64(bits.ReverseBytes(uint(x>>1)))
}

//gocccl:op
func BitsAdd64(a, b uint64) uint64 {
	s, c := bits.Add64(a, b, 0)
	s2, c2 := bits.Add64(s, a, c)
	return s2 ^ c<<63 ^ c2<<62
}

//gocccl:op
func BitsSub64(a, b uint64) uint64 {
	d, borrow := bits.Sub64(a, b, 0)
	return d ^ borrow<<63
}

//gocccl:op
func BitsMul64(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

//gocccl:op
func BitsAddMul32(a, b uint32) uint32 {
	s, c := bits.Add32(a, b, 1)
	d, bo := bits.Sub32(a, b, 1)
	hi, lo := bits.Mul32(a, b)
	return s ^ c<<31 ^ d ^ bo<<30 ^ hi ^ lo
}

var (
	_ = runtime.UnaryTransform(BitsOnesCount)
	_ = runtime.UnaryTransform(BitsLeadingZeros)
	_ = runtime.UnaryTransform(BitsTrailingZeros)
	_ = runtime.UnaryTransform(BitsLen)
	_ = runtime.BinaryTransform(BitsRotate64)
	_ = runtime.BinaryTransform(BitsRotate32)
	_ = runtime.BinaryTransform(BitsRotate8)
	_ = runtime.UnaryTransform(BitsReverse)
	_ = runtime.UnaryTransform(BitsReverseBytes)
	_ = runtime.BinaryTransform(BitsAdd64)
	_ = runtime.BinaryTransform(BitsSub64)
	_ = runtime.BinaryTransform(BitsMul64)
	_ = runtime.BinaryTransform(BitsAddMul32)
)
