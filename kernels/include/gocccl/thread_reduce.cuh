/*
 * gocccl/thread_reduce.cuh: one thread's reduction of the items it holds in
 * registers, as cub/thread/thread_reduce.cuh's binary tree: pairs at
 * distance 1, then 2, 4, ...; the same number of operator calls as a serial
 * fold, but log2(N) of them in each dependency chain instead of N - 1, so a
 * floating-point operator, which the compiler may not reassociate, does not
 * wait on its own latency. The order is fixed by N, so the result is
 * deterministic; the operator must be associative.
 */
#pragma once

#include <gocccl/config.cuh>

namespace gocccl {
namespace detail {

/// Reduces items[0:N] with op in a binary tree and returns the result;
/// overwrites items[].
template <int N, typename T, typename ReductionOp>
GOCCCL_DEVICE T tree_reduce(T (&items)[N], ReductionOp op)
{
  static_assert(N > 0, "gocccl::detail::tree_reduce: N must be positive");
#pragma unroll
  for (int d = 1; d < N; d *= 2)
  {
#pragma unroll
    for (int i = 0; i + d < N; i += 2 * d)
    {
      items[i] = op(items[i], items[i + d]);
    }
  }
  return items[0];
}

} // namespace detail
} // namespace gocccl
