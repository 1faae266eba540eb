/*
 * gocccl/radix_sort.cuh: device-wide stable LSD radix sort of keys or
 * key-value pairs by Onesweep (Adinets & Merrill 2022, CUB's
 * DeviceRadixSort onesweep path), the kernel side of runtime.RadixSortKeys
 * and runtime.RadixSortPairs.
 *
 *   <sym>_init       grid any:  zeroes the first `words` 8-byte words of the
 *                               scratch (digit counts, tile counters and the
 *                               look-back state of every pass).
 *   <sym>_histogram  grid G:    counts, for every digit pass at once, how many
 *                               keys have each digit (bins[pass][digit]).
 *   <sym>_onesweep   grid T:    one launch per pass, T = ceil(n / TILE) blocks:
 *                               each block takes the next tile (atomic tile
 *                               counter, so earlier tiles always have a running
 *                               block), ranks its keys by the pass's digit,
 *                               publishes its digit counts and looks back over
 *                               the earlier tiles' counts (decoupled look-back,
 *                               one digit per thread), then scatters keys (and
 *                               values) to bins[pass] scanned + look-back +
 *                               rank in tile.
 *   <sym>_single     grid 1:    n <= TILE: one block sorts everything, all
 *                               passes in shared memory, and writes the output.
 *
 * Order. Keys are sorted by their "ordered bits": unsigned integers as they
 * are; signed integers with the sign bit flipped; floats as CUB twiddles them
 * (negative: all bits flipped, else the sign bit flipped), so -0 sorts before
 * +0, and NaNs with the sign bit clear after +Inf (with it set, before -Inf);
 * descending flips every bit of the result. Only bits [begin_bit, end_bit) of
 * the ordered bits are compared, in 8-bit digits from begin_bit up (the last
 * digit may be narrower); the sort is stable in every case.
 *
 * Scratch layout (8-byte words; the host computes the same):
 *   [0, 2048)               bins[8][256]     digit counts of each pass
 *   [2048, 2056)            tile counter of each pass
 *   [2056, 2056 + T * 256)  look-back[T][256], reused by every pass: one word
 *                           per tile and digit: bits 63..60 the pass + 1 (a word
 *                           of another pass reads as "not yet"), bit 59 set when
 *                           the value is the inclusive count of the digit over
 *                           tiles [0, t], clear when it is tile t's count alone,
 *                           bits 58..0 the value.
 *
 * Keys are ranked in shared memory by warp: every warp owns WARP_ITEMS
 * consecutive items of the tile, item i of lane l at i * 32 + l, so for each i
 * the warp's lanes hold consecutive items; __match_any_sync groups the lanes
 * with equal digits and the lowest of them adds the group to the warp's digit
 * counter (as cub::BlockRadixRankMatchEarlyCounts does; our own code, because
 * its template parameters and RankKeys differ between CUB 1.17 and CCCL 3).
 * Then one thread per digit turns the warps' counts into prefixes, and a block
 * scan over digits gives every key its rank in the tile.
 *
 * Needs sm_70+ (__match_any_sync), BLOCK_THREADS a multiple of 32 and >= 256
 * (one thread per digit), launched with blockDim.x == BLOCK_THREADS. All sizes
 * and indices are 64-bit. Compiles with CUB 1.17 (CUDA 11.8) and CCCL 3.x.
 */
#pragma once

#include <gocccl/config.cuh>

#include <cub/block/block_scan.cuh>

#include <stdint.h>
#include <type_traits>

namespace gocccl {
namespace detail {
namespace radix {

constexpr int RADIX_BITS = 8;
constexpr int RADIX_DIGITS = 1 << RADIX_BITS;
constexpr int MAX_PASSES = 8; // 64-bit keys
constexpr long long BINS_WORDS = MAX_PASSES * RADIX_DIGITS;
constexpr long long COUNTER_WORDS = MAX_PASSES;
constexpr long long LOOKBACK_OFFSET = BINS_WORDS + COUNTER_WORDS;
/// Shared memory a tile's value exchange may take; larger values are scattered
/// straight from registers.
constexpr int VALUE_EXCHANGE_BYTES = 36864;

constexpr unsigned long long LB_VALUE_MASK = (1ull << 59) - 1;
constexpr unsigned long long LB_INCLUSIVE = 1ull << 59;
constexpr int LB_TAG_SHIFT = 60;

/// The payload type of keys-only sorts.
struct NoValues
{};

template <int BYTES> struct uint_of;
template <> struct uint_of<1> { using type = uint8_t; };
template <> struct uint_of<2> { using type = uint16_t; };
template <> struct uint_of<4> { using type = uint32_t; };
template <> struct uint_of<8> { using type = uint64_t; };

/// Conversions between a key and its ordered bits.
template <typename K>
struct KeyTraits
{
  static_assert(sizeof(K) == 1 || sizeof(K) == 2 || sizeof(K) == 4 || sizeof(K) == 8,
                "gocccl::radix_sort: keys must be 1, 2, 4 or 8 bytes");
  static_assert(std::is_arithmetic<K>::value, "gocccl::radix_sort: keys must be integers or floats");
  using Bits = typename uint_of<int(sizeof(K))>::type;
  static constexpr Bits SIGN = Bits(Bits(1) << (8 * sizeof(K) - 1));
  static constexpr Bits ALL = Bits(~Bits(0));
  static constexpr int KEY_BITS = 8 * int(sizeof(K));

  static GOCCCL_DEVICE Bits in(K k, Bits flip)
  {
    Bits b;
    memcpy(&b, &k, sizeof(K));
    if constexpr (std::is_floating_point<K>::value)
    {
      b = (b & SIGN) ? Bits(~b) : Bits(b ^ SIGN);
    }
    else if constexpr (std::is_signed<K>::value)
    {
      b = Bits(b ^ SIGN);
    }
    return Bits(b ^ flip);
  }

  static GOCCCL_DEVICE K out(Bits b, Bits flip)
  {
    b = Bits(b ^ flip);
    if constexpr (std::is_floating_point<K>::value)
    {
      b = (b & SIGN) ? Bits(b ^ SIGN) : Bits(~b);
    }
    else if constexpr (std::is_signed<K>::value)
    {
      b = Bits(b ^ SIGN);
    }
    K k;
    memcpy(&k, &b, sizeof(K));
    return k;
  }
};

/// The digit of one pass: `bits` bits of the ordered bits from `shift`.
struct Digit
{
  int shift;
  unsigned mask;

  GOCCCL_DEVICE Digit(long long begin_bit, long long end_bit, int pass)
  {
    shift = int(begin_bit) + pass * RADIX_BITS;
    const int bits = min(RADIX_BITS, int(end_bit) - shift);
    mask = (1u << bits) - 1u;
  }

  template <typename Bits>
  GOCCCL_DEVICE unsigned operator()(Bits b) const
  {
    return unsigned(static_cast<unsigned long long>(b) >> shift) & mask;
  }
};

GOCCCL_DEVICE int num_passes(long long begin_bit, long long end_bit)
{
  return int((end_bit - begin_bit + RADIX_BITS - 1) / RADIX_BITS);
}

GOCCCL_DEVICE unsigned lanemask_lt()
{
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

/// Ranks a block's tile of keys by one digit (see the file comment). Keys are
/// warp-striped: thread (warp w, lane l) holds items w * WARP_ITEMS + i * 32 + l.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD>
struct BlockRank
{
  static constexpr int WARPS = BLOCK_THREADS / 32;
  static constexpr int WARP_ITEMS = 32 * ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  static_assert(BLOCK_THREADS % 32 == 0 && BLOCK_THREADS >= RADIX_DIGITS && BLOCK_THREADS <= 1024,
                "gocccl::radix_sort: BLOCK_THREADS must be a multiple of 32 in [256, 1024]");

  using DigitScan = cub::BlockScan<int, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;

  struct TempStorage
  {
    unsigned warp_counts[WARPS][RADIX_DIGITS];
  };
  using ScanStorage = typename DigitScan::TempStorage;

  /// Ranks the keys: ranks[i] is the position of item i in the tile stably
  /// sorted by digit. In thread d < RADIX_DIGITS, returns digit d's count in
  /// the tile (padding included) and its exclusive prefix over digits in
  /// *digit_prefix. Ends with a barrier; temp may be reused after it.
  template <typename Bits>
  static GOCCCL_DEVICE int rank(TempStorage& temp, ScanStorage& scan, const Bits (&bits)[ITEMS_PER_THREAD],
                                Digit digit, int (&ranks)[ITEMS_PER_THREAD], int* digit_prefix)
  {
    const int tid = threadIdx.x;
    const int warp = tid / 32;
    const unsigned lt = lanemask_lt();
    for (int i = tid; i < WARPS * RADIX_DIGITS; i += BLOCK_THREADS)
    {
      (&temp.warp_counts[0][0])[i] = 0;
    }
    __syncthreads();

    unsigned* counts = temp.warp_counts[warp];
    unsigned digits[ITEMS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const unsigned d = digit(bits[i]);
      digits[i] = d;
      const unsigned peers = __match_any_sync(0xffffffffu, d);
      const unsigned before = counts[d];
      ranks[i] = int(before + __popc(peers & lt));
      __syncwarp();
      if ((peers & lt) == 0) // the lowest lane of the group
      {
        counts[d] = before + __popc(peers);
      }
      __syncwarp();
    }
    __syncthreads();

    // Thread d: prefixes of digit d over the warps, then over the digits.
    int total = 0;
    if (tid < RADIX_DIGITS)
    {
#pragma unroll
      for (int w = 0; w < WARPS; ++w)
      {
        const unsigned c = temp.warp_counts[w][tid];
        temp.warp_counts[w][tid] = unsigned(total);
        total += int(c);
      }
    }
    int prefix;
    DigitScan(scan).ExclusiveSum(total, prefix);
    if (tid < RADIX_DIGITS)
    {
#pragma unroll
      for (int w = 0; w < WARPS; ++w)
      {
        temp.warp_counts[w][tid] += unsigned(prefix);
      }
      *digit_prefix = prefix;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      ranks[i] += int(counts[digits[i]]);
    }
    __syncthreads();
    return total;
  }
};

/// Loads a tile's keys warp-striped as ordered bits; items at or past
/// `valid` get all bits set (they rank last and are never written).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K>
GOCCCL_DEVICE void load_keys(const K* tile, int valid, typename KeyTraits<K>::Bits flip,
                             typename KeyTraits<K>::Bits (&bits)[ITEMS_PER_THREAD])
{
  using Traits = KeyTraits<K>;
  const int base = (threadIdx.x / 32) * 32 * ITEMS_PER_THREAD + threadIdx.x % 32;
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int idx = base + i * 32;
    bits[i] = idx < valid ? Traits::in(load_item<true>(tile + idx), flip) : Traits::ALL;
  }
}

/// Reads one look-back word (bypassing L1) and writes one.
GOCCCL_DEVICE unsigned long long load_lookback(const unsigned long long* p)
{
  return *reinterpret_cast<const volatile unsigned long long*>(p);
}
GOCCCL_DEVICE void store_lookback(unsigned long long* p, unsigned long long v)
{
  *reinterpret_cast<volatile unsigned long long*>(p) = v;
}

/// One pass of Onesweep over one tile.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
struct Onesweep
{
  using Traits = KeyTraits<K>;
  using Bits = typename Traits::Bits;
  using Rank = BlockRank<BLOCK_THREADS, ITEMS_PER_THREAD>;
  static constexpr int TILE_ITEMS = Rank::TILE_ITEMS;
  static constexpr bool HAS_VALUES = !std::is_same<V, NoValues>::value;
  static constexpr bool VALUES_IN_SMEM =
    HAS_VALUES && (long long)TILE_ITEMS * (long long)sizeof(V) <= VALUE_EXCHANGE_BYTES;
  using ValueSlot = typename std::conditional<VALUES_IN_SMEM, V, Bits>::type;
  using BaseScan = cub::BlockScan<unsigned long long, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;

  struct TempStorage
  {
    union
    {
      typename Rank::TempStorage rank;
      Bits keys[TILE_ITEMS];
      ValueSlot values[VALUES_IN_SMEM ? TILE_ITEMS : 1];
    } exchange;
    union
    {
      typename Rank::ScanStorage digits;
      typename BaseScan::TempStorage bases;
    } scan;
    long long offsets[RADIX_DIGITS]; // output index of the tile's first item of each digit, minus its rank
    long long tile;
  };

  static GOCCCL_DEVICE void run(TempStorage& temp, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                V* d_values_out, long long n, void* d_scratch, int pass, long long begin_bit,
                                long long end_bit, bool descending)
  {
    unsigned long long* words = static_cast<unsigned long long*>(d_scratch);
    unsigned long long* bins = words + pass * RADIX_DIGITS;
    unsigned long long* counter = words + BINS_WORDS + pass;
    unsigned long long* lookback = words + LOOKBACK_OFFSET;
    const int tid = threadIdx.x;

    if (tid == 0)
    {
      temp.tile = static_cast<long long>(atomicAdd(counter, 1ull));
    }
    __syncthreads();
    const long long tile = temp.tile;
    const long long tile_base = tile * TILE_ITEMS;
    const int valid = static_cast<int>(min(static_cast<long long>(TILE_ITEMS), n - tile_base));
    const Bits flip = descending ? Traits::ALL : Bits(0);
    const Digit digit(begin_bit, end_bit, pass);

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

    // Digit bases: the scanned histogram of the pass, one digit per thread.
    unsigned long long bin = tid < RADIX_DIGITS ? bins[tid] : 0ull;
    unsigned long long base;
    BaseScan(temp.scan.bases).ExclusiveSum(bin, base);

    if (tid < RADIX_DIGITS)
    {
      // Decoupled look-back for digit tid.
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
      temp.offsets[tid] = static_cast<long long>(base + exclusive) - digit_prefix;
    }
    __syncthreads(); // offsets visible; the rank storage is free

    // Keys: to shared memory in tile order, then out striped (coalesced).
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
        const Bits b = temp.exchange.keys[r];
        dest[j] = temp.offsets[digit(b)] + r;
        d_keys_out[dest[j]] = Traits::out(b, flip);
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
      // Too large for shared memory: straight from registers.
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

/// All passes over at most one tile in one block.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
struct SingleTile
{
  using Traits = KeyTraits<K>;
  using Bits = typename Traits::Bits;
  using Rank = BlockRank<BLOCK_THREADS, ITEMS_PER_THREAD>;
  static constexpr int TILE_ITEMS = Rank::TILE_ITEMS;
  static constexpr bool HAS_VALUES = !std::is_same<V, NoValues>::value;

  struct TempStorage
  {
    union
    {
      typename Rank::TempStorage rank;
      Bits keys[TILE_ITEMS];
    } exchange;
    int index[HAS_VALUES ? TILE_ITEMS : 1];
    typename Rank::ScanStorage scan;
  };

  static GOCCCL_DEVICE void run(TempStorage& temp, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                V* d_values_out, long long n, long long begin_bit, long long end_bit, bool descending)
  {
    const int tid = threadIdx.x;
    const int valid = static_cast<int>(n);
    const Bits flip = descending ? Traits::ALL : Bits(0);
    const int warp_base = (tid / 32) * Rank::WARP_ITEMS + tid % 32;

    Bits bits[ITEMS_PER_THREAD];
    load_keys<BLOCK_THREADS, ITEMS_PER_THREAD>(d_keys_in, valid, flip, bits);
    int index[ITEMS_PER_THREAD]; // original position of each item
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      index[i] = warp_base + i * 32;
    }

    const int passes = num_passes(begin_bit, end_bit);
    for (int pass = 0; pass < passes; ++pass)
    {
      int ranks[ITEMS_PER_THREAD];
      int digit_prefix;
      Rank::rank(temp.exchange.rank, temp.scan, bits, Digit(begin_bit, end_bit, pass), ranks, &digit_prefix);
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        temp.exchange.keys[ranks[i]] = bits[i];
        if constexpr (HAS_VALUES)
        {
          temp.index[ranks[i]] = index[i];
        }
      }
      __syncthreads();
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        bits[i] = temp.exchange.keys[warp_base + i * 32];
        if constexpr (HAS_VALUES)
        {
          index[i] = temp.index[warp_base + i * 32];
        }
      }
      __syncthreads();
    }

    // Everything is read before anything is written, so input and output may
    // be the same buffers.
    V values[HAS_VALUES ? ITEMS_PER_THREAD : 1];
    if constexpr (HAS_VALUES)
    {
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        if (warp_base + i * 32 < valid)
        {
          values[i] = d_values_in[index[i]];
        }
      }
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int idx = warp_base + i * 32;
      if (idx < valid)
      {
        d_keys_out[idx] = Traits::out(bits[i], flip);
        if constexpr (HAS_VALUES)
        {
          d_values_out[idx] = values[i];
        }
      }
    }
  }
};

} // namespace radix
} // namespace detail

/**
 * \brief Zeroes words[0, words) of the scratch (grid-stride; any grid).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename... Types>
__device__ void radix_sort_init(void* d_scratch, long long words)
{
  unsigned long long* w = static_cast<unsigned long long*>(d_scratch);
  const long long stride = static_cast<long long>(gridDim.x) * BLOCK_THREADS;
  for (long long i = static_cast<long long>(blockIdx.x) * BLOCK_THREADS + threadIdx.x; i < words; i += stride)
  {
    w[i] = 0;
  }
}

/**
 * \brief Counts the digits of every pass of d_keys_in[0:n] into the scratch's
 * bins (zeroed by radix_sort_init). Block b takes tiles b, b + G, ...
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename... Rest>
__device__ void radix_sort_histogram(const K* d_keys_in, long long n, void* d_scratch, long long begin_bit,
                                     long long end_bit, bool descending)
{
  using namespace detail::radix;
  using Traits = KeyTraits<K>;
  using Bits = typename Traits::Bits;
  constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  __shared__ unsigned counts[MAX_PASSES][RADIX_DIGITS];

  const int tid = threadIdx.x;
  const int passes = num_passes(begin_bit, end_bit);
  for (int i = tid; i < MAX_PASSES * RADIX_DIGITS; i += BLOCK_THREADS)
  {
    (&counts[0][0])[i] = 0;
  }
  __syncthreads();
  const Bits flip = descending ? Traits::ALL : Bits(0);
  const long long num_tiles = (n + TILE_ITEMS - 1) / TILE_ITEMS;
  for (long long tile = blockIdx.x; tile < num_tiles; tile += gridDim.x)
  {
    const long long tile_base = tile * TILE_ITEMS;
    const int valid = static_cast<int>(min(static_cast<long long>(TILE_ITEMS), n - tile_base));
    Bits bits[ITEMS_PER_THREAD];
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const int idx = i * BLOCK_THREADS + tid;
      if (idx < valid)
      {
        bits[i] = Traits::in(detail::load_item<true>(d_keys_in + tile_base + idx), flip);
      }
    }
    for (int pass = 0; pass < passes; ++pass)
    {
      const Digit digit(begin_bit, end_bit, pass);
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        if (i * BLOCK_THREADS + tid < valid)
        {
          atomicAdd(&counts[pass][digit(bits[i])], 1u);
        }
      }
    }
  }
  __syncthreads();
  unsigned long long* bins = static_cast<unsigned long long*>(d_scratch);
  for (int i = tid; i < passes * RADIX_DIGITS; i += BLOCK_THREADS)
  {
    const unsigned c = (&counts[0][0])[i];
    if (c != 0)
    {
      atomicAdd(bins + i, static_cast<unsigned long long>(c));
    }
  }
}

/**
 * \brief Pass `pass` of a keys-only Onesweep sort: d_keys_in -> d_keys_out
 * (distinct buffers). Launch ceil(n / TILE) blocks after radix_sort_histogram.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K>
__device__ void radix_sort_keys_onesweep(const K* d_keys_in, K* d_keys_out, long long n, void* d_scratch,
                                         long long pass, long long begin_bit, long long end_bit, bool descending)
{
  using Agent = detail::radix::Onesweep<BLOCK_THREADS, ITEMS_PER_THREAD, K, detail::radix::NoValues>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, nullptr, nullptr, n, d_scratch, int(pass), begin_bit, end_bit, descending);
}

/**
 * \brief Pass `pass` of a key-value Onesweep sort: keys and values in -> out
 * (distinct buffers).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
__device__ void radix_sort_pairs_onesweep(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                                          long long n, void* d_scratch, long long pass, long long begin_bit,
                                          long long end_bit, bool descending)
{
  using Agent = detail::radix::Onesweep<BLOCK_THREADS, ITEMS_PER_THREAD, K, V>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, d_values_in, d_values_out, n, d_scratch, int(pass), begin_bit, end_bit,
             descending);
}

/**
 * \brief Sorts n <= TILE keys in one block (grid 1); in and out may be the
 * same buffer.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K>
__device__ void radix_sort_keys_single(const K* d_keys_in, K* d_keys_out, long long n, long long begin_bit,
                                       long long end_bit, bool descending)
{
  using Agent = detail::radix::SingleTile<BLOCK_THREADS, ITEMS_PER_THREAD, K, detail::radix::NoValues>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, nullptr, nullptr, n, begin_bit, end_bit, descending);
}

/**
 * \brief Sorts n <= TILE pairs in one block (grid 1); in and out may be the
 * same buffers.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
__device__ void radix_sort_pairs_single(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                                        long long n, long long begin_bit, long long end_bit, bool descending)
{
  using Agent = detail::radix::SingleTile<BLOCK_THREADS, ITEMS_PER_THREAD, K, V>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, d_values_in, d_values_out, n, begin_bit, end_bit, descending);
}

} // namespace gocccl
