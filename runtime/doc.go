// Package runtime is what gocccl-generated code and its users import: devices
// (a CUDA GPU or the CPU backend), streams, typed device buffers, the registry
// of generated modules, and the algorithm handles with their host dispatch.
//
// Algorithm instances are declared with generic constructors over operators
// marked //gocccl:op, so the Go compiler checks their types and gocccl-gen
// finds them statically:
//
//	//gocccl:op
//	func Add(a, b float32) float32 { return a + b }
//
//	var Sum = runtime.Reduce(Add) // *runtime.ReduceOp[float32]
//
//	err := Sum.Run(stream, in, out, 0)
//
// An operator that reads a value known only at run time is a method whose
// receiver is that per-call state, declared with the algorithm's stateful
// constructor and given its state per call (see Stateful):
//
//	//gocccl:op
//	func (p Axpy) Apply(x, y float32) float32 { return p.Alpha*x + y }
//
//	var Saxpy = runtime.BinaryTransformWith(Axpy.Apply)
//
//	err := Saxpy.Bind(Axpy{Alpha: alpha}).Run(stream, x, y, out)
//
// On a GPU, Run launches kernels that gocccl-gen compiled ahead of time; the
// package's generated glue registers them when the program starts. On the CPU
// backend, Run calls the Go operator itself, one goroutine per core, so every
// program also runs, and can be checked, on machines without a GPU.
//
// A state may also hold read-only views of device buffers, made by
// Slice.View and read in the operator with At and Len (a lookup table, say):
//
//	type Lut struct {
//		Scale float32
//		Table runtime.View[float32]
//	}
//
//	//gocccl:op
//	func (l Lut) Get(i uint32) float32 { return l.Scale * l.Table.At(int(i)) }
//
//	err := LutMap.Bind(Lut{Scale: 2, Table: table.View()}).Run(stream, in, out)
//
// # What gocccl keeps, and what the caller keeps alive
//
// Nothing here caches a caller's buffers or states: a call binds its pointers
// and copies its state into its launches and keeps nothing afterwards, not
// the buffers, not the state, not the Slices its Views refer to, not the
// handle Bind returned (the device remembers only the declared instance that
// launched last, for fault messages). The only state that outlives a call is
// the bounded set of loaded modules (one per instance that ran and device),
// released by Device.Close, and per-stream scratch memory. Every call checks
// that each View of its state refers to a Slice that is still allocated, on
// the call's device, and fails otherwise (a freed one matches ErrFreed).
//
// The caller keeps alive what the stream work reads: a call returns once
// its work is enqueued, so every buffer it was given, and every Slice whose
// View its state holds, must stay allocated (not freed, and reachable) until
// that work has completed: until the stream is synchronized, or a later call
// that waits for it (such as ToHost) returns. A handle from Bind holds a copy
// of the state, so it keeps the Slices of the state's Views reachable for as
// long as the caller keeps the handle; dropping both leaves them to the
// garbage collector, whose cleanup returns their device memory.
package runtime

// Where things are, for readers of the source: an algorithm X has its
// handle, its constructor X, Run and TempStorageBytes in x.go (Select,
// Partition and ThreeWayPartition in select.go, Fill and Generate in
// fill.go, the compactions' shared launch sequence in compaction.go). The Go
// functions that run it on the CPU backend are in x_cpu.go (the compactions'
// in select_cpu.go), beside what every CPU path shares in cpu.go (parallel);
// the CPU paths of a few lines (ForEach, the transforms, Fill, Generate,
// AdjacentDifference) stay inside Run. The radix and segmented sorts' GPU
// launch sequences are in radix_sort_gpu.go and segmented_sort_gpu.go, the
// others' beside their Run. The argument checks that the Runs share (the
// stream, the buffers, overlap) are in args.go. The stateful constructors,
// XWith for each X that has one, are all in state_with.go rather than beside
// X: they are one family, each a few lines over Stateful,
// newStatefulInstance and bound (state.go).
// The N×M transforms (Transform3 … Transform4x3) and their XWith
// constructors are the exception: transform_nm.go is written out from one
// template per arity by TestTransformNMSource (transform_nm_gen_test.go),
// over what they share in transform_nm_args.go.
