// Package loops holds operators with every form of for and range.
package loops

const n = 4

//gocccl:op
func Count(a, b int32) int32 {
	s := int32(0)
	for i := int32(0); i < a; i++ {
		s += i
	}
	for s < b {
		s *= 2
	}
	for {
		if s > 100 {
			break
		}
		s += b
	}
	for i, j := 0, 10; i < j; i, j = i+1, j-1 {
		s ^= int32(i * j)
	}
	return s
}

//gocccl:op
func Labels(a int32) int32 {
	s := a
outer:
	for i := range n {
		for j := range int32(3) {
			if j == 1 {
				continue outer
			}
			if i == 3 {
				break outer
			}
			s += j
		}
	}
	return s
}

//gocccl:op
func Ranges(a [3]float32) float32 {
	var t float32
	for _, v := range a {
		t += v
	}
	for i := range a {
		a[i] = 0
	}
	var k int
	for k = range 5 {
		t += float32(k)
	}
	for range 2 {
		t *= 2
	}
	return t + a[0]
}
