/*
 * gocccl/transform.cuh: element-wise unary and binary transforms (the kernel
 * side of runtime.UnaryTransform / BinaryTransform; see docs/ARCHITECTURE.md).
 *
 *   transform   d_out[i] = op(d_in[i])          for i in [0, n)
 *   transform2  d_out[i] = op(d_a[i], d_b[i])   for i in [0, n)
 *
 * Launch: gridDim.x = ceil(n / TILE), TILE = BLOCK_THREADS * ITEMS_PER_THREAD,
 * n >= 1 (the host skips the launch for n == 0); block b handles tile b. A
 * thread issues all loads of its items before the first op, then stores the
 * results (on the per-item path in groups of 16 items when ITEMS_PER_THREAD
 * is larger, to bound registers).
 *
 * Access pattern: in a full tile each thread moves chunks of V consecutive
 * items, chunk c = j * BLOCK_THREADS + threadIdx.x, as single 1..16-byte
 * accesses per array (V is the same for every array: the largest power of two
 * dividing ITEMS_PER_THREAD with V * sizeof(X) <= 16 for each item type X).
 * Chunking is used when every item size is 1, 2, 4, 8 or 16 bytes, V > 1, and
 * all pointers are aligned to their chunk (checked once per block). Otherwise,
 * and in the last (partial) tile, item i of the tile goes to thread
 * i % BLOCK_THREADS (coalesced), with guards so nothing outside [0, n) is read
 * or written. Inputs are read with ordinary loads (not ld.global.nc), so
 * in-place use is allowed: d_out may be exactly d_in / d_a / d_b (each element
 * is read before the same thread writes it); partial overlap is not.
 *
 * ---------------------------------------------------------------------------
 * Recommended policy (sm_75, sm_80, sm_86, sm_89, sm_90; one table for all),
 * keyed by the largest item size S = max(sizeof(In), sizeof(Out)) for
 * transform and max(sizeof(A), sizeof(B), sizeof(Out)) for transform2, which
 * keeps 32 bytes of the widest array per thread in flight:
 *
 *   S             BLOCK_THREADS  ITEMS_PER_THREAD  TILE
 *   1             256            32                8192
 *   2             256            16                4096
 *   4             256             8                2048
 *   8             256             4                1024
 *   16            256             2                 512
 *   other S       256            max(1, 32 / S)          (per-item access;
 *                                (12 B: 2, > 16 B: 1)     e.g. 12-byte structs)
 *
 * Entry points should carry __launch_bounds__(BLOCK_THREADS).
 * ---------------------------------------------------------------------------
 *
 * Requirements: item types trivially copyable and default constructible;
 * UnaryOp / BinaryOp default-constructible functors with
 * `Out operator()(const In&) const` / `Out operator()(const A&, const B&) const`.
 * Kernels must be launched with blockDim = (BLOCK_THREADS, 1, 1).
 */
#pragma once

#include <gocccl/config.cuh>

#include <initializer_list>
#include <type_traits>

namespace gocccl {
namespace detail {

/// Items per chunk shared by all arrays of a transform (0 or 1: no chunking).
template <int ITEMS_PER_THREAD, typename... Ts>
__host__ __device__ constexpr int transform_vector_items()
{
  int v = 16;
  for (int x : {vector_items(int(sizeof(Ts)), ITEMS_PER_THREAD)...})
  {
    v = x < v ? x : v;
  }
  return v;
}

/// Items a thread loads before it applies the operator and stores, on the
/// per-item path: all of them for ITEMS_PER_THREAD <= 16; in groups of 16
/// beyond (keeps small-item policies such as 32 x int8 at a full tile's
/// register cost).
template <int ITEMS_PER_THREAD>
__host__ __device__ constexpr int transform_group()
{
  return ITEMS_PER_THREAD < 16 ? ITEMS_PER_THREAD : 16;
}

template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
GOCCCL_DEVICE void check_transform_policy()
{
  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "gocccl::transform: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  static_assert(ITEMS_PER_THREAD > 0, "gocccl::transform: ITEMS_PER_THREAD must be positive");
}

/// Unary transform of one tile, chunked: thread tid moves chunks
/// c = j * BLOCK_THREADS + tid of VEC items. Full tiles only; in, out aligned
/// to their chunk size.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, int VEC, typename In, typename Out, typename UnaryOp>
GOCCCL_DEVICE void transform_tile_chunked(const In* in, Out* out, UnaryOp op)
{
  const int first = threadIdx.x * VEC;
  In items[ITEMS_PER_THREAD];
#pragma unroll
  for (int j = 0; j < ITEMS_PER_THREAD / VEC; ++j)
  {
    load_chunk<false, VEC>(in + first + j * BLOCK_THREADS * VEC, items + j * VEC);
  }
#pragma unroll
  for (int j = 0; j < ITEMS_PER_THREAD / VEC; ++j)
  {
    Out results[VEC];
#pragma unroll
    for (int k = 0; k < VEC; ++k)
    {
      results[k] = op(items[j * VEC + k]);
    }
    store_chunk<VEC>(out + first + j * BLOCK_THREADS * VEC, results);
  }
}

/// Unary transform of one tile, one item per access: item i of the tile
/// belongs to thread i % BLOCK_THREADS. Only the first valid_items items are
/// touched (valid_items == TILE for a full tile, FULL skips the guards).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, bool FULL, typename In, typename Out, typename UnaryOp>
GOCCCL_DEVICE void transform_tile_striped(const In* in, Out* out, int valid_items, UnaryOp op)
{
  constexpr int GROUP = transform_group<ITEMS_PER_THREAD>();
  const In* ip = in + threadIdx.x;
  Out* outp = out + threadIdx.x;
  const int valid = valid_items - static_cast<int>(threadIdx.x); // item i valid iff i * BLOCK_THREADS < valid
#pragma unroll
  for (int g = 0; g < ITEMS_PER_THREAD; g += GROUP)
  {
    In items[GROUP];
#pragma unroll
    for (int k = 0; k < GROUP; ++k)
    {
      const int i = g + k;
      if (i < ITEMS_PER_THREAD && (FULL || i * BLOCK_THREADS < valid))
      {
        items[k] = load_item<false>(ip + i * BLOCK_THREADS);
      }
    }
#pragma unroll
    for (int k = 0; k < GROUP; ++k)
    {
      const int i = g + k;
      if (i < ITEMS_PER_THREAD && (FULL || i * BLOCK_THREADS < valid))
      {
        outp[i * BLOCK_THREADS] = op(items[k]);
      }
    }
  }
}

/// Binary counterpart of transform_tile_chunked.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, int VEC, typename A, typename B, typename Out, typename BinaryOp>
GOCCCL_DEVICE void transform2_tile_chunked(const A* a, const B* b, Out* out, BinaryOp op)
{
  const int first = threadIdx.x * VEC;
  A a_items[ITEMS_PER_THREAD];
  B b_items[ITEMS_PER_THREAD];
#pragma unroll
  for (int j = 0; j < ITEMS_PER_THREAD / VEC; ++j)
  {
    load_chunk<false, VEC>(a + first + j * BLOCK_THREADS * VEC, a_items + j * VEC);
    load_chunk<false, VEC>(b + first + j * BLOCK_THREADS * VEC, b_items + j * VEC);
  }
#pragma unroll
  for (int j = 0; j < ITEMS_PER_THREAD / VEC; ++j)
  {
    Out results[VEC];
#pragma unroll
    for (int k = 0; k < VEC; ++k)
    {
      results[k] = op(a_items[j * VEC + k], b_items[j * VEC + k]);
    }
    store_chunk<VEC>(out + first + j * BLOCK_THREADS * VEC, results);
  }
}

/// Binary counterpart of transform_tile_striped.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, bool FULL, typename A, typename B, typename Out, typename BinaryOp>
GOCCCL_DEVICE void transform2_tile_striped(const A* a, const B* b, Out* out, int valid_items, BinaryOp op)
{
  constexpr int GROUP = transform_group<ITEMS_PER_THREAD>();
  const A* ap = a + threadIdx.x;
  const B* bp = b + threadIdx.x;
  Out* outp = out + threadIdx.x;
  const int valid = valid_items - static_cast<int>(threadIdx.x);
#pragma unroll
  for (int g = 0; g < ITEMS_PER_THREAD; g += GROUP)
  {
    A a_items[GROUP];
    B b_items[GROUP];
#pragma unroll
    for (int k = 0; k < GROUP; ++k)
    {
      const int i = g + k;
      if (i < ITEMS_PER_THREAD && (FULL || i * BLOCK_THREADS < valid))
      {
        a_items[k] = load_item<false>(ap + i * BLOCK_THREADS);
        b_items[k] = load_item<false>(bp + i * BLOCK_THREADS);
      }
    }
#pragma unroll
    for (int k = 0; k < GROUP; ++k)
    {
      const int i = g + k;
      if (i < ITEMS_PER_THREAD && (FULL || i * BLOCK_THREADS < valid))
      {
        outp[i * BLOCK_THREADS] = op(a_items[k], b_items[k]);
      }
    }
  }
}

} // namespace detail

/**
 * \brief d_out[i] = op(d_in[i]) for i in [0, n).
 *
 * \tparam BLOCK_THREADS     threads per block (multiple of 32, <= 1024); launch with blockDim.x == BLOCK_THREADS
 * \tparam ITEMS_PER_THREAD  items per thread per tile
 * \tparam In, Out           item types (trivially copyable)
 * \tparam UnaryOp           default-constructible `Out operator()(const In&) const`
 *
 * \param d_in   input, n items
 * \param d_out  output, n items; may be d_in itself (in place), must not partially overlap it
 * \param n      item count, n >= 1
 *
 * Launch: gridDim.x == ceil(n / (BLOCK_THREADS * ITEMS_PER_THREAD)); block b
 * handles items [b * TILE, min(n, (b + 1) * TILE)). Blocks past the end exit.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename In, typename Out, typename UnaryOp, typename InputIt,
          typename OutputIt>
__device__ void transform(InputIt d_in, OutputIt d_out, long long n)
{
  detail::check_transform_policy<BLOCK_THREADS, ITEMS_PER_THREAD>();
  if constexpr (!std::is_pointer<InputIt>::value || !std::is_pointer<OutputIt>::value)
  {
    // Iterators (iterator.cuh): item i of the tile on thread i % BLOCK_THREADS.
    constexpr long long TILE = static_cast<long long>(BLOCK_THREADS) * ITEMS_PER_THREAD;
    const long long first = static_cast<long long>(blockIdx.x) * TILE + threadIdx.x;
    UnaryOp op;
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const long long i = first + static_cast<long long>(k) * BLOCK_THREADS;
      if (i < n)
      {
        d_out[i] = op(d_in[i]);
      }
    }
    return;
  }
  else
  {
  static_assert(std::is_trivially_copyable<In>::value && std::is_trivially_copyable<Out>::value,
                "gocccl::transform: item types must be trivially copyable");
  constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  constexpr int VEC = detail::transform_vector_items<ITEMS_PER_THREAD, In, Out>();

  const long long tile_offset = static_cast<long long>(blockIdx.x) * TILE_ITEMS;
  if (tile_offset >= n)
  {
    return;
  }
  const In* in = d_in + tile_offset;
  Out* out = d_out + tile_offset;
  UnaryOp op;

  if (n - tile_offset >= TILE_ITEMS)
  {
    if constexpr (VEC > 1)
    {
      if (detail::is_aligned(d_in, VEC * int(sizeof(In))) && detail::is_aligned(d_out, VEC * int(sizeof(Out))))
      {
        detail::transform_tile_chunked<BLOCK_THREADS, ITEMS_PER_THREAD, VEC>(in, out, op);
        return;
      }
    }
    detail::transform_tile_striped<BLOCK_THREADS, ITEMS_PER_THREAD, true>(in, out, TILE_ITEMS, op);
  }
  else
  {
    detail::transform_tile_striped<BLOCK_THREADS, ITEMS_PER_THREAD, false>(
      in, out, static_cast<int>(n - tile_offset), op);
  }
  }
}

/**
 * \brief d_out[i] = op(d_a[i], d_b[i]) for i in [0, n).
 *
 * \tparam BLOCK_THREADS     threads per block (multiple of 32, <= 1024); launch with blockDim.x == BLOCK_THREADS
 * \tparam ITEMS_PER_THREAD  items per thread per tile
 * \tparam A, B, Out         item types (trivially copyable)
 * \tparam BinaryOp          default-constructible `Out operator()(const A&, const B&) const`
 *
 * \param d_a, d_b  inputs, n items each
 * \param d_out     output, n items; may be d_a or d_b itself, must not partially overlap them
 * \param n         item count, n >= 1
 *
 * Launch: gridDim.x == ceil(n / (BLOCK_THREADS * ITEMS_PER_THREAD)).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename A, typename B, typename Out, typename BinaryOp,
          typename AIt, typename BIt, typename OutputIt>
__device__ void transform2(AIt d_a, BIt d_b, OutputIt d_out, long long n)
{
  detail::check_transform_policy<BLOCK_THREADS, ITEMS_PER_THREAD>();
  if constexpr (!std::is_pointer<AIt>::value || !std::is_pointer<BIt>::value || !std::is_pointer<OutputIt>::value)
  {
    constexpr long long TILE = static_cast<long long>(BLOCK_THREADS) * ITEMS_PER_THREAD;
    const long long first = static_cast<long long>(blockIdx.x) * TILE + threadIdx.x;
    BinaryOp op;
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const long long i = first + static_cast<long long>(k) * BLOCK_THREADS;
      if (i < n)
      {
        d_out[i] = op(d_a[i], d_b[i]);
      }
    }
    return;
  }
  else
  {
  static_assert(std::is_trivially_copyable<A>::value && std::is_trivially_copyable<B>::value
                  && std::is_trivially_copyable<Out>::value,
                "gocccl::transform2: item types must be trivially copyable");
  constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  constexpr int VEC = detail::transform_vector_items<ITEMS_PER_THREAD, A, B, Out>();

  const long long tile_offset = static_cast<long long>(blockIdx.x) * TILE_ITEMS;
  if (tile_offset >= n)
  {
    return;
  }
  const A* a = d_a + tile_offset;
  const B* b = d_b + tile_offset;
  Out* out = d_out + tile_offset;
  BinaryOp op;

  if (n - tile_offset >= TILE_ITEMS)
  {
    if constexpr (VEC > 1)
    {
      if (detail::is_aligned(d_a, VEC * int(sizeof(A))) && detail::is_aligned(d_b, VEC * int(sizeof(B)))
          && detail::is_aligned(d_out, VEC * int(sizeof(Out))))
      {
        detail::transform2_tile_chunked<BLOCK_THREADS, ITEMS_PER_THREAD, VEC>(a, b, out, op);
        return;
      }
    }
    detail::transform2_tile_striped<BLOCK_THREADS, ITEMS_PER_THREAD, true>(a, b, out, TILE_ITEMS, op);
  }
  else
  {
    detail::transform2_tile_striped<BLOCK_THREADS, ITEMS_PER_THREAD, false>(
      a, b, out, static_cast<int>(n - tile_offset), op);
  }
  }
}

} // namespace gocccl
