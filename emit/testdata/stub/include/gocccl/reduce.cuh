// Test stand-in for kernels/include/gocccl/reduce.cuh: the same templates
// (docs/ARCHITECTURE.md, "Kernel ABI"), written plainly, so that emit's tests
// can compile generated sources before or without the real header.
#pragma once

namespace gocccl {

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp>
__device__ void reduce_partial(const T* d_in, long long n, T* d_partials) {
  if (threadIdx.x != 0) {
    return;
  }
  ReductionOp op;
  const long long tile = BLOCK_THREADS * ITEMS_PER_THREAD;
  long long begin = blockIdx.x * tile;
  if (begin >= n) {
    return;
  }
  T acc = d_in[begin];
  for (long long i = begin + 1; i < n; i++) {
    acc = op(acc, d_in[i]);
  }
  d_partials[blockIdx.x] = acc;
}

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp>
__device__ void reduce_final(const T* d_in, long long n, T* d_out, T init) {
  if (threadIdx.x != 0) {
    return;
  }
  ReductionOp op;
  T acc = init;
  for (long long i = 0; i < n; i++) {
    acc = op(acc, d_in[i]);
  }
  d_out[0] = acc;
}

}  // namespace gocccl
