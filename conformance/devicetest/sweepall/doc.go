// Package sweepall holds the sweep of issue 13 over every algorithm of
// gocccl and every element type the conformance packages instantiate for
// it, without kernels of its own: its test drives the instances that
// conformance/devicetest and its family packages (scan, select, radixsort,
// segsort, mergesort, histogram, segmented) generate and export. Every
// state allocates fresh buffers, runs one algorithm, checks the result
// against the host, and frees the buffers or drops them to the garbage
// collector; after every state the device's memory in use, its live
// allocations and its loaded modules must be back at their baselines.
//
//	go test ./conformance/devicetest/sweepall -sweepall.mib=64 -sweepall.states=0
//
// Without a GPU the test skips, except under -short, which runs every
// algorithm once per type with small buffers on the CPU backend.
package sweepall
