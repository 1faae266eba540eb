/*
 * gocccl/adjacent_difference.cuh: out[i] = op(in[i], in[i-1]) with out[0] =
 * in[0] (left), or out[i] = op(in[i], in[i+1]) with out[n-1] = in[n-1]
 * (right); the kernel side of runtime.AdjacentDifference. The argument order
 * is cub::DeviceAdjacentDifference's: SubtractLeftCopy assigns
 * difference_op(*i, *(i - 1)), SubtractRightCopy difference_op(*i, *(i + 1)).
 *
 *   <sym>_left   adjacent_difference_left   grid ceil(n / TILE)
 *   <sym>_right  adjacent_difference_right  grid ceil(n / TILE)
 *
 * TILE = BLOCK_THREADS * ITEMS_PER_THREAD. Block b owns items [b * TILE,
 * (b + 1) * TILE); warp w of the block owns the WARP_ITEMS = 32 *
 * ITEMS_PER_THREAD items from seg = b * TILE + w * WARP_ITEMS on, warp-striped
 * in chunks of V consecutive items: lane l holds chunks j * 32 + l, j in
 * [0, ITEMS_PER_THREAD / V), so each load and store instruction of a warp
 * moves 32 * V consecutive items. Every input item is loaded once. An item's
 * neighbour in the chunk is in the same thread; at a chunk's end it is in the
 * next lane's chunk (the previous lane's, left), passed with one warp shuffle
 * per chunk: lane 31 of chunk j borders lane 0 of chunk j + 1. Only the item
 * just outside the warp's items is loaded again (by lane 0 for left, lane 31
 * for right): one extra item per warp. Warps are independent: no shared
 * memory, no block barrier.
 *
 * The chunk width V: in a warp whose items all lie before n, when d_in is a
 * pointer and d_in and d_out are aligned to a chunk, V = vector_items(sizeof(T),
 * ITEMS_PER_THREAD) (16 bytes for 1, 2, 4, 8 and 16-byte items under
 * arch.MemBound's policy), one load and one store per chunk. Otherwise (an
 * iterator, a misaligned pointer, an item size no single access moves, or the
 * warp that holds item n - 1 when n is not a multiple of WARP_ITEMS) V = 1,
 * items are read with it[i], and nothing past n is loaded or stored. Warps
 * that start at or past n return at once.
 *
 * The operator is applied exactly to the pairs the result needs, never to the
 * copied end item nor to items past n. Input and output must not overlap
 * (the runtime checks this): the input is read through the read-only path.
 * Indices are 64-bit.
 *
 * Requirements: T trivially copyable and default-constructible; DifferenceOp
 * default-constructible, `T operator()(T, T) const`; BLOCK_THREADS a multiple
 * of 32. Launch with blockDim.x == BLOCK_THREADS.
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/transform_reduce.cuh>

#include <cub/util_ptx.cuh>

#include <type_traits>

namespace gocccl {
namespace detail {

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, bool LEFT, typename T, typename DifferenceOp>
struct AdjacentDifferenceWarp
{
  static constexpr int WARP_THREADS = 32;
  static constexpr int WARP_ITEMS = WARP_THREADS * ITEMS_PER_THREAD;
  /// Items per chunk on the vectorized path; 0 when sizeof(T) is no access size.
  static constexpr int VEC = vector_items(int(sizeof(T)), ITEMS_PER_THREAD);

  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % WARP_THREADS == 0 && BLOCK_THREADS <= 1024,
                "gocccl::adjacent_difference: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  static_assert(ITEMS_PER_THREAD > 0, "gocccl::adjacent_difference: ITEMS_PER_THREAD must be positive");
  static_assert(std::is_trivially_copyable<T>::value, "gocccl::adjacent_difference: T must be trivially copyable");

  /// The neighbour of chunk j's end item (its first item's left neighbour,
  /// or its last item's right one): from the adjacent lane's chunk j, or at
  /// lane 0 (31) from lane 31's chunk j - 1 (lane 0's chunk j + 1); `edge`,
  /// the item outside the warp's, at lane 0 of chunk 0 (lane 31 of the last
  /// chunk).
  template <int V>
  static GOCCCL_DEVICE T neighbour(const T (&x)[ITEMS_PER_THREAD], int j, int lane, const T& edge)
  {
    constexpr int CHUNKS = ITEMS_PER_THREAD / V;
    if constexpr (LEFT)
    {
      const T give = lane == WARP_THREADS - 1 && j > 0 ? x[j * V - 1] : x[j * V + V - 1];
      const T got = cub::ShuffleIndex<WARP_THREADS>(give, (lane + WARP_THREADS - 1) % WARP_THREADS, 0xffffffffu);
      return lane == 0 && j == 0 ? edge : got;
    }
    else
    {
      const T give = lane == 0 && j + 1 < CHUNKS ? x[(j + 1) * V] : x[j * V];
      const T got = cub::ShuffleIndex<WARP_THREADS>(give, (lane + 1) % WARP_THREADS, 0xffffffffu);
      return lane == WARP_THREADS - 1 && j == CHUNKS - 1 ? edge : got;
    }
  }

  /// The warp's items: in and out point at its first item, `first` tells
  /// whether that is item 0, rem = min(n - seg, WARP_ITEMS + 1) counts the
  /// items from there on (WARP_ITEMS + 1: the right edge exists).
  /// VECTORIZED: chunks of VEC items, one access each (in a pointer, both
  /// aligned to a chunk, rem >= WARP_ITEMS). Otherwise one item per chunk,
  /// loaded and stored below rem only (as cub::LoadDirectWarpStriped does,
  /// items past n stay unset: they are shuffled, never used).
  template <bool VECTORIZED, typename InputIt>
  static GOCCCL_DEVICE void consume(InputIt in, T* out, bool first, int rem, int lane)
  {
    constexpr int V = VECTORIZED ? VEC : 1;
    constexpr int CHUNKS = ITEMS_PER_THREAD / V;
    static_assert(!VECTORIZED || (V > 0 && ITEMS_PER_THREAD % V == 0), "gocccl::adjacent_difference: bad chunking");
    // On the vectorized path a chunk is one word, addressed as chunk
    // lane + 32 j of a word pointer: through T* offsets that depend on the
    // warp, nvcc (11.8 and 13) splits the warp's first 16-byte store into
    // four.
    using W = typename word<VECTORIZED ? V * int(sizeof(T)) : 1>::type;

    // All loads first: the chunks, then the one item beyond the warp's.
    const auto in_lane = in + lane;
    T x[ITEMS_PER_THREAD];
#pragma unroll
    for (int j = 0; j < CHUNKS; ++j)
    {
      if constexpr (VECTORIZED)
      {
        const W w = load_word<true>(reinterpret_cast<const W*>(in) + lane + j * WARP_THREADS);
        memcpy(x + j * V, &w, sizeof(W));
      }
      else if (j * WARP_THREADS + lane < rem)
      {
        x[j] = read_item(in_lane, j * WARP_THREADS);
      }
    }
    T edge = x[0];
    if constexpr (LEFT)
    {
      if (lane == 0 && !first)
      {
        edge = read_item(in, -1);
      }
    }
    else
    {
      if (lane == WARP_THREADS - 1 && rem > WARP_ITEMS)
      {
        edge = read_item(in, WARP_ITEMS);
      }
    }

    DifferenceOp op;
#pragma unroll
    for (int j = 0; j < CHUNKS; ++j)
    {
      const T nb = neighbour<V>(x, j, lane, edge);
      const int c = j * WARP_THREADS + lane;
      T y[V];
#pragma unroll
      for (int k = 0; k < V; ++k)
      {
        const T& cur = x[j * V + k];
        const int i = c * V + k;
        // The copied end item, and in a partial warp the items past n
        // (never stored), skip the operator.
        if constexpr (LEFT)
        {
          const bool copy = (k == 0 && first && i == 0) || (!VECTORIZED && i >= rem);
          y[k] = copy ? cur : op(cur, k == 0 ? nb : x[j * V + k - 1]);
        }
        else
        {
          const bool copy = k == V - 1 && i + 1 >= rem;
          y[k] = copy ? cur : op(cur, k == V - 1 ? nb : x[j * V + k + 1]);
        }
      }
      if constexpr (VECTORIZED)
      {
        W w;
        memcpy(&w, y, sizeof(W));
        reinterpret_cast<W*>(out)[lane + j * WARP_THREADS] = w;
      }
      else if (c < rem)
      {
        out[lane + j * WARP_THREADS] = y[0];
      }
    }
  }
};

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, bool LEFT, typename T, typename DifferenceOp, typename InputIt>
GOCCCL_DEVICE void adjacent_difference_tile(InputIt d_in, T* d_out, long long n)
{
  using Warp = AdjacentDifferenceWarp<BLOCK_THREADS, ITEMS_PER_THREAD, LEFT, T, DifferenceOp>;
  constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
  const int lane = static_cast<int>(threadIdx.x % Warp::WARP_THREADS);
  const int warp = static_cast<int>(threadIdx.x / Warp::WARP_THREADS);
  const long long seg = static_cast<long long>(blockIdx.x) * TILE + static_cast<long long>(warp) * Warp::WARP_ITEMS;
  if (seg >= n)
  {
    return;
  }
  const int rem = n - seg > Warp::WARP_ITEMS ? Warp::WARP_ITEMS + 1 : static_cast<int>(n - seg);
  const bool first = seg == 0;
  if constexpr (std::is_pointer<InputIt>::value && Warp::VEC > 0)
  {
    constexpr int CHUNK_BYTES = Warp::VEC * int(sizeof(T));
    if (rem >= Warp::WARP_ITEMS && is_aligned(d_in, CHUNK_BYTES) && is_aligned(d_out, CHUNK_BYTES))
    {
      Warp::template consume<true>(d_in + seg, d_out + seg, first, rem, lane);
      return;
    }
  }
  Warp::template consume<false>(d_in + seg, d_out + seg, first, rem, lane);
}

} // namespace detail

/// out[0] = in[0], out[i] = op(in[i], in[i-1]) over the block's tile.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename DifferenceOp, typename InputIt>
__device__ void adjacent_difference_left(InputIt d_in, T* d_out, long long n)
{
  detail::adjacent_difference_tile<BLOCK_THREADS, ITEMS_PER_THREAD, true, T, DifferenceOp>(d_in, d_out, n);
}

/// out[n-1] = in[n-1], out[i] = op(in[i], in[i+1]) over the block's tile.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename DifferenceOp, typename InputIt>
__device__ void adjacent_difference_right(InputIt d_in, T* d_out, long long n)
{
  detail::adjacent_difference_tile<BLOCK_THREADS, ITEMS_PER_THREAD, false, T, DifferenceOp>(d_in, d_out, n);
}

} // namespace gocccl
