// Test stand-in for kernels/include/gocccl/reduce.cuh: the same templates
// (docs/ARCHITECTURE.md, "Kernel ABI"), written plainly, so that emit's tests
// can compile generated sources before or without the real header.
#pragma once

#include <gocccl/reduce_final.cuh>

namespace gocccl {

// reduce_single_pass: one thread of one block reduces everything, as
// reduce_final does; the real header's blocks reduce tiles and the last to
// finish combines them.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp>
__device__ void reduce_single_pass(const T* d_in, long long n, T* d_out, T init, void* d_scratch) {
  (void)d_scratch;
  if (blockIdx.x != 0) {
    return;
  }
  reduce_final<BLOCK_THREADS, ITEMS_PER_THREAD, T, ReductionOp>(d_in, n, d_out, init);
}

// reduce_deterministic: runtime.GPUToGPU's kernel, the same plain fold (the
// real header's fixed tree of tiles gives the same bits on any grid).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename ReductionOp>
__device__ void reduce_deterministic(const T* d_in, long long n, T* d_out, T init, void* d_scratch) {
  reduce_single_pass<BLOCK_THREADS, ITEMS_PER_THREAD, T, ReductionOp>(d_in, n, d_out, init, d_scratch);
}

}  // namespace gocccl
