package runtime_test

import (
	"fmt"
	"math"

	"github.com/gocccl/gocccl/runtime"
)

// Instances of the radix sorts are declared with their types; gocccl-gen
// generates their kernels, and the CPU backend runs them anywhere.
var (
	sortKeys  = runtime.RadixSortKeys[float32]()
	sortPairs = runtime.RadixSortPairs[uint16, string8]()
)

// string8 is a plain value type: pairs carry any plain type as raw bytes.
type string8 [8]byte

func ExampleRadixSortKeys() {
	d, _ := runtime.Open(runtime.CPU)
	defer d.Close()
	negZero := float32(math.Copysign(0, -1))
	in, _ := runtime.FromHost(d, []float32{3, float32(math.NaN()), -1.5, 0, negZero, float32(math.Inf(-1)), 2})
	out, _ := runtime.Alloc[float32](d, in.Len())
	if err := sortKeys.Run(nil, in, out, runtime.RadixOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	keys, _ := out.ToHost()
	fmt.Println(keys, math.Signbit(float64(keys[2])))

	// Descending, in a double buffer: Current says where the result is.
	buf := runtime.NewDoubleBuffer(in, out)
	_ = sortKeys.RunDoubleBuffer(nil, buf, runtime.RadixOptions{Descending: true})
	keys, _ = buf.Current().ToHost()
	fmt.Println(keys, buf.Selector)
	// Output:
	// [-Inf -1.5 -0 0 2 3 NaN] true
	// [NaN 3 2 0 -0 -1.5 -Inf] 0
}

func ExampleRadixSortPairs() {
	d, _ := runtime.Open(runtime.CPU)
	defer d.Close()
	keys, _ := runtime.FromHost(d, []uint16{0x0302, 0x0101, 0x0201, 0x0102})
	vals, _ := runtime.FromHost(d, []string8{{'a'}, {'b'}, {'c'}, {'d'}})
	// Sort by the low byte only: stable, so equal low bytes keep their order.
	if err := sortPairs.Run(nil, keys, keys, vals, vals, runtime.RadixOptions{EndBit: 8}); err != nil {
		fmt.Println(err)
		return
	}
	k, _ := keys.ToHost()
	v, _ := vals.ToHost()
	for i := range k {
		fmt.Printf("%#04x %c\n", k[i], v[i][0])
	}
	// Output:
	// 0x0101 b
	// 0x0201 c
	// 0x0302 a
	// 0x0102 d
}
