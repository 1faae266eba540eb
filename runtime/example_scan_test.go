package runtime_test

import (
	"fmt"
	"log"
	"math"

	"github.com/gocccl/gocccl/runtime"
)

//gocccl:op
func addInt(a, b int) int { return a + b }

//gocccl:op
func maxInt32(a, b int32) int32 { return max(a, b) }

// A running total: out[i] = in[0] + … + in[i]. On a GPU the instance's
// kernels come from gocccl-gen; this example runs on the CPU backend.
func ExampleInclusiveScan() {
	dev, err := runtime.Open(runtime.CPU)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	in, _ := runtime.FromHost(dev, []int{3, 1, 4, 1, 5, 9, 2, 6})
	out, _ := runtime.Alloc[int](dev, in.Len())

	total := runtime.InclusiveScan(addInt)
	if err := total.Run(nil, in, out); err != nil {
		log.Fatal(err)
	}
	got, _ := out.ToHost()
	fmt.Println(got)

	// With an init value, read from device memory when the scan runs.
	init, _ := runtime.FromHost(dev, []int{100})
	if err := total.RunWithInitFrom(nil, in, out, init); err != nil {
		log.Fatal(err)
	}
	got, _ = out.ToHost()
	fmt.Println(got)
	// Output:
	// [3 4 8 9 14 23 25 31]
	// [103 104 108 109 114 123 125 131]
}

// The running maximum of the elements before each one, seeded with an init
// value: no identity element is needed, so any init works.
func ExampleExclusiveScan() {
	dev, err := runtime.Open(runtime.CPU)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	in, _ := runtime.FromHost(dev, []int32{-7, -3, -9, 2, -1})
	out, _ := runtime.Alloc[int32](dev, in.Len())

	before := runtime.ExclusiveScan(maxInt32)
	if err := before.Run(nil, in, out, -5); err != nil {
		log.Fatal(err)
	}
	got, _ := out.ToHost()
	fmt.Println(got)
	if err := before.Run(nil, in, out, math.MinInt32); err != nil {
		log.Fatal(err)
	}
	got, _ = out.ToHost()
	fmt.Println(got)
	// Output:
	// [-5 -5 -3 -3 2]
	// [-2147483648 -7 -3 -3 2]
}

//gocccl:op
func sameKey(a, b string8) bool { return a == b }

// string8 (example_radix_sort_test.go) is a short fixed-size name, plain data
// that a Slice can hold.

func name(s string) (n string8) {
	copy(n[:], s)
	return n
}

// Running totals per customer, restarting wherever the key changes.
func ExampleInclusiveScanByKey() {
	dev, err := runtime.Open(runtime.CPU)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	keys, _ := runtime.FromHost(dev, []string8{name("ann"), name("ann"), name("bob"), name("bob"), name("bob"), name("ann")})
	amounts, _ := runtime.FromHost(dev, []int{5, 7, 1, 2, 3, 4})
	out, _ := runtime.Alloc[int](dev, amounts.Len())

	if err := runtime.InclusiveScanByKey(sameKey, addInt).Run(nil, keys, amounts, out); err != nil {
		log.Fatal(err)
	}
	got, _ := out.ToHost()
	fmt.Println(got)
	// Output: [5 12 1 3 6 4]
}

// The largest value earlier in each segment, seeded with init at every
// segment start.
func ExampleExclusiveScanByKey() {
	dev, err := runtime.Open(runtime.CPU)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	keys, _ := runtime.FromHost(dev, []string8{name("x"), name("x"), name("x"), name("y"), name("y")})
	vals, _ := runtime.FromHost(dev, []int32{-4, -9, -1, 6, 2})
	out, _ := runtime.Alloc[int32](dev, vals.Len())

	if err := runtime.ExclusiveScanByKey(sameKey, maxInt32).Run(nil, keys, vals, out, -7); err != nil {
		log.Fatal(err)
	}
	got, _ := out.ToHost()
	fmt.Println(got)
	// Output: [-7 -4 -4 -7 6]
}
