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
// Nothing here caches a caller's buffers or states: a call binds its pointers
// and copies its state into its launches and keeps nothing afterwards. The only state that
// outlives a call is the bounded set of loaded modules (one per generated
// package and device), released by Device.Close.
package runtime
