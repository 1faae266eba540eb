package iter

import goruntime "runtime"

func runtimeFuncForPC(pc uintptr) string {
	if fn := goruntime.FuncForPC(pc); fn != nil {
		return fn.Name()
	}
	return ""
}

// ShuffleRounds is the number of Feistel rounds of Shuffle.
const ShuffleRounds = 6

// mix64 is SplitMix64's finalizer.
func mix64(z uint64) uint64 {
	z += 0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// shuffleBits returns the half width of the Feistel network for n: the
// smallest even number of bits whose range holds [0, n), at least 2, halved.
func shuffleBits(n int64) uint {
	bits := uint(2)
	for bits < 62 && int64(1)<<bits < n {
		bits++
	}
	if bits%2 == 1 {
		bits++
	}
	return bits / 2
}

// ShuffleAt returns element i of the permutation of [0, n) that seed
// draws: a balanced Feistel network of ShuffleRounds rounds over the
// smallest even power of two that holds n, walked until it lands in [0, n)
// (cycle walking keeps it a bijection). gocccl::it::Shuffle computes the
// same values on the device (kernels/include/gocccl/iterator.cuh).
func ShuffleAt(n int64, seed uint64, i int64) int64 {
	half := shuffleBits(n)
	mask := uint64(1)<<half - 1
	x := uint64(i)
	for {
		l, r := x>>half, x&mask
		for round := range uint64(ShuffleRounds) {
			f := mix64(r^mix64(seed+round)) & mask
			l, r = r, l^f
		}
		x = l<<half | r
		if x < uint64(n) {
			return int64(x)
		}
	}
}
