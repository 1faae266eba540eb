// Test stand-in of reduce_final, the second kernel of
// kernels/include/gocccl/reduce.cuh, written plainly: one thread combines
// the partial results. Included by the stand-ins of reduce.cuh in
// testdata/stub and testdata/spill.
#pragma once

namespace gocccl {

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
