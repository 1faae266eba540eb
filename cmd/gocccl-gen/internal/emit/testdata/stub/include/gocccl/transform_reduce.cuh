// Test stand-in for kernels/include/gocccl/transform_reduce.cuh: the same
// templates, written plainly: one thread of one block transforms and
// reduces everything.
#pragma once

namespace gocccl {

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename In, typename T, typename TransformOp, typename ReductionOp>
__device__ void transform_reduce_single(const In* d_in, long long n, T* d_out, T init) {
  if (threadIdx.x != 0) {
    return;
  }
  TransformOp f;
  ReductionOp op;
  T acc = init;
  for (long long i = 0; i < n; i++) {
    acc = op(acc, f(d_in[i]));
  }
  d_out[0] = acc;
}

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename In, typename T, typename TransformOp, typename ReductionOp>
__device__ void transform_reduce_single_pass(const In* d_in, long long n, T* d_out, T init, void* d_scratch) {
  (void)d_scratch;
  if (blockIdx.x != 0) {
    return;
  }
  transform_reduce_single<BLOCK_THREADS, ITEMS_PER_THREAD, In, T, TransformOp, ReductionOp>(d_in, n, d_out, init);
}

// transform_reduce_deterministic: runtime.GPUToGPU's kernel, the same plain
// fold as transform_reduce_single_pass.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename In, typename T, typename TransformOp, typename ReductionOp>
__device__ void transform_reduce_deterministic(const In* d_in, long long n, T* d_out, T init, void* d_scratch) {
  transform_reduce_single_pass<BLOCK_THREADS, ITEMS_PER_THREAD, In, T, TransformOp, ReductionOp>(d_in, n, d_out, init, d_scratch);
}

}  // namespace gocccl
