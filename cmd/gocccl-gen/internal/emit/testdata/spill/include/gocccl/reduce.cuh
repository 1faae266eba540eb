// Test stand-in for kernels/include/gocccl/reduce.cuh that needs many
// registers: reduce_single_pass keeps ITEMS_PER_THREAD items of every thread
// live across a barrier (the loads cannot move past it), so under a tight
// __launch_bounds__ ptxas spills, and the spill guard's test can watch it
// relax the bound. reduce_final (testdata/stub's) is small and never spills.
#pragma once

#include <gocccl/reduce_final.cuh>

namespace gocccl {

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp>
__device__ void reduce_single_pass(const T* d_in, long long n, T* d_out, T init, void* d_scratch) {
  (void)d_scratch;
  ReductionOp op;
  T items[ITEMS_PER_THREAD];
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; i++) {
    long long at = threadIdx.x + (long long)i * BLOCK_THREADS;
    items[i] = at < n ? d_in[at] : init;
  }
  __syncthreads();
  T acc = init;
#pragma unroll
  for (int i = ITEMS_PER_THREAD - 1; i >= 0; i--) {
    acc = op(acc, items[i]);
    d_out[1 + threadIdx.x + (long long)i * BLOCK_THREADS] = acc;
  }
  d_out[0] = acc;
}

// reduce_deterministic (runtime.GPUToGPU's kernel): a plain fold by one
// thread, so that only the sweep above spills.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp>
__device__ void reduce_deterministic(const T* d_in, long long n, T* d_out, T init, void* d_scratch) {
  (void)d_scratch;
  if (blockIdx.x != 0 || threadIdx.x != 0) {
    return;
  }
  T acc = init;
  for (long long i = 0; i < n; ++i) {
    acc = ReductionOp()(acc, d_in[i]);
  }
  *d_out = acc;
}

}  // namespace gocccl
