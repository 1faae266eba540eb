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
// The package's files come in three groups, one per part of the job, and
// each file's name says its group:
//
//	cuda_*.go   the CUDA writer: operators translated to C++ (cuda_op.go,
//	            cuda_flow.go, cuda_intrinsic.go, cuda_nantwin.go), their
//	            types and names (cuda_types.go, cuda_ctypes.go, cuda_names.go,
//	            cuda_vars.go, cuda_reserved.go, cuda_const.go), the kernel
//	            instantiation (cuda_source.go, cuda_iter.go) with its launch
//	            policies (cuda_policy.go), and the line writer (cuda_writer.go)
//	nvcc_*.go   the nvcc driver: finding the toolchain and its targets
//	            (nvcc_find.go, nvcc_targets.go, nvcc_toolchain.go), one compile
//	            per target (nvcc_compile.go), the spill guard
//	            (nvcc_spillguard.go), the PTX split into per-instance parts
//	            (nvcc_ptxsplit.go, nvcc_ptxisa.go) and the compile cache
//	            (nvcc_cache.go)
//	glue_*.go   the Go side: the registration glue (glue_go.go), the
//	            operator-hash test (glue_gotest.go), the images' layout
//	            (glue_artifact.go) and the manifest with check's report
//	            (glue_manifest.go, glue_checkdiff.go)
//
// generate.go ties the groups together, files.go names the files written,
// target.go the targets.
//
// The model names everything as Go does; only this package knows C++. The
// C++ name of every operator, variable, struct type, field and namespace is
// chosen in cuda_names.go and cuda_vars.go (one escape from Go names,
// cIdent; the names C++ cannot use, reservedC), and the C++ spelling of
// every type in cuda_ctypes.go.
//
// Every output is deterministic: the same model, targets and toolchain give
// the same bytes, and no output holds an absolute path.
package emit
