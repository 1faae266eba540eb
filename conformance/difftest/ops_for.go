package difftest

import "github.com/gocccl/gocccl/runtime"

// Control flow, for: three-clause, condition-only and infinite loops, break
// and continue with and without labels, range over an integer, loops with
// computed bounds.

//gocccl:op
func ForThreeClause(x uint32) uint32 {
	s := uint32(0)
	for i := 0; i < 32; i++ {
		if x>>i&1 == 0 {
			continue
		}
		s += uint32(i) * 3
	}
	return s
}

//gocccl:op
func ForCond(x uint64) int {
	n := 0
	for x != 0 {
		x &= x - 1
		n++
	}
	return n
}

// ForInfinite counts Collatz steps, at most 300.
//
//gocccl:op
func ForInfinite(x uint16) uint16 {
	steps := uint16(0)
	n := uint64(x) | 1
	for {
		if n == 1 || steps >= 300 {
			break
		}
		if n%2 == 0 {
			n /= 2
		} else {
			n = 3*n + 1
		}
		steps++
	}
	return steps
}

//gocccl:op
func ForLabels(a, b int16) int32 {
	r := int32(0)
outer:
	for i := int16(0); i < 16; i++ {
		for j := int16(0); j < 16; j++ {
			if (a+i)&7 == 0 {
				continue outer
			}
			if (b^j)&15 == 3 {
				r += int32(j)
				continue
			}
			if i*j > a&63 {
				break outer
			}
			r += int32(i ^ j)
		}
	}
	return r
}

// ForSwitchBreak leaves a loop from inside a switch with a labelled break;
// an unlabelled break there leaves only the switch.
//
//gocccl:op
func ForSwitchBreak(x uint32) uint32 {
	acc := uint32(0)
loop:
	for i := uint32(0); i < 40; i++ {
		switch (x >> (i % 32)) & 3 {
		case 0:
			break
		case 1:
			acc += i
		case 2:
			if i > 20 {
				break loop
			}
			acc ^= i << 3
		default:
			continue loop
		}
		acc++
	}
	return acc
}

//gocccl:op
func RangeInt(x int32) int32 {
	s := int32(0)
	for i := range 10 {
		s += x >> i
	}
	for range 3 {
		s ^= s << 1
	}
	return s
}

// ForComputed loops up to a bound read from the input.
//
//gocccl:op
func ForComputed(x uint8) uint32 {
	h := uint32(2166136261)
	for i := uint8(0); i < x; i++ {
		h ^= uint32(i)
		h *= 16777619
	}
	return h
}

// ForNoInit has a condition and a post statement but no init.
//
//gocccl:op
func ForNoInit(x float64) float64 {
	i := 0
	for ; i < 5 && x < 1e6; i++ {
		x = float64(x*1.5) + 1
	}
	return x + float64(i)
}

var (
	_ = runtime.UnaryTransform(ForThreeClause)
	_ = runtime.UnaryTransform(ForCond)
	_ = runtime.UnaryTransform(ForInfinite)
	_ = runtime.BinaryTransform(ForLabels)
	_ = runtime.UnaryTransform(ForSwitchBreak)
	_ = runtime.UnaryTransform(RangeInt)
	_ = runtime.UnaryTransform(ForComputed)
	_ = runtime.UnaryTransform(ForNoInit)
)
