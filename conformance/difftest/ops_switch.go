package difftest

import "github.com/gocccl/gocccl/runtime"

// Control flow, switch: with and without a tag, with init statements, lists
// of cases, fallthrough, default in the middle, break out of a switch.

//gocccl:op
func SwitchTag(x uint8) int32 {
	r := int32(0)
	switch x % 7 {
	case 0:
		r = 100
	case 1, 2:
		r = int32(x)
		fallthrough
	case 3:
		r += 3
	case 4:
		if x > 200 {
			break
		}
		r = -4
	default:
		r = -int32(x)
	}
	return r
}

//gocccl:op
func SwitchNoTag(x float64) int8 {
	switch {
	case x != x:
		return -1
	case x < 0:
		return 1
	case x == 0:
		return 2
	case x < 1:
		return 3
	}
	return 4
}

//gocccl:op
func SwitchInit(x int64) int64 {
	switch y := x & 15; y {
	case 1, 3, 5, 7:
		return y * x
	case 2:
		fallthrough
	case 4:
		return y - x
	}
	return x
}

// SwitchDefaultMiddle falls through into and out of a default placed
// between cases.
//
//gocccl:op
func SwitchDefaultMiddle(x int) int {
	r := 0
	switch x & 3 {
	case 0:
		r += 1
		fallthrough
	default:
		r += 10
		fallthrough
	case 1:
		r += 100
	case 2:
		r += 1000
	}
	return r
}

// SwitchNonConst has case expressions that are not constants, evaluated in
// order.
//
//gocccl:op
func SwitchNonConst(a, b int16) int16 {
	switch a {
	case b:
		return 0
	case b + 1, b - 1:
		return 1
	case -b:
		return 2
	}
	return a
}

// LabeledSwitch leaves a switch from a loop inside it.
//
//gocccl:op
func LabeledSwitch(x int32) int32 {
	n := int32(0)
L:
	switch {
	case x > 0:
		for i := int32(0); ; i++ {
			if i*i > x || i > 1000 {
				break L
			}
			n++
		}
	default:
		n = -1
	}
	return n
}

// ContinueInSwitch: continue inside a switch continues the loop; break
// leaves the switch only.
//
//gocccl:op
func ContinueInSwitch(x uint32) uint32 {
	n := uint32(0)
	for i := uint32(0); i < 32; i++ {
		switch x >> i & 3 {
		case 1:
			continue
		case 2:
			n += 2
			fallthrough
		case 3:
			if i > 30 {
				break
			}
			n++
		}
		n *= 3
	}
	return n
}

var (
	_ = runtime.UnaryTransform(LabeledSwitch)
	_ = runtime.UnaryTransform(ContinueInSwitch)
	_ = runtime.UnaryTransform(SwitchTag)
	_ = runtime.UnaryTransform(SwitchNoTag)
	_ = runtime.UnaryTransform(SwitchInit)
	_ = runtime.UnaryTransform(SwitchDefaultMiddle)
	_ = runtime.BinaryTransform(SwitchNonConst)
)
