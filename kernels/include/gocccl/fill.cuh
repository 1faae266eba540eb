/*
 * gocccl/fill.cuh: the kernel side of runtime.Fill and runtime.Generate.
 *
 *   fill      d_out[i] = value   for i in [0, n)   (thrust::fill)
 *   generate  d_out[i] = op(i)   for i in [0, n)   (thrust::tabulate)
 *
 * Launch: gridDim.x = ceil(n / TILE), TILE = BLOCK_THREADS * ITEMS_PER_THREAD,
 * n >= 1 (the host skips the launch for n == 0); block b writes tile b.
 *
 * Access pattern, as transform.cuh's: into a pointer, a full tile is written
 * in chunks of V consecutive items per thread (one 2..16-byte store each,
 * chunk c = j * BLOCK_THREADS + threadIdx.x) when the item size is an access
 * size, V > 1 and d_out is aligned to the chunk; otherwise, and in the last
 * tile, item i of the tile goes to thread i % BLOCK_THREADS with guards.
 * Through an output iterator (iterator.cuh) every item is striped and
 * guarded.
 *
 * Requirements: T trivially copyable; Op default-constructible with
 * `T operator()(int64_t) const`. Launch with blockDim.x == BLOCK_THREADS.
 * Compiles with CUB 1.17 (CUDA 11.8) and CCCL 3 (CUDA 13): only config.cuh.
 */
#pragma once

#include <gocccl/config.cuh>

#include <type_traits>

namespace gocccl {
namespace detail {

/// The items of a fill or generate tile: a value, or op(i).
template <typename T>
struct FillValue
{
  T value;
  GOCCCL_DEVICE T operator()(long long) const { return value; }
};

template <typename T, typename Op>
struct GenerateValue
{
  Op op;
  GOCCCL_DEVICE T operator()(long long i) const { return op(static_cast<int64_t>(i)); }
};

/// Writes item(i) to d_out[i] for the i of this block's tile below n.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename OutputIt, typename Item>
GOCCCL_DEVICE void write_tile(OutputIt d_out, long long n, Item item)
{
  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "gocccl::fill: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  static_assert(ITEMS_PER_THREAD > 0, "gocccl::fill: ITEMS_PER_THREAD must be positive");
  constexpr long long TILE = static_cast<long long>(BLOCK_THREADS) * ITEMS_PER_THREAD;
  const long long tile = static_cast<long long>(blockIdx.x) * TILE;
  if (tile >= n)
  {
    return;
  }
  if constexpr (std::is_pointer<OutputIt>::value)
  {
    static_assert(std::is_trivially_copyable<T>::value, "gocccl::fill: item types must be trivially copyable");
    constexpr int VEC = vector_items(int(sizeof(T)), ITEMS_PER_THREAD);
    if constexpr (VEC > 1)
    {
      if (n - tile >= TILE && is_aligned(d_out, VEC * int(sizeof(T))))
      {
        const long long first = tile + static_cast<long long>(threadIdx.x) * VEC;
#pragma unroll
        for (int j = 0; j < ITEMS_PER_THREAD / VEC; ++j)
        {
          const long long at = first + static_cast<long long>(j) * BLOCK_THREADS * VEC;
          T items[VEC];
#pragma unroll
          for (int k = 0; k < VEC; ++k)
          {
            items[k] = item(at + k);
          }
          store_chunk<VEC>(d_out + at, items);
        }
        return;
      }
    }
  }
  const long long first = tile + threadIdx.x;
#pragma unroll
  for (int k = 0; k < ITEMS_PER_THREAD; ++k)
  {
    const long long i = first + static_cast<long long>(k) * BLOCK_THREADS;
    if (i < n)
    {
      d_out[i] = item(i);
    }
  }
}

} // namespace detail

/**
 * \brief d_out[i] = value for i in [0, n).
 *
 * \param d_out  output, n items: a T* or an output iterator of iterator.cuh
 * \param value  the item written
 * \param n      item count, n >= 1
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename OutputIt>
__device__ void fill(OutputIt d_out, T value, long long n)
{
  detail::write_tile<BLOCK_THREADS, ITEMS_PER_THREAD, T>(d_out, n, detail::FillValue<T>{value});
}

/**
 * \brief d_out[i] = op(i) for i in [0, n).
 *
 * \param d_out  output, n items: a T* or an output iterator of iterator.cuh
 * \param n      item count, n >= 1
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename Op, typename OutputIt>
__device__ void generate(OutputIt d_out, long long n)
{
  detail::write_tile<BLOCK_THREADS, ITEMS_PER_THREAD, T>(d_out, n, detail::GenerateValue<T, Op>{Op{}});
}

} // namespace gocccl
