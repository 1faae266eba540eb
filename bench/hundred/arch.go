package hundred

// Timed on the H200 (compute capability 9.0) only, as bench/ops.
//gocccl:arch sm_90
