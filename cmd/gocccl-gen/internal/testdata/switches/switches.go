// Package switches holds operators with expression switches.
package switches

//gocccl:op
func Classify(a int32) int32 {
	switch a {
	case 0:
		return 10
	case 1, 2, 3:
		a++
		fallthrough
	case 4:
		a *= 2
	default:
		a = -a
	}
	switch b := a % 5; {
	case b < 0:
		break
	case b > 2:
		a += b
	}
	return a
}

//gocccl:op
func InLoop(a int32) int32 {
loop:
	for i := int32(0); i < 10; i++ {
		switch {
		case i == a:
			break loop
		case i > 5:
			continue
		}
		a += i
	}
	return a
}
