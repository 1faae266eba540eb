// Test stand-in for kernels/include/gocccl/transform.cuh (see reduce.cuh).
#pragma once

namespace gocccl {

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename In, typename Out, typename UnaryOp>
__device__ void transform(const In* d_in, Out* d_out, long long n) {
  UnaryOp op;
  const long long base = (long long)blockIdx.x * BLOCK_THREADS * ITEMS_PER_THREAD;
  for (int k = 0; k < ITEMS_PER_THREAD; k++) {
    long long i = base + k * BLOCK_THREADS + threadIdx.x;
    if (i < n) {
      d_out[i] = op(d_in[i]);
    }
  }
}

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename A, typename B, typename Out, typename BinaryOp>
__device__ void transform2(const A* d_a, const B* d_b, Out* d_out, long long n) {
  BinaryOp op;
  const long long base = (long long)blockIdx.x * BLOCK_THREADS * ITEMS_PER_THREAD;
  for (int k = 0; k < ITEMS_PER_THREAD; k++) {
    long long i = base + k * BLOCK_THREADS + threadIdx.x;
    if (i < n) {
      d_out[i] = op(d_a[i], d_b[i]);
    }
  }
}

}  // namespace gocccl
