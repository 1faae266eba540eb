package ops

// The benchmark runs on the H200 (compute capability 9.0) only, so its
// kernels are built for that alone: the bundle it travels in stays small.
//gocccl:arch sm_90
