// Package emit turns a model.Package into the files gocccl-gen writes into
// the package directory:
//
//	gocccl_gen.cu              CUDA C++: operators, functors, kernel entry points
//	gocccl_gen.go              Go glue: //go:embed of every image, init() registration
//	gocccl_gen_sm_XY.cubin     SASS for compute capability X.Y, one per target
//	gocccl_gen_compute_XY.ptx  PTX for the highest target
//	gocccl_gen_manifest.json   toolchain, flags, targets, input hash, file hashes
//
// The flow is typed and reads top-down: CUDASource translates the operators
// and instantiates the kernel templates of the kernels package with the
// launch policies of PolicyFor; a Toolchain (nvcc, found by FindNVCC) compiles
// it once per Target, in parallel; GoGlue writes the registration code with
// jennifer; Generate ties them together, reusing earlier artifacts when the
// input hash recorded in the Manifest is unchanged, and Output.Write puts the
// result on disk atomically. Check reports stale files without running nvcc.
//
// A package without algorithm instances gets no files at all, even when it
// has operators: only instances need kernels.
//
// The model names everything as Go does; only this package knows C++. The
// C++ name of every operator, variable, struct type, field and namespace is
// chosen in cnames.go and cvars.go (one escape from Go names, cIdent; the
// names C++ cannot use, reservedC), and the C++ spelling of every type in
// ctypes.go.
//
// Every output is deterministic: the same model, targets and toolchain give
// the same bytes, and no output holds an absolute path.
package emit
