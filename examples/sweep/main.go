// Command sweep is the seed issue's sweep in Go: it runs every algorithm of
// its suites over every element type again and again, each state allocating
// fresh inputs and outputs, using them once and dropping them (half freed
// explicitly, half left to the garbage collector), until it has allocated
// many times the device's memory. After every state the device's memory in
// use must be back at its baseline and the device must hold one loaded
// module; the sweep prints its progress and exits non-zero otherwise.
//
//	go generate ./examples/sweep && go run ./examples/sweep [-states 300] [-mib 0]
//
// On a GPU a state's buffers hold 1/64 of the card's memory each (at least
// 64 MiB), so 300 states allocate about nine times the card; on the CPU
// backend they hold 64 MiB.
//
// Its kernels are SASS for Ampere and Hopper (sm_80, which also runs on
// sm_86 and sm_89, and sm_90), so the first call loads without a JIT. Its 80
// instances make 3 MB of SASS per target, so it ships two: on a Blackwell
// GPU, change the //gocccl:arch line below to sm_100 or sm_120 and run go
// generate (the error of a run without a fitting image says which targets
// were built).
package main

//go:generate gocccl-gen

//gocccl:arch sm_80,sm_90

import (
	"flag"
	"log"
	"os"

	"github.com/gocccl/gocccl/runtime"
)

func main() {
	states := flag.Int("states", 300, "states to run")
	mib := flag.Int64("mib", 0, "MiB per buffer (0: 1/64 of the GPU's memory, at least 64; 64 on the CPU backend)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("sweep: ")
	d, err := runtime.Open(runtime.Auto)
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	if err := sweep(d, *states, *mib<<20, os.Stdout); err != nil {
		log.Fatal(err)
	}
}
