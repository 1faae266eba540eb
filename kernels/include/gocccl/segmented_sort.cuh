/*
 * gocccl/segmented_sort.cuh: a stable radix sort of every segment of keys or
 * key-value pairs (the kernel side of runtime.SegmentedSortKeys and
 * runtime.SegmentedSortPairs), as cub::DeviceSegmentedSort partitions its
 * segments into size classes and sorts each class with its own engine.
 *
 * Segment s is [d_begin[s], d_end[s]) of the input, clamped to [0, n); its
 * sorted keys (and values) are written to the same positions of the output.
 * Outputs outside every segment are left alone. Input and output are distinct
 * buffers; segments must not overlap (they are trusted, as by CUB: a bad
 * layout gives unspecified output but never an access outside the buffers or
 * the scratch lists).
 *
 *   <sym>_init       radix_sort_init: zeroes scratch words.
 *   <sym>_classify   grid ceil(S / THREADS): one thread per segment. Length 0:
 *                    nothing; 1: copied; else appended (warp-aggregated
 *                    atomics) to the list of its class:
 *                      small   2 .. SMALL_MAX (128)          a warp each
 *                      medium  .. MEDIUM_MAX (4 * THREADS)    a block each, in shared memory
 *                      big     .. BIG_MAX (THREADS * ITEMS)   a block each, in shared memory
 *                      large   longer                         tiles of Onesweep
 *                    and a large segment adds its tile count to the tile
 *                    total. The order within a list is arbitrary; the result
 *                    does not depend on it.
 *   <sym>_small      a warp per small segment: each lane ranks its 4 keys by
 *                    counting, over the segment's keys in shared memory, the
 *                    smaller ones and the equal ones before it (stable), and
 *                    scatters. Grid ceil(count / WARPS).
 *   <sym>_medium     a block per medium segment: all digit passes of a
 *                    BlockRank radix sort in shared memory (radix_sort.cuh's
 *                    SingleTile with 4 items per thread), one read and one
 *                    write of the segment. Grid: count.
 *   <sym>_big        the same with ITEMS per thread (empty unless ITEMS > 4).
 *   <sym>_plan       one block: exclusive scan of the large segments' tile
 *                    counts into tile_prefix[0..L] (list order).
 *   <sym>_histogram  grid T (all large tiles): block t finds its segment in
 *                    tile_prefix, counts the digits of every pass of its tile
 *                    and adds them to the segment's bins.
 *   <sym>_onesweep   one launch per digit pass, grid T: radix_sort.cuh's
 *                    Onesweep over all large segments at once. A block takes
 *                    the next global tile (atomic counter, so every earlier
 *                    tile has a running block), finds its segment, ranks,
 *                    looks back over the earlier tiles of its own segment and
 *                    scatters within it. The passes ping-pong between the
 *                    output and an alternate buffer so that the last one
 *                    writes the output.
 *
 * Scratch (8-byte words): the lists block
 *   [0, 16)                      counters: small, medium, big, large, tiles, -,
 *                                -, -, then the tile counter of each pass
 *   [16, 16 + S)                 small list (segment indices)
 *   then cap_medium, cap_big, cap_large entries: the other lists
 *   then cap_large + 1 entries:  tile_prefix
 * and, for the large segments, bins[L][PASSES][256] followed by
 * look-back[T][256] (radix_sort.cuh's words: pass tag, inclusive flag, count).
 * A class that overflows its capacity (only possible with overlapping
 * segments) drops the extra segments.
 *
 * Keys are ordered as radix_sort.cuh orders them (ordered bits, all of the
 * key), descending by flipping them; every path is stable. Needs sm_70+,
 * BLOCK_THREADS == 256 (a multiple of 32, >= 256, one thread per digit).
 * All sizes and indices are 64-bit. Compiles with CUB 1.17 and CCCL 3.x.
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/radix_sort.cuh>

#include <cub/block/block_scan.cuh>

#include <stdint.h>
#include <type_traits>

namespace gocccl {
namespace detail {
namespace segsort {

using radix::NoValues;
using radix::RADIX_DIGITS;

constexpr int SMALL_ITEMS = 4;                  // keys per lane of the warp path
constexpr int SMALL_MAX = 32 * SMALL_ITEMS;     // longest small segment
constexpr int MEDIUM_ITEMS = 4;                 // keys per thread of the medium path
constexpr long long HEADER_WORDS = 16;

enum Counter
{
  COUNT_SMALL = 0,
  COUNT_MEDIUM = 1,
  COUNT_BIG = 2,
  COUNT_LARGE = 3,
  COUNT_TILES = 4,
  TILE_COUNTERS = 8, // 8 passes at most
};

/// The lists block of the scratch (see the file comment).
struct Lists
{
  unsigned long long* counters;
  long long* list[4]; // small, medium, big, large
  long long cap[4];
  long long* tile_prefix;

  GOCCCL_DEVICE Lists(void* d_lists, long long num_segments, long long cap_medium, long long cap_big, long long cap_large)
  {
    counters = static_cast<unsigned long long*>(d_lists);
    long long* p = static_cast<long long*>(d_lists) + HEADER_WORDS;
    cap[0] = num_segments;
    cap[1] = cap_medium;
    cap[2] = cap_big;
    cap[3] = cap_large;
    for (int c = 0; c < 4; ++c)
    {
      list[c] = p;
      p += cap[c];
    }
    tile_prefix = p;
  }

  /// Entries of class c actually stored.
  GOCCCL_DEVICE long long count(int c) const
  {
    return min(static_cast<long long>(counters[c]), cap[c]);
  }
};

/// Segment s clamped to [0, n).
GOCCCL_DEVICE void segment(const int64_t* d_begin, const int64_t* d_end, long long s, long long n, long long& b,
                           long long& len)
{
  b = max(0ll, min(static_cast<long long>(d_begin[s]), n));
  const long long e = max(b, min(static_cast<long long>(d_end[s]), n));
  len = e - b;
}

/// Ordered bits of K, all of the key.
template <typename K>
struct Keys
{
  using Traits = radix::KeyTraits<K>;
  using Bits = typename Traits::Bits;
  static constexpr int PASSES = Traits::KEY_BITS / radix::RADIX_BITS;
  static GOCCCL_DEVICE Bits flip(bool descending) { return descending ? Traits::ALL : Bits(0); }
};

/// Classifies segments into the lists; copies segments of one item.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
GOCCCL_DEVICE void classify(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                            const int64_t* d_begin, const int64_t* d_end, long long num_segments, long long n,
                            Lists lists)
{
  constexpr long long MEDIUM_MAX = static_cast<long long>(BLOCK_THREADS) * MEDIUM_ITEMS;
  constexpr long long TILE = static_cast<long long>(BLOCK_THREADS) * ITEMS_PER_THREAD;
  constexpr long long BIG_MAX = TILE > MEDIUM_MAX ? TILE : MEDIUM_MAX;
  const long long s = static_cast<long long>(blockIdx.x) * BLOCK_THREADS + threadIdx.x;
  int cls = -1;
  long long b = 0, len = 0;
  if (s < num_segments)
  {
    segment(d_begin, d_end, s, n, b, len);
    if (len == 1)
    {
      d_keys_out[b] = d_keys_in[b];
      if constexpr (!std::is_same<V, NoValues>::value)
      {
        d_values_out[b] = d_values_in[b];
      }
    }
    else if (len > 1)
    {
      cls = len <= SMALL_MAX ? 0 : len <= MEDIUM_MAX ? 1 : len <= BIG_MAX ? 2 : 3;
    }
  }
  const unsigned lt = radix::lanemask_lt();
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int c = 0; c < 4; ++c)
  {
    const unsigned mask = __ballot_sync(0xffffffffu, cls == c);
    if (mask == 0)
    {
      continue;
    }
    const int leader = __ffs(mask) - 1;
    unsigned long long base = 0;
    if (lane == leader)
    {
      base = atomicAdd(lists.counters + c, static_cast<unsigned long long>(__popc(mask)));
    }
    base = __shfl_sync(0xffffffffu, base, leader);
    if (cls == c)
    {
      const long long pos = static_cast<long long>(base) + __popc(mask & lt);
      if (pos < lists.cap[c])
      {
        lists.list[c][pos] = s;
        if (c == 3)
        {
          atomicAdd(lists.counters + COUNT_TILES, static_cast<unsigned long long>((len + TILE - 1) / TILE));
        }
      }
    }
  }
}

/// A warp sorts a small segment by counting ranks.
template <int BLOCK_THREADS, typename K, typename V>
struct WarpSort
{
  using Traits = typename Keys<K>::Traits;
  using Bits = typename Keys<K>::Bits;
  static constexpr int WARPS = BLOCK_THREADS / 32;

  struct TempStorage
  {
    Bits keys[WARPS][SMALL_MAX];
  };

  static GOCCCL_DEVICE void run(TempStorage& temp, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                V* d_values_out, const int64_t* d_begin, const int64_t* d_end, long long n,
                                const Lists& lists, bool descending)
  {
    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    const long long w = static_cast<long long>(blockIdx.x) * WARPS + warp;
    if (w >= lists.count(0))
    {
      return; // the warp only synchronizes with itself
    }
    long long b, len;
    segment(d_begin, d_end, lists.list[0][w], n, b, len);
    const int m = static_cast<int>(min(len, static_cast<long long>(SMALL_MAX)));
    const Bits flip = Keys<K>::flip(descending);
    Bits* keys = temp.keys[warp];
    Bits mine[SMALL_ITEMS] = {};
#pragma unroll
    for (int i = 0; i < SMALL_ITEMS; ++i)
    {
      const int idx = i * 32 + lane;
      if (idx < m)
      {
        mine[i] = Traits::in(load_item<true>(d_keys_in + b + idx), flip);
        keys[idx] = mine[i];
      }
    }
    __syncwarp();
    int rank[SMALL_ITEMS] = {};
    for (int j = 0; j < m; ++j)
    {
      const Bits other = keys[j]; // the same word for every lane: a broadcast
#pragma unroll
      for (int i = 0; i < SMALL_ITEMS; ++i)
      {
        rank[i] += (other < mine[i]) || (other == mine[i] && j < i * 32 + lane);
      }
    }
#pragma unroll
    for (int i = 0; i < SMALL_ITEMS; ++i)
    {
      const int idx = i * 32 + lane;
      if (idx < m)
      {
        d_keys_out[b + rank[i]] = Traits::out(mine[i], flip);
        if constexpr (!std::is_same<V, NoValues>::value)
        {
          d_values_out[b + rank[i]] = d_values_in[b + idx];
        }
      }
    }
    __syncwarp();
  }
};

/// A block sorts a segment of at most BLOCK_THREADS * ITEMS keys in shared
/// memory: list entry blockIdx.x of class c.
template <int BLOCK_THREADS, int ITEMS, typename K, typename V>
GOCCCL_DEVICE void block_sort(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                              const int64_t* d_begin, const int64_t* d_end, long long n, const Lists& lists, int c,
                              bool descending)
{
  using Agent = radix::SingleTile<BLOCK_THREADS, ITEMS, K, V>;
  __shared__ typename Agent::TempStorage temp;
  const long long k = blockIdx.x;
  if (k >= lists.count(c))
  {
    return; // the whole block
  }
  long long b, len;
  segment(d_begin, d_end, lists.list[c][k], n, b, len);
  len = min(len, static_cast<long long>(Agent::TILE_ITEMS));
  constexpr bool HAS_VALUES = !std::is_same<V, NoValues>::value;
  Agent::run(temp, d_keys_in + b, d_keys_out + b, HAS_VALUES ? d_values_in + b : d_values_in,
             HAS_VALUES ? d_values_out + b : d_values_out, len, 0, radix::KeyTraits<K>::KEY_BITS, descending);
}

/// The large segment whose tiles include global tile t: the last k with
/// tile_prefix[k] <= t.
GOCCCL_DEVICE long long find_segment(const long long* tile_prefix, long long count, long long t)
{
  long long lo = 0, hi = count; // tile_prefix[lo] <= t < tile_prefix[hi]
  while (hi - lo > 1)
  {
    const long long mid = lo + (hi - lo) / 2;
    if (tile_prefix[mid] <= t)
    {
      lo = mid;
    }
    else
    {
      hi = mid;
    }
  }
  return lo;
}

/// One digit pass of Onesweep over one tile of a large segment: radix_sort.cuh's
/// Onesweep with the segment's keys, bins and look-back.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
struct SegmentOnesweep
{
  using Base = radix::Onesweep<BLOCK_THREADS, ITEMS_PER_THREAD, K, V>;
  using Traits = typename Base::Traits;
  using Bits = typename Base::Bits;
  using Rank = typename Base::Rank;
  static constexpr int TILE_ITEMS = Base::TILE_ITEMS;
  static constexpr bool HAS_VALUES = Base::HAS_VALUES;
  static constexpr bool VALUES_IN_SMEM = Base::VALUES_IN_SMEM;
  static constexpr int PASSES = Keys<K>::PASSES;

  struct TempStorage
  {
    typename Base::TempStorage base;
    long long segment, begin, len, tile;
  };

  static GOCCCL_DEVICE void run(TempStorage& st, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                V* d_values_out, const int64_t* d_begin, const int64_t* d_end, long long n,
                                const Lists& lists, unsigned long long* bins_all, unsigned long long* lookback_all,
                                int pass, bool descending)
  {
    using namespace radix;
    auto& temp = st.base;
    const int tid = threadIdx.x;
    if (tid == 0)
    {
      const long long count = lists.count(3);
      const long long t = static_cast<long long>(atomicAdd(lists.counters + TILE_COUNTERS + pass, 1ull));
      st.tile = -1;
      if (t < lists.tile_prefix[count])
      {
        const long long k = find_segment(lists.tile_prefix, count, t);
        long long b, len;
        segment(d_begin, d_end, lists.list[3][k], n, b, len);
        st.segment = k;
        st.begin = b;
        st.len = len;
        st.tile = t;
      }
    }
    __syncthreads();
    if (st.tile < 0)
    {
      return;
    }
    const long long k = st.segment;
    const long long seg_begin = st.begin;
    const long long seg_len = st.len;
    const long long first = lists.tile_prefix[k];
    const long long tile = st.tile - first; // within the segment
    unsigned long long* bins = bins_all + (k * PASSES + pass) * RADIX_DIGITS;
    unsigned long long* lookback = lookback_all + first * RADIX_DIGITS;

    const long long tile_base = seg_begin + tile * TILE_ITEMS;
    const int valid = static_cast<int>(min(static_cast<long long>(TILE_ITEMS), seg_len - tile * TILE_ITEMS));
    const Bits flip = Keys<K>::flip(descending);
    const Digit digit(0, Traits::KEY_BITS, pass);

    Bits bits[ITEMS_PER_THREAD];
    load_keys<BLOCK_THREADS, ITEMS_PER_THREAD>(d_keys_in + tile_base, valid, flip, bits);
    const int warp_base = (tid / 32) * Rank::WARP_ITEMS + tid % 32;
    V values[HAS_VALUES ? ITEMS_PER_THREAD : 1];
    if constexpr (HAS_VALUES)
    {
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        const int idx = warp_base + i * 32;
        if (idx < valid)
        {
          values[i] = d_values_in[tile_base + idx];
        }
      }
    }

    int ranks[ITEMS_PER_THREAD];
    int digit_prefix = 0;
    int count = Rank::rank(temp.exchange.rank, temp.scan.digits, bits, digit, ranks, &digit_prefix);
    if (tid == int(digit.mask))
    {
      count -= TILE_ITEMS - valid; // padding ranks last in the highest digit
    }

    unsigned long long bin = tid < RADIX_DIGITS ? bins[tid] : 0ull;
    unsigned long long base;
    typename Base::BaseScan(temp.scan.bases).ExclusiveSum(bin, base);

    if (tid < RADIX_DIGITS)
    {
      const unsigned long long tag = static_cast<unsigned long long>(pass + 1) << LB_TAG_SHIFT;
      unsigned long long* mine = lookback + tile * RADIX_DIGITS + tid;
      unsigned long long exclusive = 0;
      if (tile == 0)
      {
        store_lookback(mine, tag | LB_INCLUSIVE | static_cast<unsigned long long>(count));
      }
      else
      {
        store_lookback(mine, tag | static_cast<unsigned long long>(count));
        long long t = tile - 1;
        while (true)
        {
          const unsigned long long w = load_lookback(lookback + t * RADIX_DIGITS + tid);
          if ((w >> LB_TAG_SHIFT) != static_cast<unsigned long long>(pass + 1))
          {
            continue; // tile t has not published yet
          }
          exclusive += w & LB_VALUE_MASK;
          if (w & LB_INCLUSIVE)
          {
            break;
          }
          --t;
        }
        store_lookback(mine, tag | LB_INCLUSIVE | (exclusive + static_cast<unsigned long long>(count)));
      }
      temp.offsets[tid] = seg_begin + static_cast<long long>(base + exclusive) - digit_prefix;
    }
    __syncthreads();

#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      temp.exchange.keys[ranks[i]] = bits[i];
    }
    __syncthreads();
    long long dest[ITEMS_PER_THREAD];
#pragma unroll
    for (int j = 0; j < ITEMS_PER_THREAD; ++j)
    {
      const int r = j * BLOCK_THREADS + tid;
      if (r < valid)
      {
        const Bits kb = temp.exchange.keys[r];
        dest[j] = temp.offsets[digit(kb)] + r;
        d_keys_out[dest[j]] = Traits::out(kb, flip);
      }
    }

    if constexpr (VALUES_IN_SMEM)
    {
      __syncthreads();
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        temp.exchange.values[ranks[i]] = values[i];
      }
      __syncthreads();
#pragma unroll
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        const int r = j * BLOCK_THREADS + tid;
        if (r < valid)
        {
          d_values_out[dest[j]] = temp.exchange.values[r];
        }
      }
    }
    else if constexpr (HAS_VALUES)
    {
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        if (warp_base + i * 32 < valid)
        {
          d_values_out[temp.offsets[digit(bits[i])] + ranks[i]] = values[i];
        }
      }
    }
  }
};

} // namespace segsort
} // namespace detail

#define GOCCCL_SEGSORT_LISTS void *d_lists, long long num_segments, long long cap_medium, long long cap_big, long long cap_large
#define GOCCCL_SEGSORT_MAKE_LISTS detail::segsort::Lists(d_lists, num_segments, cap_medium, cap_big, cap_large)

/**
 * \brief Classifies the segments (see the file comment); copies those of one
 * item. Grid ceil(num_segments / BLOCK_THREADS), lists counters zeroed.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K>
__device__ void segmented_sort_keys_classify(const K* d_keys_in, K* d_keys_out, const int64_t* d_begin,
                                             const int64_t* d_end, long long n, GOCCCL_SEGSORT_LISTS)
{
  detail::segsort::classify<BLOCK_THREADS, ITEMS_PER_THREAD, K, detail::radix::NoValues>(
    d_keys_in, d_keys_out, nullptr, nullptr, d_begin, d_end, num_segments, n, GOCCCL_SEGSORT_MAKE_LISTS);
}

/// \brief segmented_sort_keys_classify for pairs.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
__device__ void segmented_sort_pairs_classify(const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                              V* d_values_out, const int64_t* d_begin, const int64_t* d_end,
                                              long long n, GOCCCL_SEGSORT_LISTS)
{
  detail::segsort::classify<BLOCK_THREADS, ITEMS_PER_THREAD, K, V>(
    d_keys_in, d_keys_out, d_values_in, d_values_out, d_begin, d_end, num_segments, n, GOCCCL_SEGSORT_MAKE_LISTS);
}

/// \brief Sorts the small segments, a warp each.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K>
__device__ void segmented_sort_keys_small(const K* d_keys_in, K* d_keys_out, const int64_t* d_begin,
                                          const int64_t* d_end, long long n, GOCCCL_SEGSORT_LISTS, bool descending)
{
  using Agent = detail::segsort::WarpSort<BLOCK_THREADS, K, detail::radix::NoValues>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, nullptr, nullptr, d_begin, d_end, n, GOCCCL_SEGSORT_MAKE_LISTS, descending);
}

/// \brief segmented_sort_keys_small for pairs.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
__device__ void segmented_sort_pairs_small(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                                           const int64_t* d_begin, const int64_t* d_end, long long n,
                                           GOCCCL_SEGSORT_LISTS, bool descending)
{
  using Agent = detail::segsort::WarpSort<BLOCK_THREADS, K, V>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, d_values_in, d_values_out, d_begin, d_end, n, GOCCCL_SEGSORT_MAKE_LISTS,
             descending);
}

/// \brief Sorts the medium segments, a block each in shared memory.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K>
__device__ void segmented_sort_keys_medium(const K* d_keys_in, K* d_keys_out, const int64_t* d_begin,
                                           const int64_t* d_end, long long n, GOCCCL_SEGSORT_LISTS, bool descending)
{
  detail::segsort::block_sort<BLOCK_THREADS, detail::segsort::MEDIUM_ITEMS, K, detail::radix::NoValues>(
    d_keys_in, d_keys_out, nullptr, nullptr, d_begin, d_end, n, GOCCCL_SEGSORT_MAKE_LISTS, 1, descending);
}

/// \brief segmented_sort_keys_medium for pairs.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
__device__ void segmented_sort_pairs_medium(const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                            V* d_values_out, const int64_t* d_begin, const int64_t* d_end,
                                            long long n, GOCCCL_SEGSORT_LISTS, bool descending)
{
  detail::segsort::block_sort<BLOCK_THREADS, detail::segsort::MEDIUM_ITEMS, K, V>(
    d_keys_in, d_keys_out, d_values_in, d_values_out, d_begin, d_end, n, GOCCCL_SEGSORT_MAKE_LISTS, 1, descending);
}

/// \brief Sorts the big segments, a block each in shared memory.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K>
__device__ void segmented_sort_keys_big(const K* d_keys_in, K* d_keys_out, const int64_t* d_begin,
                                        const int64_t* d_end, long long n, GOCCCL_SEGSORT_LISTS, bool descending)
{
  detail::segsort::block_sort<BLOCK_THREADS, ITEMS_PER_THREAD, K, detail::radix::NoValues>(
    d_keys_in, d_keys_out, nullptr, nullptr, d_begin, d_end, n, GOCCCL_SEGSORT_MAKE_LISTS, 2, descending);
}

/// \brief segmented_sort_keys_big for pairs.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
__device__ void segmented_sort_pairs_big(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                                         const int64_t* d_begin, const int64_t* d_end, long long n,
                                         GOCCCL_SEGSORT_LISTS, bool descending)
{
  detail::segsort::block_sort<BLOCK_THREADS, ITEMS_PER_THREAD, K, V>(
    d_keys_in, d_keys_out, d_values_in, d_values_out, d_begin, d_end, n, GOCCCL_SEGSORT_MAKE_LISTS, 2, descending);
}

/**
 * \brief One block: tile_prefix[k] = tiles of large segments 0..k-1 (list
 * order), tile_prefix[L] = their total.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename... Rest>
__device__ void segmented_sort_plan(const int64_t* d_begin, const int64_t* d_end, long long n, GOCCCL_SEGSORT_LISTS)
{
  using Scan = cub::BlockScan<long long, BLOCK_THREADS>;
  __shared__ typename Scan::TempStorage temp;
  constexpr long long TILE = static_cast<long long>(BLOCK_THREADS) * ITEMS_PER_THREAD;
  const detail::segsort::Lists lists = GOCCCL_SEGSORT_MAKE_LISTS;
  const long long count = lists.count(3);
  long long running = 0;
  for (long long base = 0; base < count; base += BLOCK_THREADS)
  {
    const long long k = base + threadIdx.x;
    long long tiles = 0;
    if (k < count)
    {
      long long b, len;
      detail::segsort::segment(d_begin, d_end, lists.list[3][k], n, b, len);
      tiles = (len + TILE - 1) / TILE;
    }
    long long prefix, total;
    Scan(temp).ExclusiveSum(tiles, prefix, total);
    if (k < count)
    {
      lists.tile_prefix[k] = running + prefix;
    }
    running += total;
    __syncthreads();
  }
  if (threadIdx.x == 0)
  {
    lists.tile_prefix[count] = running;
  }
}

/**
 * \brief Counts the digits of every pass of the large segments' tiles into
 * d_bins[segment][pass][digit] (zeroed). Grid: at least the tile total.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename... Rest>
__device__ void segmented_sort_histogram(const K* d_keys_in, const int64_t* d_begin, const int64_t* d_end,
                                         long long n, GOCCCL_SEGSORT_LISTS, void* d_bins, bool descending)
{
  using namespace detail::radix;
  using Keys = detail::segsort::Keys<K>;
  using Bits = typename Keys::Bits;
  constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
  constexpr int PASSES = Keys::PASSES;
  __shared__ unsigned counts[PASSES][RADIX_DIGITS];
  __shared__ long long seg[3]; // list entry, first item of the tile, valid items

  const detail::segsort::Lists lists = GOCCCL_SEGSORT_MAKE_LISTS;
  const int tid = threadIdx.x;
  const long long t = blockIdx.x;
  if (tid == 0)
  {
    const long long count = lists.count(3);
    seg[0] = -1;
    if (t < lists.tile_prefix[count])
    {
      const long long k = detail::segsort::find_segment(lists.tile_prefix, count, t);
      long long b, len;
      detail::segsort::segment(d_begin, d_end, lists.list[3][k], n, b, len);
      const long long local = (t - lists.tile_prefix[k]) * TILE;
      seg[0] = k;
      seg[1] = b + local;
      seg[2] = min(static_cast<long long>(TILE), len - local);
    }
  }
  for (int i = tid; i < PASSES * RADIX_DIGITS; i += BLOCK_THREADS)
  {
    (&counts[0][0])[i] = 0;
  }
  __syncthreads();
  if (seg[0] < 0)
  {
    return;
  }
  const Bits flip = Keys::flip(descending);
  const int valid = static_cast<int>(seg[2]);
  const K* tile = d_keys_in + seg[1];
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int idx = i * BLOCK_THREADS + tid;
    if (idx < valid)
    {
      const Bits b = Keys::Traits::in(detail::load_item<true>(tile + idx), flip);
#pragma unroll
      for (int pass = 0; pass < PASSES; ++pass)
      {
        atomicAdd(&counts[pass][Digit(0, Keys::Traits::KEY_BITS, pass)(b)], 1u);
      }
    }
  }
  __syncthreads();
  unsigned long long* bins = static_cast<unsigned long long*>(d_bins) + seg[0] * PASSES * RADIX_DIGITS;
  for (int i = tid; i < PASSES * RADIX_DIGITS; i += BLOCK_THREADS)
  {
    const unsigned c = (&counts[0][0])[i];
    if (c != 0)
    {
      atomicAdd(bins + i, static_cast<unsigned long long>(c));
    }
  }
}

/**
 * \brief Pass `pass` of Onesweep over every large segment's keys: in -> out
 * (distinct buffers). d_state is bins (L * PASSES * 256 words) followed by the
 * look-back words (T * 256). Grid: at least the tile total.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K>
__device__ void segmented_sort_keys_onesweep(const K* d_keys_in, K* d_keys_out, const int64_t* d_begin,
                                             const int64_t* d_end, long long n, GOCCCL_SEGSORT_LISTS, void* d_bins,
                                             void* d_lookback, long long pass, bool descending)
{
  using Agent = detail::segsort::SegmentOnesweep<BLOCK_THREADS, ITEMS_PER_THREAD, K, detail::radix::NoValues>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, nullptr, nullptr, d_begin, d_end, n, GOCCCL_SEGSORT_MAKE_LISTS,
             static_cast<unsigned long long*>(d_bins), static_cast<unsigned long long*>(d_lookback), int(pass),
             descending);
}

/// \brief segmented_sort_keys_onesweep for pairs.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
__device__ void segmented_sort_pairs_onesweep(const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                              V* d_values_out, const int64_t* d_begin, const int64_t* d_end,
                                              long long n, GOCCCL_SEGSORT_LISTS, void* d_bins, void* d_lookback,
                                              long long pass, bool descending)
{
  using Agent = detail::segsort::SegmentOnesweep<BLOCK_THREADS, ITEMS_PER_THREAD, K, V>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, d_values_in, d_values_out, d_begin, d_end, n, GOCCCL_SEGSORT_MAKE_LISTS,
             static_cast<unsigned long long*>(d_bins), static_cast<unsigned long long*>(d_lookback), int(pass),
             descending);
}

#undef GOCCCL_SEGSORT_LISTS
#undef GOCCCL_SEGSORT_MAKE_LISTS

} // namespace gocccl
