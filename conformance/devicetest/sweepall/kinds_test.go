package sweepall

import (
	"math/rand/v2"

	"github.com/gocccl/gocccl/conformance/devicetest/mergesort"
	"github.com/gocccl/gocccl/conformance/devicetest/radixsort"
	"github.com/gocccl/gocccl/conformance/devicetest/scan"
	"github.com/gocccl/gocccl/conformance/devicetest/segmented"
	"github.com/gocccl/gocccl/conformance/devicetest/segsort"
	selecttest "github.com/gocccl/gocccl/conformance/devicetest/select"
)

// kind is an element type: its name, random values, and values made from
// run ids (distinct for nearby ids).
type kind[T any] struct {
	name    string
	gen     func(r *rand.Rand) T
	fromInt func(int) T
}

// number is the numeric element types.
type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~int |
		~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uint | ~uintptr |
		~float32 | ~float64
}

// num is the kind of a numeric type: integers over their whole range,
// floats normally distributed.
func num[T number](name string) kind[T] {
	var gen func(r *rand.Rand) T
	switch any(*new(T)).(type) {
	case float32, float64:
		gen = func(r *rand.Rand) T { return T(r.NormFloat64()) }
	default:
		gen = func(r *rand.Rand) T { return T(r.Uint64()) }
	}
	return kind[T]{name: name, gen: gen, fromInt: func(i int) T { return T(i) }}
}

var (
	kInt8    = num[int8]("int8")
	kInt16   = num[int16]("int16")
	kInt32   = num[int32]("int32")
	kInt64   = num[int64]("int64")
	kInt     = num[int]("int")
	kUint8   = num[uint8]("uint8")
	kUint16  = num[uint16]("uint16")
	kUint32  = num[uint32]("uint32")
	kUint64  = num[uint64]("uint64")
	kUint    = num[uint]("uint")
	kUintptr = num[uintptr]("uintptr")
	kFloat32 = num[float32]("float32")
	kFloat64 = num[float64]("float64")

	kItem = kind[selecttest.Item]{name: "select.Item",
		gen: func(r *rand.Rand) selecttest.Item {
			return selecttest.Item{Key: r.Uint32(), Weight: float32(r.NormFloat64())}
		},
		fromInt: func(i int) selecttest.Item { return selecttest.Item{Key: uint32(i), Weight: float32(i%5) - 2} },
	}
	kAffine = kind[scan.Affine]{name: "scan.Affine",
		gen: func(r *rand.Rand) scan.Affine { return scan.Affine{A: r.Uint32() | 1, B: r.Uint32()} },
	}
	kStats = kind[scan.Stats]{name: "scan.Stats",
		gen: func(r *rand.Rand) scan.Stats {
			return scan.Stats{N: int64(r.IntN(4)), Sum: r.NormFloat64(), Max: int32(r.Uint32())}
		},
	}
	kStat = kind[segmented.Stat]{name: "segmented.Stat",
		gen: func(r *rand.Rand) segmented.Stat {
			return segmented.Stat{Sum: r.NormFloat64(), Min: float32(r.NormFloat64()), Count: int32(r.IntN(3))}
		},
	}
	kSpan = kind[segmented.Span]{name: "segmented.Span",
		gen: func(r *rand.Rand) segmented.Span {
			return segmented.Span{First: int64(r.Uint64()), Last: int64(r.Uint64())}
		},
	}
	kRecord = kind[mergesort.Record]{name: "mergesort.Record",
		gen: func(r *rand.Rand) mergesort.Record {
			return mergesort.Record{Group: int32(r.IntN(64)), Score: float64(r.IntN(16)), ID: uint16(r.Uint32())}
		},
	}
	kMergePayload = kind[mergesort.Payload]{name: "mergesort.Payload",
		gen: func(r *rand.Rand) mergesort.Payload {
			return mergesort.Payload{Index: int64(r.Uint64()), Pad: [4]float64{r.NormFloat64(), 1, 2, r.NormFloat64()}}
		},
	}
	kRadixPayload = kind[radixsort.Payload]{name: "radixsort.Payload",
		gen: func(r *rand.Rand) radixsort.Payload {
			return radixsort.Payload{Index: r.Uint32(), Tag: int16(r.Uint32()), F: [3]float64{r.NormFloat64(), 0, r.NormFloat64()}}
		},
	}
	kRadixBig = kind[radixsort.Big]{name: "radixsort.Big",
		gen: func(r *rand.Rand) radixsort.Big {
			b := radixsort.Big{Index: r.Uint64()}
			b.Pad[0], b.Pad[23] = r.Uint64(), r.Uint64()
			return b
		},
	}
	kSegPayload = kind[segsort.Payload]{name: "segsort.Payload",
		gen: func(r *rand.Rand) segsort.Payload {
			return segsort.Payload{Index: r.Uint32(), Tag: int16(r.Uint32()), F: [3]float64{r.NormFloat64(), 0, r.NormFloat64()}}
		},
	}
	kSegBig = kind[segsort.Big]{name: "segsort.Big",
		gen: func(r *rand.Rand) segsort.Big {
			b := segsort.Big{Index: r.Uint64()}
			b.Pad[0], b.Pad[23] = r.Uint64(), r.Uint64()
			return b
		},
	}
)
