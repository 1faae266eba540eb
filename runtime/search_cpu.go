package runtime

// searchCPU is the kernel's binary search.
func (o *SearchOp[T]) searchCPU(data []T, v T) int {
	lo, n := 0, len(data)
	for n > 0 {
		half := n / 2
		var right bool
		if o.upper {
			right = o.less(v, data[lo+half])
		} else {
			right = !o.less(data[lo+half], v)
		}
		if right {
			n = half
		} else {
			lo += half + 1
			n -= half + 1
		}
	}
	return lo
}
