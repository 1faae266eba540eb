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
 *                    total and its portion count (below) to the portion
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
 *   <sym>_plan       one block: exclusive scans of the large segments' tile
 *                    and portion counts into tile_prefix[0..L] and
 *                    portion_prefix[0..L] (list order).
 *   <sym>_histogram  grid T (all large tiles): block t finds its segment in
 *                    tile_prefix, counts the digits of every pass of its tile
 *                    and adds them to its portion's bins; the segment's last
 *                    tile to finish turns the bins of all its portions into
 *                    where each portion's digits start in the segment
 *                    (exclusive prefix over the digits plus the digit's
 *                    count in the earlier portions), as radix_sort.cuh's
 *                    histogram kernel scans its bins. Portion 0's are right
 *                    in every pass, the others' in pass 0 only (below).
 *   <sym>_onesweep   one launch per digit pass and portion index (below),
 *                    grid T: radix_sort.cuh's Onesweep tile (early counts,
 *                    BlockRank's warp-match ranking, its 32-bit look-back
 *                    words and look_back, the one-digit short cut, late
 *                    value loads) over portion r of every large segment at
 *                    once. A block takes the next global tile (atomic
 *                    counter, so every earlier tile has a running block),
 *                    finds its segment and portion (a tile of another
 *                    portion than the launch's returns at once), publishes
 *                    its digit counts, ranks, looks back over the earlier
 *                    tiles of its portion and scatters within the segment.
 *                    The passes ping-pong between the output and an
 *                    alternate buffer so that the last one writes the
 *                    output.
 *
 *   <sym>_each       the fallback, alone instead of all the above (cub's
 *                    DeviceSegmentedSortFallbackKernel, for few segments):
 *                    grid S, block s sorts segment s: length 0 nothing, 1
 *                    copied, small by warp 0 (the warp engine), medium and
 *                    big in shared memory (the SingleTile engines, one pass
 *                    each), longer by the block alone (BlockPasses) in
 *                    1 + 2 R sweeps of the segment: one read of the input
 *                    counts the digits of every pass (PASSES x 256 32-bit
 *                    shared counters in the union with the tile exchange:
 *                    shared memory as before), a pass whose digit is one
 *                    value over the whole segment is skipped (when every
 *                    pass would be, the last one runs), and each of the R
 *                    passes that run scans its counts, then ranks the
 *                    segment's tiles in order (BlockRank) and scatters each
 *                    to bin + rank, advancing the bins by the tile's counts.
 *                    The passes that run alternate between the output and
 *                    d_keys_alt / d_values_alt (n items each, the segment's
 *                    own positions) so that the last writes the output; the
 *                    input is only read. No lists, counters or read-back;
 *                    results are bit-identical to the classes'. A segment
 *                    may hold at most 2^32 - 1 - tile items (32-bit
 *                    counters; the runtime's fallback takes n <= 2^17).
 *
 * Portions. A look-back word holds a 29-bit count, so the look-back runs
 * within portions of a segment: portion r of a segment is its items
 * [r * PORTION, (r + 1) * PORTION), PORTION = radix::Portion<TILE,
 * PORTION_BITS> as radix_sort.cuh's (the largest multiple of the tile below
 * 2^PORTION_BITS, PORTION_BITS 29 but in tests). Segments shorter than
 * PORTION (nearly all) have one. In pass 0 portion r holds the segment's
 * input items of its range, whose digits the histogram counted; in a later
 * pass it holds whatever the previous pass scattered there, so only portion
 * 0's bins (where each digit starts in the segment, the same in every pass)
 * hold for every pass. Portion r > 0 therefore runs after portion r - 1, as
 * radix_sort.cuh's portions do: with P at least the portions of every large
 * segment (the host takes min(ceil(n / PORTION), G - L + 1), G the portion
 * total: 1 unless a segment is longer than PORTION), launch q = pass * P + r,
 * q = 0, 1, ... in order on one stream, sorts portion r of every large
 * segment in pass `pass`, and the last tile of portion r of a segment that
 * has a portion r + 1 writes, for every digit, where that digit of portion
 * r + 1 starts in this pass (its bin + its exclusive count + its count: the
 * "carry") over portion r + 1's bins of this pass. Launch q takes tiles from tile counter q % 2;
 * the block that takes tile 0 zeroes counter (q + 1) % 2 for launch q + 1.
 *
 * Scratch (8-byte words): the lists block
 *   [0, 16)                      counters: small, medium, big, large, tiles,
 *                                portions, -, -, then the two tile counters
 *                                of the Onesweep launches, then unused words
 *   [16, 16 + S)                 small list (segment indices)
 *   then cap_medium, cap_big, cap_large entries: the other lists
 *   then cap_large + 1 entries:  tile_prefix
 *   then cap_large + 1 entries:  portion_prefix
 * and, for the large segments (d_bins, zeroed), bins[G][PASSES][256] (G the
 * portion total) followed by done[L] (the histogram tiles finished of each
 * segment); then (d_lookback, zeroed) look-back[T][256], one 32-bit word per
 * tile and digit, radix_sort.cuh's words: bits 31..30 (pass % 3) + 1 of the
 * pass that wrote it (0: not yet), bit 29 inclusive, bits 28..0 the count.
 * The words of a tile belong to its portion of its segment alone, and only
 * the launches of that portion (one a pass) write them; each rewrites every
 * word of the portion, so a word holds the current pass's value or the
 * previous pass's, whose tag differs, and the words are zeroed once. (The
 * launch index would not do as the tag: launches q and q + P share words.)
 * A class that overflows its capacity (only possible with overlapping
 * segments) drops the extra segments.
 *
 * Keys are ordered as radix_sort.cuh orders them (ordered bits, all of the
 * key), descending by flipping them; every path is stable. Needs sm_70+,
 * BLOCK_THREADS a multiple of 32 in [256, 1024] (one thread per digit).
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
  COUNT_PORTIONS = 5,
  TILE_COUNTERS = 8, // two: launch q of Onesweep takes tiles from TILE_COUNTERS + q % 2
};

/// The lists block of the scratch (see the file comment).
struct Lists
{
  unsigned long long* counters;
  long long* list[4]; // small, medium, big, large
  long long cap[4];
  long long* tile_prefix;    // cap_large + 1 entries
  long long* portion_prefix; // cap_large + 1 entries

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
    portion_prefix = p + cap_large + 1;
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

/// The tiles and portions of the large segments' Onesweep: portions of the
/// largest multiple of the tile below 2^PORTION_BITS items (tests take fewer
/// bits to reach many portions with few items).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, int PORTION_BITS = radix::PORTION_BITS>
struct Large
{
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  static constexpr long long TILE = TILE_ITEMS;
  static constexpr long long PORTION = radix::Portion<TILE_ITEMS, PORTION_BITS>::ITEMS;
  static constexpr long long TILES_PER_PORTION = PORTION / TILE;

  static GOCCCL_DEVICE long long tiles(long long len) { return (len + TILE - 1) / TILE; }
  static GOCCCL_DEVICE long long portions(long long len) { return (len + PORTION - 1) / PORTION; }
};

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
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, int PORTION_BITS, typename K, typename V>
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
          using L = Large<BLOCK_THREADS, ITEMS_PER_THREAD, PORTION_BITS>;
          atomicAdd(lists.counters + COUNT_TILES, static_cast<unsigned long long>(L::tiles(len)));
          atomicAdd(lists.counters + COUNT_PORTIONS, static_cast<unsigned long long>(L::portions(len)));
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

  /// Each warp sorts entry blockIdx.x * WARPS + warp of the small list.
  static GOCCCL_DEVICE void run(TempStorage& temp, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                V* d_values_out, const int64_t* d_begin, const int64_t* d_end, long long n,
                                const Lists& lists, bool descending)
  {
    const int warp = threadIdx.x / 32;
    const long long w = static_cast<long long>(blockIdx.x) * WARPS + warp;
    if (w >= lists.count(0))
    {
      return; // the warp only synchronizes with itself
    }
    long long b, len;
    segment(d_begin, d_end, lists.list[0][w], n, b, len);
    sort(temp.keys[warp], d_keys_in, d_keys_out, d_values_in, d_values_out, b, len, descending);
  }

  /// The calling warp sorts the len <= SMALL_MAX items from b, with `keys`
  /// (SMALL_MAX words of shared memory) its own.
  static GOCCCL_DEVICE void sort(Bits* keys, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                 V* d_values_out, long long b, long long len, bool descending)
  {
    const int lane = threadIdx.x % 32;
    const int m = static_cast<int>(min(len, static_cast<long long>(SMALL_MAX)));
    const Bits flip = Keys<K>::flip(descending);
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

/// One digit pass of Onesweep over one tile of a large segment: the tile of
/// radix_sort.cuh's Onesweep (its ranking, look-back words and look_back,
/// its shared-memory exchange), with the segment's portion's bins and
/// look-back in place of the sort's.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, int PORTION_BITS = radix::PORTION_BITS>
struct SegmentOnesweep
{
  using Base = radix::Onesweep<BLOCK_THREADS, ITEMS_PER_THREAD, K, V>;
  using Traits = typename Base::Traits;
  using Bits = typename Base::Bits;
  using Rank = typename Base::Rank;
  using L = Large<BLOCK_THREADS, ITEMS_PER_THREAD, PORTION_BITS>;
  static constexpr int TILE_ITEMS = Base::TILE_ITEMS;
  static constexpr bool HAS_VALUES = Base::HAS_VALUES;
  static constexpr bool VALUES_IN_SMEM = Base::VALUES_IN_SMEM;
  using ValueSlot = typename Base::ValueSlot;
  using ValueReg = typename Base::ValueReg;
  static constexpr int PASSES = Keys<K>::PASSES;

  struct TempStorage
  {
    union
    {
      typename Rank::TempStorage rank;
      Bits keys[TILE_ITEMS];
      ValueSlot values[VALUES_IN_SMEM ? TILE_ITEMS : 1];
    } exchange;
    typename Rank::ScanStorage scan;
    // Output index of the tile's first item of each digit, minus its rank
    // (before the look-back: thread d's count of digit d).
    long long offsets[RADIX_DIGITS];
    // Where the block's tile lies, read from shared memory after barriers.
    long long tile_base; // the tile's first item
    long long seg_begin; // the segment's first item
    long long bins;      // the word of the portion's bins of this pass
    long long carry;     // the next portion's bins of this pass when this is
                         // its predecessor's last tile; -1: none
    long long lookback;  // the look-back word of the portion's first tile
    int tile;            // the tile's index in its portion; -1: no tile
    int valid;           // the tile's items
  };

  /// temp.offsets[d] for thread d < RADIX_DIGITS after the look-back over
  /// the portion's earlier tiles (count: the tile's count of digit d), and
  /// the next portion's start of digit d when this is its predecessor's
  /// last tile (a full tile: only a segment's last tile is partial).
  static GOCCCL_DEVICE void offsets(TempStorage& temp, unsigned long long* bins, unsigned* lookback, unsigned tag,
                                    int count, int digit_prefix)
  {
    const int tid = threadIdx.x;
    const unsigned long long bin = bins[temp.bins + tid];
    const unsigned exclusive = Base::look_back(lookback + temp.lookback, temp.tile, tag, count);
    temp.offsets[tid] = temp.seg_begin + static_cast<long long>(bin + exclusive) - digit_prefix;
    if (temp.carry >= 0)
    {
      bins[temp.carry + tid] = bin + exclusive + static_cast<unsigned>(count);
    }
  }

  /// Launch `launch` = pass * P + r (P = `portions`, at least the
  /// portions of every large segment): the block's tile when it lies in
  /// portion r of its segment.
  static GOCCCL_DEVICE void run(TempStorage& temp, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                V* d_values_out, const int64_t* d_begin, const int64_t* d_end, long long n,
                                const Lists& lists, unsigned long long* bins, unsigned* lookback, long long portions,
                                long long launch, bool descending)
  {
    using namespace radix;
    const int tid = threadIdx.x;
    const int pass = static_cast<int>(launch / portions);
    if (tid == 0)
    {
      const long long r = launch % portions;
      const long long count = lists.count(3);
      const long long t =
        static_cast<long long>(atomicAdd(lists.counters + TILE_COUNTERS + (launch & 1), 1ull));
      if (t == 0)
      {
        lists.counters[TILE_COUNTERS + ((launch + 1) & 1)] = 0; // the next launch's counter
      }
      temp.tile = -1;
      if (t < lists.tile_prefix[count])
      {
        const long long k = find_segment(lists.tile_prefix, count, t);
        const long long local = t - lists.tile_prefix[k]; // the tile in the segment
        const long long portion = local / L::TILES_PER_PORTION;
        if (portion == r)
        {
          long long b, len;
          segment(d_begin, d_end, lists.list[3][k], n, b, len);
          temp.tile = static_cast<int>(local - portion * L::TILES_PER_PORTION);
          temp.valid = static_cast<int>(min(L::TILE, len - local * L::TILE));
          temp.tile_base = b + local * L::TILE;
          temp.seg_begin = b;
          const long long first = lists.portion_prefix[k] + portion; // the portion's bins
          temp.bins = (first * PASSES + pass) * RADIX_DIGITS;
          temp.carry = temp.tile == L::TILES_PER_PORTION - 1 && portion + 1 < L::portions(len)
                       ? ((first + 1) * PASSES + pass) * RADIX_DIGITS
                       : -1;
          temp.lookback = (lists.tile_prefix[k] + portion * L::TILES_PER_PORTION) * RADIX_DIGITS;
        }
      }
    }
    __syncthreads();
    if (temp.tile < 0)
    {
      return; // the whole block
    }
    const Bits flip = Keys<K>::flip(descending);
    const Digit digit(0, Traits::KEY_BITS, pass);
    const unsigned tag = unsigned(pass % 3 + 1) << LB_TAG_SHIFT;
    const int warp_base = (tid / 32) * Rank::WARP_ITEMS + tid % 32;

    Bits bits[ITEMS_PER_THREAD];
    int count;
    bool full;
    {
      const int valid = temp.valid;
      full = valid == TILE_ITEMS;
      load_keys<BLOCK_THREADS, ITEMS_PER_THREAD>(d_keys_in + temp.tile_base, valid, flip, bits);

      // Early counts: publish this tile's digit counts before ranking. The
      // padding of a segment's last tile counts in the highest digit; that
      // tile is its portion's last, whose words no tile reads.
      count = Rank::count(temp.exchange.rank, bits, digit);
      if (tid < RADIX_DIGITS)
      {
        const int tile = temp.tile;
        store_lookback(lookback + temp.lookback + static_cast<long long>(tile) * RADIX_DIGITS + tid,
                       tag | (tile == 0 ? LB_INCLUSIVE : 0u) | unsigned(count));
      }
    }

    // A full tile of one digit: no ranking, a straight copy.
    if (full && __syncthreads_or(tid < RADIX_DIGITS && count == TILE_ITEMS))
    {
      if (tid < RADIX_DIGITS)
      {
        offsets(temp, bins, lookback, tag, count, 0);
      }
      __syncthreads();
      const long long base = temp.offsets[digit(bits[0])] + warp_base;
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        d_keys_out[base + i * 32] = Traits::out(bits[i], flip);
      }
      if constexpr (HAS_VALUES)
      {
        const V* values_in = d_values_in + temp.tile_base + warp_base;
#pragma unroll
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          d_values_out[base + i * 32] = values_in[i * 32];
        }
      }
      return;
    }
    if (tid < RADIX_DIGITS)
    {
      temp.offsets[tid] = count; // kept in shared memory while ranking
    }

    int ranks[ITEMS_PER_THREAD];
    int digit_prefix = 0;
    Rank::rank_counted(temp.exchange.rank, temp.scan, bits, digit, count, ranks, &digit_prefix);
    __syncthreads(); // the rank storage is free

    // Keys to shared memory in tile order.
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      temp.exchange.keys[ranks[i]] = bits[i];
    }
    if (tid < RADIX_DIGITS)
    {
      offsets(temp, bins, lookback, tag, int(temp.offsets[tid]), digit_prefix);
    }
    __syncthreads(); // offsets and keys visible
    const int valid = temp.valid;

    // Keys out, striped (coalesced within each digit's run).
    unsigned digits[VALUES_IN_SMEM ? ITEMS_PER_THREAD : 1];
#pragma unroll
    for (int j = 0; j < ITEMS_PER_THREAD; ++j)
    {
      const int r = j * BLOCK_THREADS + tid;
      const Bits b = temp.exchange.keys[r];
      const unsigned d = digit(b);
      if constexpr (VALUES_IN_SMEM)
      {
        digits[j] = d;
      }
      if (valid == TILE_ITEMS || r < valid)
      {
        d_keys_out[temp.offsets[d] + r] = Traits::out(b, flip);
      }
      __syncwarp(); // keeps the unrolled loop from hoisting every load (registers)
    }

    if constexpr (HAS_VALUES)
    {
      // Values are loaded only now, to keep registers free while ranking.
      const V* values_in = d_values_in + temp.tile_base;
      ValueReg values[ITEMS_PER_THREAD];
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        const int idx = warp_base + i * 32;
        if (valid == TILE_ITEMS || idx < valid)
        {
          values[i] = values_in[idx];
        }
      }
      if constexpr (VALUES_IN_SMEM)
      {
        __syncthreads(); // keys read
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
          if (valid == TILE_ITEMS || r < valid)
          {
            d_values_out[temp.offsets[digits[j]] + r] = temp.exchange.values[r];
          }
          __syncwarp();
        }
      }
      else
      {
        // Too large for shared memory: straight from registers.
#pragma unroll
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          if (valid == TILE_ITEMS || warp_base + i * 32 < valid)
          {
            d_values_out[temp.offsets[digit(bits[i])] + ranks[i]] = values[i];
          }
        }
      }
    }
  }
};


/// The fallback's sort of one segment longer than the block's tile: a stable
/// LSD radix sort by this block alone through global memory, 8-bit digits
/// over all of the key, in 1 + 2 * R sweeps of the segment (R the passes
/// that run, 1 to PASSES; before, 3 * PASSES):
///
///  1. One read of the input counts the digits of every pass at once into
///     PASSES x RADIX_DIGITS 32-bit counters in shared memory, in the union
///     with the tile exchange (no larger than its other members: shared
///     memory does not grow), a tile at a time (its loads in flight
///     together). Thread d < RADIX_DIGITS keeps digit d's count of every pass
///     in a small array indexed by the pass: local memory (L1, 8 bytes a
///     pass), read once a pass, so that no register is held across the
///     tiles for it.
///  2. A pass whose digit is one value over the whole segment (one bin holds
///     all len items) would leave every item where it is: it is skipped,
///     unless no pass would run (all keys alike), when the last pass runs
///     (a copy through the tiles). The passes that run alternate between the
///     output and the alternate buffers so that the last one writes the
///     output; the first reads the input, which is only read.
///  3. A pass that runs scans its digits' counts into where each digit
///     starts, then ranks the segment's tiles in order with BlockRank and
///     scatters each to its digits' bins plus its ranks, advancing the bins
///     by the tile's counts (so equal digits keep their order: stable): a
///     read and a write of the segment.
///
/// Segments of at most COUNTED_MAX items (2^32 - 1 - TILE_ITEMS: the
/// counters are 32-bit).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
struct BlockPasses
{
  using Base = radix::Onesweep<BLOCK_THREADS, ITEMS_PER_THREAD, K, V>;
  using Traits = typename Base::Traits;
  using Bits = typename Base::Bits;
  using Rank = typename Base::Rank;
  using BinScan = cub::BlockScan<long long, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
  static constexpr int TILE_ITEMS = Base::TILE_ITEMS;
  static constexpr bool HAS_VALUES = Base::HAS_VALUES;
  static constexpr bool VALUES_IN_SMEM = Base::VALUES_IN_SMEM;
  using ValueSlot = typename Base::ValueSlot;
  using ValueReg = typename Base::ValueReg;
  static constexpr int PASSES = Keys<K>::PASSES;
  /// The longest segment: its digit counts, the last tile's padding
  /// included, fit the 32-bit shared counters (the runtime's fallback takes
  /// at most 2^17 keys).
  static constexpr long long COUNTED_MAX = 0xffffffffll - TILE_ITEMS;

  /// The tile exchange as it was before the counts of every pass joined it:
  /// one pass's counts and their scan (before the one sweep, each pass
  /// counted its own digits), a tile's ranking, then its keys and values in
  /// rank order.
  union TileExchange
  {
    struct
    {
      unsigned counts[RADIX_DIGITS];
      typename BinScan::TempStorage scan;
    } histogram;
    typename Rank::TempStorage rank;
    Bits keys[TILE_ITEMS];
    ValueSlot values[VALUES_IN_SMEM ? TILE_ITEMS : 1];
  };

  struct TempStorage
  {
    union
    {
      unsigned counts[PASSES][RADIX_DIGITS]; // the one sweep's
      typename BinScan::TempStorage scan;    // a pass's scan of its counts
      typename Rank::TempStorage rank;
      Bits keys[TILE_ITEMS];
      ValueSlot values[VALUES_IN_SMEM ? TILE_ITEMS : 1];
    } exchange;
    typename Rank::ScanStorage scan;
    // Where the tile's first item of each digit goes in the segment, minus
    // its rank in the tile.
    long long offsets[RADIX_DIGITS];
  };
  // The rank storage alone has RADIX_DIGITS counters a warp, and PASSES <= 8
  // <= BLOCK_THREADS / 32: the counts of every pass never grow the exchange.
  static_assert(sizeof(decltype(TempStorage::exchange)) <= sizeof(TileExchange),
                "gocccl::segmented_sort: the digit counts of every pass must not grow the tile exchange");

  /// Keys of a tile warp-striped as ordered bits (items at or past `valid`:
  /// all bits set), as radix::load_keys but through the coherent path: later
  /// passes read what this block wrote.
  static GOCCCL_DEVICE void load(const K* tile, int valid, Bits flip, bool read_only, Bits (&bits)[ITEMS_PER_THREAD])
  {
    if (read_only)
    {
      radix::load_keys<BLOCK_THREADS, ITEMS_PER_THREAD>(tile, valid, flip, bits);
      return;
    }
    const int base = (threadIdx.x / 32) * Rank::WARP_ITEMS + threadIdx.x % 32;
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int idx = base + i * 32;
      bits[i] = idx < valid ? Traits::in(load_item<false>(tile + idx), flip) : Traits::ALL;
    }
  }

  /// The one sweep over the len (<= COUNTED_MAX) input keys from `keys`:
  /// counts the digits of every pass, a tile at a time, into held[p] (digit
  /// d's count in pass p, in thread d < RADIX_DIGITS; 0 elsewhere). Returns
  /// the passes whose digit is one value over the segment (bit p: pass p).
  /// One loop, its counters read once after it: flushing them into held
  /// inside the loop (a 64-bit count for any length) made ptxas give the
  /// whole uint64 keys-only kernel 166 registers rather than 80.
  static GOCCCL_DEVICE unsigned count(TempStorage& temp, const K* keys, long long len, Bits flip,
                                      long long (&held)[PASSES])
  {
    const int tid = threadIdx.x;
    __syncthreads(); // the exchange is free
    for (int i = tid; i < PASSES * RADIX_DIGITS; i += BLOCK_THREADS)
    {
      (&temp.exchange.counts[0][0])[i] = 0;
    }
    __syncthreads();
    long long end = 0; // the items counted: len and the last tile's padding
    for (; end < len; end += TILE_ITEMS)
    {
      const int valid = static_cast<int>(min(static_cast<long long>(TILE_ITEMS), len - end));
      Bits bits[ITEMS_PER_THREAD];
      radix::load_keys<BLOCK_THREADS, ITEMS_PER_THREAD>(keys + end, valid, flip, bits);
      // A pass at a time (not unrolled over the passes: fewer registers).
#pragma unroll 1
      for (int p = 0; p < PASSES; ++p)
      {
        const radix::Digit digit(0, Traits::KEY_BITS, p);
        unsigned* counts = temp.exchange.counts[p];
#pragma unroll
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          atomicAdd(counts + digit(bits[i]), 1u);
        }
      }
    }
    __syncthreads();
    // The padding (all bits set) counted in the highest digit of every pass.
    const unsigned pad = tid == RADIX_DIGITS - 1 ? static_cast<unsigned>(end - len) : 0u;
#pragma unroll
    for (int p = 0; p < PASSES; ++p)
    {
      held[p] = tid < RADIX_DIGITS ? static_cast<long long>(temp.exchange.counts[p][tid] - pad) : 0ll;
    }
    unsigned skip = 0;
#pragma unroll
    for (int p = 0; p < PASSES; ++p)
    {
      if (__syncthreads_or(held[p] == len))
      {
        skip |= 1u << p;
      }
    }
    return skip;
  }

  /// One pass: the len items from b of keys_in (values_in) to keys_out
  /// (values_out), by `digit`; thread d < RADIX_DIGITS holds in `bin` where
  /// digit d starts in the segment.
  static GOCCCL_DEVICE void pass(TempStorage& temp, const K* keys_in, K* keys_out, const V* values_in,
                                 V* values_out, long long b, long long len, radix::Digit digit, long long bin,
                                 bool read_only, Bits flip)
  {
    const int tid = threadIdx.x;
    const int warp_base = (tid / 32) * Rank::WARP_ITEMS + tid % 32;
    for (long long tile_base = 0; tile_base < len; tile_base += TILE_ITEMS)
    {
      const int valid = static_cast<int>(min(static_cast<long long>(TILE_ITEMS), len - tile_base));
      Bits bits[ITEMS_PER_THREAD];
      load(keys_in + b + tile_base, valid, flip, read_only, bits);
      int ranks[ITEMS_PER_THREAD];
      int digit_prefix = 0;
      // Starts with a barrier (the previous tile's exchange and offsets are
      // read) and ends with one.
      const int count = Rank::rank(temp.exchange.rank, temp.scan, bits, digit, ranks, &digit_prefix);
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        temp.exchange.keys[ranks[i]] = bits[i];
      }
      if (tid < RADIX_DIGITS)
      {
        temp.offsets[tid] = b + bin - digit_prefix;
        bin += count; // the padding of a last tile counts in the highest digit, never read again
      }
      __syncthreads(); // keys and offsets visible
      scatter_keys(temp, keys_out, valid, flip, digit);
      if constexpr (HAS_VALUES)
      {
        scatter_values(temp, values_in + b + tile_base, values_out, valid, warp_base, bits, ranks, digit);
      }
    }
  }

  /// The tile's keys from shared memory in rank order, striped: coalesced
  /// within each digit's run. Items ranked at or past `valid` are padding.
  static GOCCCL_DEVICE void scatter_keys(TempStorage& temp, K* keys_out, int valid, Bits flip, radix::Digit digit)
  {
#pragma unroll
    for (int j = 0; j < ITEMS_PER_THREAD; ++j)
    {
      const int r = j * BLOCK_THREADS + threadIdx.x;
      if (r < valid)
      {
        const Bits k = temp.exchange.keys[r];
        keys_out[temp.offsets[digit(k)] + r] = Traits::out(k, flip);
      }
    }
  }

  /// The tile's values after its keys: through shared memory in rank order
  /// when they fit (as Onesweep), else straight from registers.
  static GOCCCL_DEVICE void scatter_values(TempStorage& temp, const V* values_in, V* values_out, int valid,
                                           int warp_base, const Bits (&bits)[ITEMS_PER_THREAD],
                                           const int (&ranks)[ITEMS_PER_THREAD], radix::Digit digit)
  {
    ValueReg values[ITEMS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int idx = warp_base + i * 32;
      if (idx < valid)
      {
        values[i] = values_in[idx];
      }
    }
    if constexpr (VALUES_IN_SMEM)
    {
      unsigned digits[ITEMS_PER_THREAD];
#pragma unroll
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        digits[j] = digit(temp.exchange.keys[j * BLOCK_THREADS + threadIdx.x]);
      }
      __syncthreads(); // keys read
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        temp.exchange.values[ranks[i]] = values[i];
      }
      __syncthreads();
#pragma unroll
      for (int j = 0; j < ITEMS_PER_THREAD; ++j)
      {
        const int r = j * BLOCK_THREADS + threadIdx.x;
        if (r < valid)
        {
          values_out[temp.offsets[digits[j]] + r] = temp.exchange.values[r];
        }
      }
    }
    else
    {
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        if (warp_base + i * 32 < valid)
        {
          values_out[temp.offsets[digit(bits[i])] + ranks[i]] = values[i];
        }
      }
    }
  }

  /// Sorts the len items from b: the one sweep's counts, then the passes
  /// that move anything, the k-th of R writing the output when R - 1 - k is
  /// even, else the alternate buffers (never with one pass: 1-byte keys).
  /// Each pass's buffers follow from which passes run (one mask), so that
  /// little stays live across the tiles.
  static GOCCCL_DEVICE void run(TempStorage& temp, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                V* d_values_out, K* d_keys_alt, V* d_values_alt, long long b, long long len,
                                bool descending)
  {
    constexpr unsigned ALL_PASSES = (1u << PASSES) - 1u;
    const Bits flip = Keys<K>::flip(descending);
    // Indexed by the pass, the counts live in local memory, not in registers
    // across the tiles: one load a pass.
    long long held[PASSES];
    unsigned runs = ALL_PASSES & ~count(temp, d_keys_in + b, len, flip, held); // bit p: pass p runs
    if (runs == 0)
    {
      runs = 1u << (PASSES - 1); // all keys alike: one pass copies them
    }
#pragma unroll 1
    for (int p = 0; p < PASSES; ++p)
    {
      if ((runs & (1u << p)) == 0)
      {
        continue;
      }
      // Consecutive passes that run alternate buffers, the last writing the
      // output: this one writes the alternates when an odd number run after
      // it, and reads what the previous one wrote (the other buffer), or the
      // input when none ran before it.
      const bool to_alt = __popc(runs >> (p + 1)) % 2 == 1;
      const bool first = (runs & ((1u << p) - 1u)) == 0;
      const K* src_k = first ? d_keys_in : to_alt ? d_keys_out : d_keys_alt;
      const V* src_v = first ? d_values_in : to_alt ? d_values_out : d_values_alt;
      // Thread d < RADIX_DIGITS: where digit d starts in the segment.
      long long bin;
      __syncthreads(); // the exchange is free
      BinScan(temp.exchange.scan).ExclusiveSum(held[p], bin); // the tiles' ranking starts with a barrier
      pass(temp, src_k, to_alt ? d_keys_alt : d_keys_out, src_v, to_alt ? d_values_alt : d_values_out, b, len,
           radix::Digit(0, Traits::KEY_BITS, p), bin, first, flip);
      __syncthreads(); // this pass's writes are visible to the next pass's reads
    }
  }
};

/// The fallback's sort of every segment by one block each: a warp for small
/// segments, one pass in shared memory for segments that fit the block's
/// tile, BlockPasses for longer ones (as cub's DeviceSegmentedSortFallbackKernel).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
struct EachSort
{
  using Warp = WarpSort<BLOCK_THREADS, K, V>;
  using Medium = radix::SingleTile<BLOCK_THREADS, MEDIUM_ITEMS, K, V>;
  static constexpr bool HAS_BIG = ITEMS_PER_THREAD > MEDIUM_ITEMS;
  using Big = radix::SingleTile<BLOCK_THREADS, HAS_BIG ? ITEMS_PER_THREAD : MEDIUM_ITEMS, K, V>;
  using Passes = BlockPasses<BLOCK_THREADS, ITEMS_PER_THREAD, K, V>;
  static constexpr long long MEDIUM_MAX = static_cast<long long>(BLOCK_THREADS) * MEDIUM_ITEMS;
  static constexpr long long BIG_MAX = HAS_BIG ? static_cast<long long>(BLOCK_THREADS) * ITEMS_PER_THREAD : MEDIUM_MAX;
  static constexpr bool HAS_VALUES = !std::is_same<V, NoValues>::value;

  union TempStorage
  {
    typename Warp::TempStorage warp;
    typename Medium::TempStorage medium;
    typename Big::TempStorage big;
    typename Passes::TempStorage passes;
  };

  /// Block blockIdx.x sorts segment blockIdx.x (< num_segments).
  static GOCCCL_DEVICE void run(TempStorage& temp, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                V* d_values_out, const int64_t* d_begin, const int64_t* d_end, long long num_segments,
                                long long n, K* d_keys_alt, V* d_values_alt, bool descending)
  {
    const long long s = blockIdx.x;
    if (s >= num_segments)
    {
      return; // the whole block
    }
    long long b, len;
    segment(d_begin, d_end, s, n, b, len);
    if (len <= 1)
    {
      if (len == 1 && threadIdx.x == 0)
      {
        d_keys_out[b] = d_keys_in[b];
        if constexpr (HAS_VALUES)
        {
          d_values_out[b] = d_values_in[b];
        }
      }
      return;
    }
    if (len <= SMALL_MAX)
    {
      if (threadIdx.x < 32)
      {
        Warp::sort(temp.warp.keys[0], d_keys_in, d_keys_out, d_values_in, d_values_out, b, len, descending);
      }
      return;
    }
    const K* kin = d_keys_in + b;
    K* kout = d_keys_out + b;
    const V* vin = HAS_VALUES ? d_values_in + b : d_values_in;
    V* vout = HAS_VALUES ? d_values_out + b : d_values_out;
    constexpr int KEY_BITS = radix::KeyTraits<K>::KEY_BITS;
    if (len <= MEDIUM_MAX)
    {
      Medium::run(temp.medium, kin, kout, vin, vout, len, 0, KEY_BITS, descending);
    }
    else if (len <= BIG_MAX)
    {
      Big::run(temp.big, kin, kout, vin, vout, len, 0, KEY_BITS, descending);
    }
    else
    {
      Passes::run(temp.passes, d_keys_in, d_keys_out, d_values_in, d_values_out, d_keys_alt, d_values_alt, b, len,
                  descending);
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
 * PORTION_BITS (here and in plan, histogram and onesweep, the same in all
 * four): the log2 bound of a portion, lowered by tests only.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, int PORTION_BITS = detail::radix::PORTION_BITS>
__device__ void segmented_sort_keys_classify(const K* d_keys_in, K* d_keys_out, const int64_t* d_begin,
                                             const int64_t* d_end, long long n, GOCCCL_SEGSORT_LISTS)
{
  detail::segsort::classify<BLOCK_THREADS, ITEMS_PER_THREAD, PORTION_BITS, K, detail::radix::NoValues>(
    d_keys_in, d_keys_out, nullptr, nullptr, d_begin, d_end, num_segments, n, GOCCCL_SEGSORT_MAKE_LISTS);
}

/// \brief segmented_sort_keys_classify for pairs.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V,
          int PORTION_BITS = detail::radix::PORTION_BITS>
__device__ void segmented_sort_pairs_classify(const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                              V* d_values_out, const int64_t* d_begin, const int64_t* d_end,
                                              long long n, GOCCCL_SEGSORT_LISTS)
{
  detail::segsort::classify<BLOCK_THREADS, ITEMS_PER_THREAD, PORTION_BITS, K, V>(
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
 * \brief One block: tile_prefix[k] and portion_prefix[k] = the tiles and
 * portions of large segments 0..k-1 (list order); tile_prefix[L] and
 * portion_prefix[L] = their totals. V (the values of pairs) is unused.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V = detail::radix::NoValues,
          int PORTION_BITS = detail::radix::PORTION_BITS>
__device__ void segmented_sort_plan(const int64_t* d_begin, const int64_t* d_end, long long n, GOCCCL_SEGSORT_LISTS)
{
  using Scan = cub::BlockScan<long long, BLOCK_THREADS>;
  using L = detail::segsort::Large<BLOCK_THREADS, ITEMS_PER_THREAD, PORTION_BITS>;
  __shared__ typename Scan::TempStorage temp;
  const detail::segsort::Lists lists = GOCCCL_SEGSORT_MAKE_LISTS;
  const long long count = lists.count(3);
  long long tiles_before = 0, portions_before = 0;
  for (long long base = 0; base < count; base += BLOCK_THREADS)
  {
    const long long k = base + threadIdx.x;
    long long tiles = 0, portions = 0;
    if (k < count)
    {
      long long b, len;
      detail::segsort::segment(d_begin, d_end, lists.list[3][k], n, b, len);
      tiles = L::tiles(len);
      portions = L::portions(len);
    }
    long long prefix, total;
    Scan(temp).ExclusiveSum(tiles, prefix, total);
    if (k < count)
    {
      lists.tile_prefix[k] = tiles_before + prefix;
    }
    tiles_before += total;
    __syncthreads();
    Scan(temp).ExclusiveSum(portions, prefix, total);
    if (k < count)
    {
      lists.portion_prefix[k] = portions_before + prefix;
    }
    portions_before += total;
    __syncthreads();
  }
  if (threadIdx.x == 0)
  {
    lists.tile_prefix[count] = tiles_before;
    lists.portion_prefix[count] = portions_before;
  }
}

/**
 * \brief Counts the digits of every pass of the large segments' tiles into
 * the bins of their portions, d_bins[portion][pass][digit] (zeroed, as the
 * done counters after them); the last tile of a segment to finish turns its
 * portions' counts into where their digits start in the segment (right in
 * every pass for portion 0, in pass 0 for the others: Onesweep's carries
 * replace them in later passes). Grid: the tile total. V is unused.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V = detail::radix::NoValues,
          int PORTION_BITS = detail::radix::PORTION_BITS>
__device__ void segmented_sort_histogram(const K* d_keys_in, const int64_t* d_begin, const int64_t* d_end,
                                         long long n, GOCCCL_SEGSORT_LISTS, void* d_bins, bool descending)
{
  using namespace detail::radix;
  using Keys = detail::segsort::Keys<K>;
  using Bits = typename Keys::Bits;
  using L = detail::segsort::Large<BLOCK_THREADS, ITEMS_PER_THREAD, PORTION_BITS>;
  using BinScan = cub::BlockScan<unsigned long long, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
  constexpr int TILE = L::TILE_ITEMS;
  constexpr int PASSES = Keys::PASSES;
  __shared__ unsigned counts[PASSES][RADIX_DIGITS];
  __shared__ long long seg[4]; // list entry, first item of the tile, valid items, portion
  __shared__ typename BinScan::TempStorage scan;
  __shared__ bool last;

  const detail::segsort::Lists lists = GOCCCL_SEGSORT_MAKE_LISTS;
  const long long count = lists.count(3);
  const int tid = threadIdx.x;
  const long long t = blockIdx.x;
  if (tid == 0)
  {
    seg[0] = -1;
    if (t < lists.tile_prefix[count])
    {
      const long long k = detail::segsort::find_segment(lists.tile_prefix, count, t);
      long long b, len;
      detail::segsort::segment(d_begin, d_end, lists.list[3][k], n, b, len);
      const long long local = t - lists.tile_prefix[k];
      seg[0] = k;
      seg[1] = b + local * TILE;
      seg[2] = min(static_cast<long long>(TILE), len - local * TILE);
      seg[3] = lists.portion_prefix[k] + local / L::TILES_PER_PORTION;
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
  unsigned long long* bins = static_cast<unsigned long long*>(d_bins);
  unsigned long long* mine = bins + seg[3] * PASSES * RADIX_DIGITS;
  for (int i = tid; i < PASSES * RADIX_DIGITS; i += BLOCK_THREADS)
  {
    const unsigned c = (&counts[0][0])[i];
    if (c != 0)
    {
      atomicAdd(mine + i, static_cast<unsigned long long>(c));
    }
  }

  // The segment's last tile scans the counts of its portions.
  const long long k = seg[0];
  __threadfence();
  __syncthreads();
  if (tid == 0)
  {
    unsigned long long* done = bins + lists.portion_prefix[count] * PASSES * RADIX_DIGITS + k;
    const unsigned long long tiles = static_cast<unsigned long long>(lists.tile_prefix[k + 1] - lists.tile_prefix[k]);
    last = atomicAdd(done, 1ull) == tiles - 1;
  }
  __syncthreads();
  if (!last)
  {
    return;
  }
  __threadfence();
  const long long first = lists.portion_prefix[k];
  const long long portions = lists.portion_prefix[k + 1] - first;
  volatile unsigned long long* seg_bins = bins + first * PASSES * RADIX_DIGITS;
  for (int pass = 0; pass < PASSES; ++pass)
  {
    unsigned long long total = 0;
    if (tid < RADIX_DIGITS)
    {
      for (long long r = 0; r < portions; ++r)
      {
        total += seg_bins[(r * PASSES + pass) * RADIX_DIGITS + tid];
      }
    }
    unsigned long long start;
    BinScan(scan).ExclusiveSum(total, start);
    if (tid < RADIX_DIGITS)
    {
      for (long long r = 0; r < portions; ++r)
      {
        const long long i = (r * PASSES + pass) * RADIX_DIGITS + tid;
        const unsigned long long c = seg_bins[i];
        seg_bins[i] = start;
        start += c;
      }
    }
    __syncthreads();
  }
}

/**
 * \brief Launch `launch` of Onesweep over every large segment's keys: pass
 * launch / P over portion launch % P of each segment, P = `portions` (at
 * least the portions of every large segment, see the file comment), in ->
 * out (distinct buffers). Launches 0, 1, ..., PASSES * P - 1 in order on one
 * stream. d_bins as segmented_sort_histogram left them (the launches write
 * the carries of later portions into them); d_lookback: the tile total * 256
 * 32-bit look-back words, zeroed before the first launch. Grid: the tile
 * total.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, int PORTION_BITS = detail::radix::PORTION_BITS>
__device__ void segmented_sort_keys_onesweep(const K* d_keys_in, K* d_keys_out, const int64_t* d_begin,
                                             const int64_t* d_end, long long n, GOCCCL_SEGSORT_LISTS, void* d_bins,
                                             void* d_lookback, long long portions, long long launch,
                                             bool descending)
{
  using Agent =
    detail::segsort::SegmentOnesweep<BLOCK_THREADS, ITEMS_PER_THREAD, K, detail::radix::NoValues, PORTION_BITS>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, nullptr, nullptr, d_begin, d_end, n, GOCCCL_SEGSORT_MAKE_LISTS,
             static_cast<unsigned long long*>(d_bins), static_cast<unsigned*>(d_lookback), portions, launch,
             descending);
}

/// \brief segmented_sort_keys_onesweep for pairs.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V,
          int PORTION_BITS = detail::radix::PORTION_BITS>
__device__ void segmented_sort_pairs_onesweep(const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                              V* d_values_out, const int64_t* d_begin, const int64_t* d_end,
                                              long long n, GOCCCL_SEGSORT_LISTS, void* d_bins, void* d_lookback,
                                              long long portions, long long launch, bool descending)
{
  using Agent = detail::segsort::SegmentOnesweep<BLOCK_THREADS, ITEMS_PER_THREAD, K, V, PORTION_BITS>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, d_values_in, d_values_out, d_begin, d_end, n, GOCCCL_SEGSORT_MAKE_LISTS,
             static_cast<unsigned long long*>(d_bins), static_cast<unsigned*>(d_lookback), portions, launch,
             descending);
}


/**
 * \brief The fallback (cub's DeviceSegmentedSortFallbackKernel): every
 * segment in one launch, grid num_segments, block s sorting segment s
 * (clamped to [0, n), at most 2^32 - 1 - tile items) with the engine of its
 * length (see the file comment).
 * d_keys_alt: n keys, the alternate buffer of segments longer than the
 * tile, read and written at the segment's own positions (may be null when
 * no segment is longer than the big class or the key is one byte: one
 * pass). No lists, no scratch counters.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K>
__device__ void segmented_sort_keys_each(const K* d_keys_in, K* d_keys_out, const int64_t* d_begin,
                                         const int64_t* d_end, long long n, long long num_segments, void* d_keys_alt,
                                         bool descending)
{
  using Agent = detail::segsort::EachSort<BLOCK_THREADS, ITEMS_PER_THREAD, K, detail::radix::NoValues>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, nullptr, nullptr, d_begin, d_end, num_segments, n,
             static_cast<K*>(d_keys_alt), nullptr, descending);
}

/// \brief segmented_sort_keys_each for pairs: d_values_alt holds n values,
/// as d_keys_alt n keys.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
__device__ void segmented_sort_pairs_each(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                                          const int64_t* d_begin, const int64_t* d_end, long long n,
                                          long long num_segments, void* d_keys_alt, void* d_values_alt,
                                          bool descending)
{
  using Agent = detail::segsort::EachSort<BLOCK_THREADS, ITEMS_PER_THREAD, K, V>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, d_values_in, d_values_out, d_begin, d_end, num_segments, n,
             static_cast<K*>(d_keys_alt), static_cast<V*>(d_values_alt), descending);
}

#undef GOCCCL_SEGSORT_LISTS
#undef GOCCCL_SEGSORT_MAKE_LISTS

} // namespace gocccl
