package runtime_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/gocccl/gocccl/runtime"
)

// A buffer used by one asynchronous call can be dropped right after the
// call: FreeAfter frees it once the work enqueued on the stream so far has
// completed, without waiting for it. The slice is unusable from then on. On
// the CPU backend, where calls complete before returning, it is Free.
func ExampleSlice_FreeAfter() {
	dev, err := runtime.Open(runtime.CPU)
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	s, err := dev.NewStream()
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	total := runtime.InclusiveScan(addInt)
	out, _ := runtime.Alloc[int](dev, 4)
	for step := range 3 {
		in, _ := runtime.FromHost(dev, []int{step, 1, 2, 3})
		if err := total.Run(s, in, out); err != nil {
			log.Fatal(err)
		}
		if err := in.FreeAfter(s); err != nil { // no wait: freed when the scan is done
			log.Fatal(err)
		}
		if _, err := in.ToHost(); errors.Is(err, runtime.ErrFreed) && step == 0 {
			fmt.Println("in is unusable after FreeAfter:", err)
		}
	}
	if err := s.Synchronize(); err != nil {
		log.Fatal(err)
	}
	got, _ := out.ToHost()
	fmt.Println(got)
	// Output:
	// in is unusable after FreeAfter: gocccl: ToHost: slice was freed
	// [2 3 5 8]
}
