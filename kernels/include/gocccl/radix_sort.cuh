/*
 * gocccl/radix_sort.cuh: device-wide stable LSD radix sort of keys or
 * key-value pairs by Onesweep (Adinets & Merrill 2022, CUB's
 * DeviceRadixSort onesweep path), the kernel side of runtime.RadixSortKeys
 * and runtime.RadixSortPairs.
 *
 *   <sym>_init       grid any:  zeroes the first `words` 8-byte words of the
 *                               scratch (digit counts, counters and the
 *                               look-back words).
 *   <sym>_histogram  grid G:    counts, for every digit pass at once, how many
 *                               keys have each digit; the last block to finish
 *                               turns the counts into exclusive prefixes over
 *                               the digits (bins[pass][digit]: where the
 *                               digit's keys start in the pass's output).
 *   <sym>_onesweep   grid T:    one launch per pass and portion (see below),
 *                               T = the portion's tiles: each block takes the
 *                               next tile (atomic tile counter, so earlier
 *                               tiles always have a running block), counts its
 *                               keys' digits (per-warp shared histograms) and
 *                               publishes the counts at once ("early counts"),
 *                               ranks its keys (warp match), stores them to
 *                               shared memory in tile order, looks back over
 *                               the earlier tiles' counts (decoupled look-back,
 *                               one digit per thread), then writes keys (and
 *                               values, exchanged the same way) coalesced to
 *                               bins + look-back + rank in tile. A full tile
 *                               whose keys all have one digit skips ranking and
 *                               copies its keys straight out.
 *   <sym>_single     grid 1:    n <= TILE: one block sorts everything, all
 *                               passes in shared memory, and writes the output,
 *                               with the fewest items per thread of 3, 6, 11
 *                               and ITEMS_PER_THREAD that hold n (SingleTiles):
 *                               every pass ranks all the slots of its tile, so
 *                               1024 keys in 384 x 3 take about half the time
 *                               of 384 x 20 (bench/NOTES.md, 2026-12-01 late).
 *
 * Order. Keys are sorted by their "ordered bits": unsigned integers as they
 * are; signed integers with the sign bit flipped; floats as CUB twiddles them
 * (negative: all bits flipped, else the sign bit flipped), so -0 sorts before
 * +0, and NaNs with the sign bit clear after +Inf (with it set, before -Inf);
 * descending flips every bit of the result. Only bits [begin_bit, end_bit) of
 * the ordered bits are compared, in 8-bit digits from begin_bit up (the last
 * digit may be narrower); the sort is stable in every case. The order is an
 * XOR of every key at its load and store, chosen at run time. With
 * GOCCCL_EXPERIMENT_RADIX_ORDER defined, the onesweep kernel instead holds
 * both orders compiled in (Onesweep::run_in_order<0> and <1>, as CUB's two
 * kernels) behind one uniform branch on `descending`; not yet timed on a
 * GPU, so off by default (bench/NOTES.md, nineteenth session).
 *
 * Portions. Look-back words are 32 bits, so a launch sorts at most one
 * portion of PORTION = floor((2^PORTION_BITS - 1) / TILE) * TILE items
 * (PORTION_BITS 29 by default: 2^29 - 1 rounded down to whole tiles); an
 * input of P = ceil(n / PORTION) portions takes P launches per pass. Launch
 * q (the `pass` argument) = pass * P + portion, q = 0, 1, ... in order on one
 * stream. Portion r of a pass starts each digit where portion r - 1 ended it
 * (its last tile writes carry[(r + 1) % 2]).
 *
 * Scratch layout (8-byte words; the host computes the same):
 *   [0, 2048)       bins[8][256]   digit counts of each pass, then (scanned
 *                                  by the histogram kernel) their exclusive
 *                                  prefixes
 *   [2048, 2560)    carry[2][256]  where each digit starts in portion r > 0
 *   [2560, 2562)    tile counters: launch q takes tiles from counter q % 2
 *                                  and its tile 0 zeroes counter (q + 1) % 2
 *   2562            histogram blocks done
 *   [2568, ...)     look-back: one 32-bit word per tile of a portion and
 *                   digit, reused by every launch: bits 31..30 (q % 3) + 1 of
 *                   the launch that wrote it (a word of another launch, or 0,
 *                   reads as "not yet"), bit 29 set when the value is the
 *                   inclusive count of the digit over tiles [0, t] of the
 *                   portion, clear when it is tile t's count alone, bits 28..0
 *                   the value. ceil(T * 256 / 2) words, T the tiles of a
 *                   portion.
 *
 * Ranking (our code, after cub::BlockRadixRankMatchEarlyCounts): keys are
 * warp-striped (thread (warp w, lane l) holds items w * 32 * ITEMS + i * 32 +
 * l); every warp counts its digits with shared atomics; one thread per digit
 * turns the warps' counts into the tile's digit counts and per-warp prefixes;
 * after a block scan over digits each warp ranks its items in order: a warp
 * match finds the lanes with the same digit, and the highest lane of each
 * group adds the group to the warp's digit offset (atomicAdd, returning the
 * old offset). The match is 8 warp ballots, one per digit bit, as CUB's
 * (RankMatch; the first version's __match_any_sync costs more the more
 * distinct digits a warp holds: bench/NOTES.md).
 *
 * Template parameters: BLOCK_THREADS (a multiple of 32 in [256, 1024]: one
 * thread per digit), ITEMS_PER_THREAD, PORTION_BITS (tests only), MATCH
 * (RankMatch; tests and the tune harness only). Needs sm_70+
 * (__match_any_sync), blockDim.x == BLOCK_THREADS, and the tile's exchange
 * buffer within static shared memory (48 KiB): TILE * max(key size, 4) for
 * the single-tile kernel. All sizes and indices are 64-bit. Compiles with
 * CUB 1.17 (CUDA 11.8) and CCCL 3.x.
 */
#pragma once

#include <gocccl/config.cuh>

#include <cub/block/block_scan.cuh>

#include <stdint.h>
#include <type_traits>
#include <utility>

namespace gocccl {
namespace detail {
namespace radix {

constexpr int RADIX_BITS = 8;
constexpr int RADIX_DIGITS = 1 << RADIX_BITS;
constexpr int MAX_PASSES = 8; // 64-bit keys
constexpr long long BINS_WORDS = MAX_PASSES * RADIX_DIGITS;
constexpr long long CARRY_OFFSET = BINS_WORDS;
constexpr long long COUNTER_OFFSET = CARRY_OFFSET + 2 * RADIX_DIGITS;
constexpr long long COUNTER_WORDS = 8;
constexpr long long HIST_DONE_OFFSET = COUNTER_OFFSET + 2;
constexpr long long LOOKBACK_OFFSET = COUNTER_OFFSET + COUNTER_WORDS;
/// Shared memory a tile's value exchange may take at least (more when the
/// keys' exchange is larger); larger values are scattered from registers.
constexpr int VALUE_EXCHANGE_BYTES = 36864;
/// The default log2 bound of a portion.
constexpr int PORTION_BITS = 29;

constexpr unsigned LB_VALUE_MASK = (1u << 29) - 1;
constexpr unsigned LB_INCLUSIVE = 1u << 29;
constexpr int LB_TAG_SHIFT = 30;

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

  /// The digit, computed anew: the compiler may not reuse an earlier
  /// extraction of the same key (which would keep every digit of a tile live
  /// in registers between the counting and the ranking loops).
  template <typename Bits>
  GOCCCL_DEVICE unsigned fresh(Bits b) const
  {
    if constexpr (sizeof(Bits) == 8)
    {
      unsigned long long x = b;
      asm volatile("" : "+l"(x));
      return (*this)(x);
    }
    else
    {
      unsigned x = b;
      asm volatile("" : "+r"(x));
      return (*this)(x);
    }
  }

  template <typename Bits>
  GOCCCL_DEVICE unsigned operator()(Bits b) const
  {
    if constexpr (sizeof(Bits) == 8)
    {
      return unsigned(static_cast<unsigned long long>(b) >> shift) & mask;
    }
    else
    {
      return (unsigned(b) >> shift) & mask;
    }
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

GOCCCL_DEVICE unsigned lanemask_le()
{
  unsigned m;
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(m));
  return m;
}

/// How BlockRank finds, for each lane, the lanes of its warp whose keys have
/// the same digit (the "peers" whose highest lane adds the group to the
/// warp's digit offset).
enum RankMatch
{
  /// One warp ballot per digit bit, the lanes that agree on every bit
  /// (CUB's WARP_MATCH_ANY: cub::MatchAny, "match.any.sync.b32 is slower when
  /// matching a few bits"): 8 ballots a key, a fixed cost. The default.
  RANK_MATCH_BALLOT,
  /// __match_any_sync (one MATCH.ANY instruction): its cost grows with the
  /// number of distinct digits in the warp, about 26 of 32 lanes for random
  /// 8-bit digits. The first version; kept to time against the others.
  RANK_MATCH_NATIVE,
  /// Each lane ORs its bit into a per-warp, per-digit shared mask and reads
  /// it back after __syncwarp (CUB's WARP_MATCH_ATOMIC_OR): 256 masks per warp
  /// of extra shared memory, zeroed again by each group's leader.
  RANK_MATCH_ATOMIC_OR,
};

/// The match of the generated kernels.
constexpr RankMatch DEFAULT_RANK_MATCH = RANK_MATCH_BALLOT;

/// The lanes whose `label` agrees with this lane's in its low LABEL_BITS
/// bits (all 32 lanes active): a ballot per bit, keeping the lanes that voted
/// as this lane did.
template <int LABEL_BITS>
GOCCCL_DEVICE unsigned match_ballot(unsigned label)
{
  unsigned peers = 0xffffffffu;
#pragma unroll
  for (int bit = 0; bit < LABEL_BITS; ++bit)
  {
    // The lanes that voted as this one did (cub::MatchAny's PTX).
    unsigned same;
    asm("{\n"
        "  .reg .pred p;\n"
        "  and.b32 %0, %1, %2;\n"
        "  setp.ne.u32 p, %0, 0;\n"
        "  vote.sync.ballot.b32 %0, p, 0xffffffff;\n"
        "  @!p not.b32 %0, %0;\n"
        "}\n"
        : "=r"(same)
        : "r"(label), "r"(1u << bit));
    peers &= same;
  }
  return peers;
}

/// Ranks a block's tile of keys by one digit (see the file comment). Keys are
/// warp-striped: thread (warp w, lane l) holds items w * WARP_ITEMS + i * 32 + l.
/// In two steps, so that Onesweep can publish the counts before ranking:
/// count() then rank_counted(); rank() does both.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, RankMatch MATCH = DEFAULT_RANK_MATCH>
struct BlockRank
{
  static constexpr int WARPS = BLOCK_THREADS / 32;
  static constexpr int WARP_ITEMS = 32 * ITEMS_PER_THREAD;
  static constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  static_assert(BLOCK_THREADS % 32 == 0 && BLOCK_THREADS >= RADIX_DIGITS && BLOCK_THREADS <= 1024,
                "gocccl::radix_sort: BLOCK_THREADS must be a multiple of 32 in [256, 1024]");

  using DigitScan = cub::BlockScan<int, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;

  static constexpr bool MATCH_MASKS = MATCH == RANK_MATCH_ATOMIC_OR;

  struct TempStorage
  {
    int warp_offsets[WARPS][RADIX_DIGITS];
    // RANK_MATCH_ATOMIC_OR's lane masks (one word otherwise).
    unsigned match_masks[MATCH_MASKS ? WARPS : 1][MATCH_MASKS ? RADIX_DIGITS : 1];
  };
  using ScanStorage = typename DigitScan::TempStorage;

  /// Counts the tile's digits. In thread d < RADIX_DIGITS returns digit d's
  /// count in the tile (padding included), elsewhere 0; afterwards
  /// temp.warp_offsets[w][d] is digit d's count in warps before w. Starts and
  /// ends with a barrier (temp may alias what was used before the call).
  template <typename Bits>
  static GOCCCL_DEVICE int count(TempStorage& temp, const Bits (&bits)[ITEMS_PER_THREAD], Digit digit)
  {
    const int tid = threadIdx.x;
    const int lane = tid % 32;
    int* hist = temp.warp_offsets[tid / 32];
    __syncthreads();
#pragma unroll
    for (int d = lane; d < RADIX_DIGITS; d += 32)
    {
      hist[d] = 0;
      if constexpr (MATCH_MASKS)
      {
        temp.match_masks[tid / 32][d] = 0; // rank_counted's leaders leave them 0 again
      }
    }
    __syncwarp();
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      atomicAdd(hist + digit(bits[i]), 1);
    }
    __syncthreads();
    int total = 0;
    if (tid < RADIX_DIGITS)
    {
#pragma unroll
      for (int w = 0; w < WARPS; ++w)
      {
        const int c = temp.warp_offsets[w][tid];
        temp.warp_offsets[w][tid] = total;
        total += c;
      }
    }
    return total;
  }

  /// Ranks the keys after count(): ranks[i] is the position of item i in the
  /// tile stably sorted by digit; in thread d < RADIX_DIGITS, *digit_prefix
  /// is digit d's exclusive prefix over digits. `total` is what count()
  /// returned. temp is still in use when it returns (no final barrier).
  template <typename Bits>
  static GOCCCL_DEVICE void rank_counted(TempStorage& temp, ScanStorage& scan, const Bits (&bits)[ITEMS_PER_THREAD],
                                         Digit digit, int total, int (&ranks)[ITEMS_PER_THREAD], int* digit_prefix)
  {
    const int tid = threadIdx.x;
    const int lane = tid % 32;
    int prefix;
    DigitScan(scan).ExclusiveSum(total, prefix);
    if (tid < RADIX_DIGITS)
    {
#pragma unroll
      for (int w = 0; w < WARPS; ++w)
      {
        temp.warp_offsets[w][tid] += prefix;
      }
      *digit_prefix = prefix;
    }
    __syncthreads();
    int* offsets = temp.warp_offsets[tid / 32];
    const unsigned le = lanemask_le();
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      const unsigned d = digit.fresh(bits[i]);
      const unsigned peers = match(temp, d, lane);
      const int leader = 31 - __clz(peers);
      const int before = __popc(peers & le); // this lane included
      int offset = 0;
      if (lane == leader)
      {
        offset = atomicAdd(offsets + d, before); // before == the group's size here
      }
      offset = __shfl_sync(0xffffffffu, offset, leader);
      if constexpr (MATCH_MASKS)
      {
        if (lane == leader)
        {
          temp.match_masks[tid / 32][d] = 0; // every lane has read it (the shuffle)
        }
        __syncwarp();
      }
      ranks[i] = offset + before - 1;
    }
  }

  /// The lanes of this warp whose digit is d (see RankMatch).
  static GOCCCL_DEVICE unsigned match(TempStorage& temp, unsigned d, int lane)
  {
    if constexpr (MATCH == RANK_MATCH_NATIVE)
    {
      return __match_any_sync(0xffffffffu, d);
    }
    else if constexpr (MATCH == RANK_MATCH_ATOMIC_OR)
    {
      unsigned* mask = &temp.match_masks[threadIdx.x / 32][d];
      atomicOr(mask, 1u << lane);
      __syncwarp();
      return *reinterpret_cast<volatile unsigned*>(mask);
    }
    else
    {
      return match_ballot<RADIX_BITS>(d);
    }
  }

  /// count() and rank_counted(): returns, in thread d < RADIX_DIGITS, digit
  /// d's count in the tile. Ends with a barrier; temp may be reused after it.
  template <typename Bits>
  static GOCCCL_DEVICE int rank(TempStorage& temp, ScanStorage& scan, const Bits (&bits)[ITEMS_PER_THREAD],
                                Digit digit, int (&ranks)[ITEMS_PER_THREAD], int* digit_prefix)
  {
    const int total = count(temp, bits, digit);
    rank_counted(temp, scan, bits, digit, total, ranks, digit_prefix);
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
  if (valid >= BLOCK_THREADS * ITEMS_PER_THREAD)
  {
#pragma unroll
    for (int i = 0; i < ITEMS_PER_THREAD; ++i)
    {
      bits[i] = Traits::in(load_item<true>(tile + base + i * 32), flip);
    }
    return;
  }
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    const int idx = base + i * 32;
    bits[i] = idx < valid ? Traits::in(load_item<true>(tile + idx), flip) : Traits::ALL;
  }
}

/// Reads one look-back word (bypassing L1) and writes one.
GOCCCL_DEVICE unsigned load_lookback(const unsigned* p)
{
  return *reinterpret_cast<const volatile unsigned*>(p);
}
GOCCCL_DEVICE void store_lookback(unsigned* p, unsigned v)
{
  *reinterpret_cast<volatile unsigned*>(p) = v;
}

/// The items of one portion: the largest multiple of tile below 2^bits.
template <int TILE_ITEMS, int BITS>
struct Portion
{
  static_assert(BITS >= 1 && BITS <= 29, "gocccl::radix_sort: portions are at most 2^29 - 1 items");
  static constexpr long long ITEMS = ((1ll << BITS) - 1) / TILE_ITEMS * TILE_ITEMS;
  static_assert(ITEMS > 0, "gocccl::radix_sort: a portion must hold a tile");
};

/// One pass of Onesweep over one tile.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, int PORTION_BITS_ = PORTION_BITS,
          RankMatch MATCH = DEFAULT_RANK_MATCH>
struct Onesweep
{
  using Traits = KeyTraits<K>;
  using Bits = typename Traits::Bits;
  using Rank = BlockRank<BLOCK_THREADS, ITEMS_PER_THREAD, MATCH>;
  static constexpr int TILE_ITEMS = Rank::TILE_ITEMS;
  static constexpr long long PORTION = Portion<TILE_ITEMS, PORTION_BITS_>::ITEMS;
  static constexpr bool HAS_VALUES = !std::is_same<V, NoValues>::value;
  static constexpr long long KEY_EXCHANGE_BYTES = (long long)TILE_ITEMS * (long long)sizeof(Bits);
  static constexpr bool VALUES_IN_SMEM =
    HAS_VALUES && (long long)TILE_ITEMS * (long long)sizeof(V)
                    <= (KEY_EXCHANGE_BYTES > VALUE_EXCHANGE_BYTES ? KEY_EXCHANGE_BYTES : VALUE_EXCHANGE_BYTES);
  using ValueSlot = typename std::conditional<VALUES_IN_SMEM, V, Bits>::type;
  using ValueReg = typename std::conditional<HAS_VALUES, V, char>::type;

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
    long long portion;
    int tile;
    int pass;
  };

  /// Where a block's tile lies. Read from shared memory after barriers (not
  /// kept in registers across the ranking).
  struct Where
  {
    long long portion;     // the launch's portion
    long long tile_base;   // the tile's first item
    long long portion_end; // one past the portion's last item
    int tile;              // the tile's index in the portion
    int valid;             // the tile's items, <= TILE_ITEMS
  };

  static GOCCCL_DEVICE Where where(const TempStorage& temp, long long n)
  {
    Where w;
    w.portion = temp.portion;
    w.tile = temp.tile;
    const long long portion_base = w.portion * PORTION;
    w.portion_end = min(n, portion_base + PORTION);
    w.tile_base = portion_base + static_cast<long long>(w.tile) * TILE_ITEMS;
    w.valid = static_cast<int>(min(static_cast<long long>(TILE_ITEMS), w.portion_end - w.tile_base));
    return w;
  }

  /// Decoupled look-back of digit tid (< RADIX_DIGITS) of tile `tile`:
  /// returns the digit's count over the portion's earlier tiles and
  /// publishes the inclusive count.
  static GOCCCL_DEVICE unsigned look_back(unsigned* lookback, long long tile, unsigned tag, int count)
  {
    const int tid = threadIdx.x;
    if (tile == 0)
    {
      return 0;
    }
    unsigned exclusive = 0;
    long long t = tile - 1;
    while (true)
    {
      const unsigned w = load_lookback(lookback + t * RADIX_DIGITS + tid);
      if ((w & ~(LB_VALUE_MASK | LB_INCLUSIVE)) != tag)
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
    store_lookback(lookback + tile * RADIX_DIGITS + tid, tag | LB_INCLUSIVE | (exclusive + unsigned(count)));
    return exclusive;
  }

  /// The digit offsets after the look-back (thread d < RADIX_DIGITS, count
  /// the tile's count of digit d): temp.offsets[d] = where the digit's
  /// first item of the tile goes, minus digit_prefix; the carry of the next
  /// portion when this is its predecessor's last tile.
  static GOCCCL_DEVICE void offsets(TempStorage& temp, unsigned long long* words, long long n, long long launch,
                                    int count, int digit_prefix)
  {
    const int tid = threadIdx.x;
    const Where w = where(temp, n);
    const unsigned long long* bins_in =
      w.portion == 0 ? words + temp.pass * RADIX_DIGITS : words + CARRY_OFFSET + (w.portion & 1) * RADIX_DIGITS;
    const unsigned long long bin = bins_in[tid];
    const unsigned tag = unsigned(launch % 3 + 1) << LB_TAG_SHIFT;
    const unsigned exclusive =
      look_back(reinterpret_cast<unsigned*>(words + LOOKBACK_OFFSET), w.tile, tag, count);
    temp.offsets[tid] = static_cast<long long>(bin + exclusive) - digit_prefix;
    if (w.tile_base + TILE_ITEMS >= w.portion_end && w.portion_end < n)
    {
      words[CARRY_OFFSET + ((w.portion + 1) & 1) * RADIX_DIGITS + tid] = bin + exclusive + unsigned(count);
    }
  }

  /// One pass over the block's tile (see run). ORDER: -1 the order is
  /// `descending`, flipped at every key's load and store at run time (the
  /// default kernels); 0 ascending and 1 descending compiled in (`descending`
  /// unused), as CUB compiles it into each of its two kernels.
  template <int ORDER>
  static GOCCCL_DEVICE void run_in_order(TempStorage& temp, const K* d_keys_in, K* d_keys_out,
                                         const V* d_values_in, V* d_values_out, long long n, void* d_scratch,
                                         long long launch, long long begin_bit, long long end_bit, bool descending)
  {
    static_assert(ORDER >= -1 && ORDER <= 1, "gocccl::radix_sort: ORDER is -1 (run time), 0 or 1");
    unsigned long long* words = static_cast<unsigned long long*>(d_scratch);
    const int tid = threadIdx.x;

    if (tid == 0)
    {
      const unsigned long long t = atomicAdd(words + COUNTER_OFFSET + (launch & 1), 1ull);
      const long long portions = (n + PORTION - 1) / PORTION;
      temp.tile = int(t);
      temp.pass = int(launch / portions);
      temp.portion = launch % portions;
      if (t == 0)
      {
        words[COUNTER_OFFSET + ((launch + 1) & 1)] = 0; // the next launch's counter
      }
    }
    __syncthreads();
    const Bits flip = (ORDER < 0 ? descending : ORDER == 1) ? Traits::ALL : Bits(0);
    const Digit digit(begin_bit, end_bit, temp.pass);
    const int warp_base = (tid / 32) * Rank::WARP_ITEMS + tid % 32;

    Bits bits[ITEMS_PER_THREAD];
    int count;
    bool full;
    {
      const Where w = where(temp, n);
      full = w.valid == TILE_ITEMS;
      load_keys<BLOCK_THREADS, ITEMS_PER_THREAD>(d_keys_in + w.tile_base, w.valid, flip, bits);

      // Early counts: publish this tile's digit counts before ranking.
      count = Rank::count(temp.exchange.rank, bits, digit);
      if (tid < RADIX_DIGITS)
      {
        const unsigned tag = unsigned(launch % 3 + 1) << LB_TAG_SHIFT;
        store_lookback(reinterpret_cast<unsigned*>(words + LOOKBACK_OFFSET) + w.tile * RADIX_DIGITS + tid,
                       tag | (w.tile == 0 ? LB_INCLUSIVE : 0u) | unsigned(count));
      }
    }

    // A full tile of one digit: no ranking, a straight copy.
    if (full && __syncthreads_or(tid < RADIX_DIGITS && count == TILE_ITEMS))
    {
      if (tid < RADIX_DIGITS)
      {
        offsets(temp, words, n, launch, count, 0);
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
        const V* values_in = d_values_in + where(temp, n).tile_base + warp_base;
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
      offsets(temp, words, n, launch, int(temp.offsets[tid]), digit_prefix);
    }
    __syncthreads(); // offsets and keys visible
    const int valid = where(temp, n).valid;

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
      const V* values_in = d_values_in + where(temp, n).tile_base;
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

  /// One pass of Onesweep over the block's tile. By default the order is
  /// flipped at run time (run_in_order<-1>); with
  /// GOCCCL_EXPERIMENT_RADIX_ORDER defined (an experiment not yet timed on a
  /// GPU: bench/NOTES.md, nineteenth session) the kernel holds both orders
  /// compiled in and branches once, uniformly, on `descending`. The
  /// histogram and single-tile kernels keep the run-time flip either way.
  static GOCCCL_DEVICE void run(TempStorage& temp, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                V* d_values_out, long long n, void* d_scratch, long long launch, long long begin_bit,
                                long long end_bit, bool descending)
  {
#ifdef GOCCCL_EXPERIMENT_RADIX_ORDER
    if (descending)
    {
      run_in_order<1>(temp, d_keys_in, d_keys_out, d_values_in, d_values_out, n, d_scratch, launch, begin_bit,
                      end_bit, descending);
    }
    else
    {
      run_in_order<0>(temp, d_keys_in, d_keys_out, d_values_in, d_values_out, n, d_scratch, launch, begin_bit,
                      end_bit, descending);
    }
#else
    run_in_order<-1>(temp, d_keys_in, d_keys_out, d_values_in, d_values_out, n, d_scratch, launch, begin_bit,
                     end_bit, descending);
#endif
  }
};

/// All passes over at most one tile in one block.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, RankMatch MATCH = DEFAULT_RANK_MATCH>
struct SingleTile
{
  using Traits = KeyTraits<K>;
  using Bits = typename Traits::Bits;
  using Rank = BlockRank<BLOCK_THREADS, ITEMS_PER_THREAD, MATCH>;
  static constexpr int TILE_ITEMS = Rank::TILE_ITEMS;
  static constexpr bool HAS_VALUES = !std::is_same<V, NoValues>::value;
  using ValueReg = typename std::conditional<HAS_VALUES, V, char>::type;

  struct TempStorage
  {
    union
    {
      typename Rank::TempStorage rank;
      Bits keys[TILE_ITEMS];
      int index[HAS_VALUES ? TILE_ITEMS : 1];
    } exchange;
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
    int index[HAS_VALUES ? ITEMS_PER_THREAD : 1]; // original position of each item
    if constexpr (HAS_VALUES)
    {
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        index[i] = warp_base + i * 32;
      }
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
      }
      __syncthreads();
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        bits[i] = temp.exchange.keys[warp_base + i * 32];
      }
      if constexpr (HAS_VALUES)
      {
        __syncthreads();
#pragma unroll
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          temp.exchange.index[ranks[i]] = index[i];
        }
        __syncthreads();
#pragma unroll
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          index[i] = temp.exchange.index[warp_base + i * 32];
        }
      }
      // rank() starts with a barrier before it reuses the exchange.
    }

    // Everything is read before anything is written, so input and output may
    // be the same buffers.
    ValueReg values[HAS_VALUES ? ITEMS_PER_THREAD : 1];
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

/// The single-tile sort at the fewest items per thread that hold n: 3, 6 or
/// 11 (each at most ITEMS_PER_THREAD), else ITEMS_PER_THREAD, all with
/// BLOCK_THREADS threads (the launch's block does not change with n).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, RankMatch MATCH>
struct SingleTiles
{
  static constexpr int SMALL = ITEMS_PER_THREAD < 3 ? ITEMS_PER_THREAD : 3;
  static constexpr int MEDIUM = ITEMS_PER_THREAD < 6 ? ITEMS_PER_THREAD : 6;
  static constexpr int LARGE = ITEMS_PER_THREAD < 11 ? ITEMS_PER_THREAD : 11;
  using Small = SingleTile<BLOCK_THREADS, SMALL, K, V, MATCH>;
  using Medium = SingleTile<BLOCK_THREADS, MEDIUM, K, V, MATCH>;
  using Large = SingleTile<BLOCK_THREADS, LARGE, K, V, MATCH>;
  using Full = SingleTile<BLOCK_THREADS, ITEMS_PER_THREAD, K, V, MATCH>;

  union TempStorage
  {
    typename Small::TempStorage small;
    typename Medium::TempStorage medium;
    typename Large::TempStorage large;
    typename Full::TempStorage full;
  };

  static GOCCCL_DEVICE void run(TempStorage& temp, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                V* d_values_out, long long n, long long begin_bit, long long end_bit, bool descending)
  {
    if (n <= BLOCK_THREADS * SMALL)
    {
      Small::run(temp.small, d_keys_in, d_keys_out, d_values_in, d_values_out, n, begin_bit, end_bit, descending);
    }
    else if (n <= BLOCK_THREADS * MEDIUM)
    {
      Medium::run(temp.medium, d_keys_in, d_keys_out, d_values_in, d_values_out, n, begin_bit, end_bit, descending);
    }
    else if (n <= BLOCK_THREADS * LARGE)
    {
      Large::run(temp.large, d_keys_in, d_keys_out, d_values_in, d_values_out, n, begin_bit, end_bit, descending);
    }
    else
    {
      Full::run(temp.full, d_keys_in, d_keys_out, d_values_in, d_values_out, n, begin_bit, end_bit, descending);
    }
  }
};

/// Items per thread of the histogram kernel: about 64 bytes of keys.
template <typename Bits>
struct HistogramItems
{
  static constexpr int value = sizeof(Bits) >= 8 ? 8 : 16;
};

/// The shared histograms of the histogram kernel: PARTS copies of
/// bins[PASSES][256] (32-bit counts, PASSES = the key's bytes), warp w
/// counting into copy w % PARTS; PARTS the most copies that divide the warps
/// and fit in 32 KiB (384 threads: 6 for 4-byte keys, 4 for 8-byte keys;
/// 512 threads: 16 for 1- and 2-byte keys). One copy per block had twelve
/// warps' atomics meet on the same words: keys whose digits crowd a few bins
/// (floats in [0, 1): half of them share the top digit) ran 1.5x slower
/// than uniform ones (H200, bench/cub/tune/radix_shapes_h200_2026-12-04.tsv);
/// CUB gets the same effect from 12-16 blocks of 128 threads per SM.
template <int BLOCK_THREADS, typename K>
struct HistogramShape
{
  static constexpr int WARPS = BLOCK_THREADS / 32;
  static constexpr int PASSES = int(sizeof(K)) * 8 / RADIX_BITS;
  static constexpr int COPY_WORDS = PASSES * RADIX_DIGITS;
  static constexpr int BUDGET_BYTES = 32768;
  static constexpr int parts()
  {
    int p = WARPS;
    while (p > 1 && (WARPS % p != 0 || p * COPY_WORDS * 4 > BUDGET_BYTES))
    {
      --p;
    }
    return p;
  }
  static constexpr int PARTS = parts();
};

/// Adds 1 to the shared count at byte address `at` + OFFSET (red.shared:
/// ATOMS.POPC.INC, as atomicAdd(p, 1u) on shared memory).
template <int OFFSET>
GOCCCL_DEVICE void shared_increment(unsigned at)
{
  asm volatile("red.shared.add.u32 [%0+%1], 1;" ::"r"(at), "n"(OFFSET) : "memory");
}

/// One pass of histogram_count_all.
template <int PASS, int ITEMS, typename Bits>
GOCCCL_DEVICE void histogram_count_pass(unsigned hist, const Bits (&bits)[ITEMS])
{
#pragma unroll
  for (int i = 0; i < ITEMS; ++i)
  {
    unsigned word;
    if constexpr (sizeof(Bits) == 8)
    {
      word = PASS < 4 ? unsigned(static_cast<unsigned long long>(bits[i]))
                      : unsigned(static_cast<unsigned long long>(bits[i]) >> 32);
    }
    else
    {
      word = unsigned(bits[i]);
    }
    const unsigned digit = __byte_perm(word, 0u, 0x4440u + unsigned(PASS % 4));
    shared_increment<PASS * RADIX_DIGITS * 4>(hist + digit * 4);
  }
}

template <int ITEMS, typename Bits, int... PASS>
GOCCCL_DEVICE void histogram_count_passes(unsigned hist, const Bits (&bits)[ITEMS], std::integer_sequence<int, PASS...>)
{
  (histogram_count_pass<PASS>(hist, bits), ...);
}

/// Counts every 8-bit digit of the keys' full width into the copy at shared
/// byte address `hist` (hist[pass][digit]): the passes unrolled (one pass at
/// a time over the items, as CUB), each digit one byte of the ordered bits,
/// so that an item's pass costs a PRMT (the byte), a LEA (hist + digit * 4)
/// and the ATOMS (the pass an immediate offset).
template <int ITEMS, typename Bits>
GOCCCL_DEVICE void histogram_count_all(unsigned hist, const Bits (&bits)[ITEMS])
{
  histogram_count_passes(hist, bits, std::make_integer_sequence<int, int(sizeof(Bits))>{});
}

/// radix_sort_histogram's body. PREFETCH: each block loads its next tile
/// before it counts the current one (the default for 4- and 8-byte keys at
/// up to 384 threads, whose registers hold both tiles: 56 at 384 x 3; 1- and
/// 2-byte keys at 512 threads (40 registers) spill with it).
template <int BLOCK_THREADS, typename K, bool PREFETCH = (sizeof(K) >= 4 && BLOCK_THREADS <= 384)>
GOCCCL_DEVICE void histogram(const K* d_keys_in, long long n, void* d_scratch, long long begin_bit, long long end_bit,
                             bool descending)
{
  using Traits = KeyTraits<K>;
  using Bits = typename Traits::Bits;
  using Shape = HistogramShape<BLOCK_THREADS, K>;
  constexpr int ITEMS = HistogramItems<Bits>::value;
  constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS;
  constexpr int PARTS = Shape::PARTS;
  constexpr int COPY_WORDS = Shape::COPY_WORDS;
  // Tiles a block counts between flushes of its shared counts, so that no
  // 32-bit count overflows (any grid, any n).
  constexpr long long FLUSH_TILES = 0xffffffffll / TILE_ITEMS;
  using BinScan = cub::BlockScan<unsigned long long, BLOCK_THREADS, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ unsigned counts[PARTS * COPY_WORDS];
  __shared__ typename BinScan::TempStorage scan;
  __shared__ bool last;

  const int tid = threadIdx.x;
  const int passes = num_passes(begin_bit, end_bit);
  unsigned long long* bins = static_cast<unsigned long long*>(d_scratch);
#pragma unroll 4
  for (int i = tid; i < PARTS * COPY_WORDS; i += BLOCK_THREADS)
  {
    counts[i] = 0;
  }
  __syncthreads();
  // Adds the copies' counts to the bins and zeroes them (block-wide; after
  // a barrier).
  auto flush = [&](bool zero) {
    for (int i = tid; i < passes * RADIX_DIGITS; i += BLOCK_THREADS)
    {
      unsigned long long c = 0;
#pragma unroll
      for (int p = 0; p < PARTS; ++p)
      {
        c += counts[p * COPY_WORDS + i];
        if (zero)
        {
          counts[p * COPY_WORDS + i] = 0;
        }
      }
      if (c != 0)
      {
        atomicAdd(bins + i, c);
      }
    }
  };

  // This warp's copy. The offset is opaque to the compiler, which otherwise
  // merges it into every item's digit with extra instructions; the address
  // of an item's count is then one LEA (digit * 4 + copy) and the pass an
  // immediate offset of the ATOMS.
  unsigned* const hist = counts + (tid / 32) % PARTS * COPY_WORDS;
  unsigned hist_at = static_cast<unsigned>(__cvta_generic_to_shared(hist));
  asm("" : "+r"(hist_at));
  const Bits flip = descending ? Traits::ALL : Bits(0);
  const long long full_tiles = n / TILE_ITEMS;
  // Full tiles: no bounds checks, so every item's load and atomics issue
  // without branches; the block's next tile is loaded before this one is
  // counted (its loads in flight during the atomics).
  auto full = [&](auto count) {
    long long since_flush = 0;
    K next[ITEMS];
    auto load = [&](long long tile) {
      const K* keys = d_keys_in + tile * TILE_ITEMS + tid;
#pragma unroll
      for (int i = 0; i < ITEMS; ++i)
      {
        next[i] = gocccl::detail::load_item<true>(keys + i * BLOCK_THREADS);
      }
    };
    if (PREFETCH && blockIdx.x < full_tiles)
    {
      load(blockIdx.x);
    }
    for (long long tile = blockIdx.x; tile < full_tiles; tile += gridDim.x)
    {
      if (!PREFETCH)
      {
        load(tile);
      }
      Bits bits[ITEMS];
#pragma unroll
      for (int i = 0; i < ITEMS; ++i)
      {
        bits[i] = Traits::in(next[i], flip);
      }
      if (PREFETCH && tile + gridDim.x < full_tiles)
      {
        load(tile + gridDim.x);
      }
      count(bits);
      if (++since_flush == FLUSH_TILES)
      {
        __syncthreads();
        flush(true);
        __syncthreads();
        since_flush = 0;
      }
    }
  };
  if (begin_bit == 0 && end_bit == Traits::KEY_BITS)
  {
    full([&](const Bits(&bits)[ITEMS]) { histogram_count_all<ITEMS>(hist_at, bits); });
  }
  else
  {
    full([&](const Bits(&bits)[ITEMS]) {
      for (int pass = 0; pass < passes; ++pass)
      {
        const Digit digit(begin_bit, end_bit, pass);
        unsigned* h = hist + pass * RADIX_DIGITS;
#pragma unroll
        for (int i = 0; i < ITEMS; ++i)
        {
          atomicAdd(h + digit(bits[i]), 1u);
        }
      }
    });
  }
  // The last, partial tile (its block: the one whose stride reaches it).
  if (full_tiles * TILE_ITEMS < n && blockIdx.x == full_tiles % gridDim.x)
  {
    const long long tile_base = full_tiles * TILE_ITEMS;
    const int valid = static_cast<int>(n - tile_base);
    Bits bits[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; ++i)
    {
      const int idx = i * BLOCK_THREADS + tid;
      bits[i] = idx < valid ? Traits::in(gocccl::detail::load_item<true>(d_keys_in + tile_base + idx), flip) : Bits(0);
    }
    for (int pass = 0; pass < passes; ++pass)
    {
      const Digit digit(begin_bit, end_bit, pass);
#pragma unroll
      for (int i = 0; i < ITEMS; ++i)
      {
        if (i * BLOCK_THREADS + tid < valid)
        {
          atomicAdd(hist + pass * RADIX_DIGITS + digit(bits[i]), 1u);
        }
      }
    }
  }
  __syncthreads();
  flush(false);

  // The last block scans the counts of every pass.
  __threadfence();
  __syncthreads();
  if (tid == 0)
  {
    last = atomicAdd(bins + HIST_DONE_OFFSET, 1ull) == static_cast<unsigned long long>(gridDim.x) - 1;
  }
  __syncthreads();
  if (!last)
  {
    return;
  }
  __threadfence();
  for (int pass = 0; pass < passes; ++pass)
  {
    unsigned long long c = 0;
    if (tid < RADIX_DIGITS)
    {
      c = *reinterpret_cast<volatile unsigned long long*>(bins + pass * RADIX_DIGITS + tid);
    }
    unsigned long long prefix;
    BinScan(scan).ExclusiveSum(c, prefix);
    if (tid < RADIX_DIGITS)
    {
      bins[pass * RADIX_DIGITS + tid] = prefix;
    }
    __syncthreads();
  }
}


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
 * bins (zeroed by radix_sort_init); the last block to finish scans them into
 * exclusive prefixes. Block b takes tiles b, b + G, ... (any grid; one wave,
 * occupancy x SMs, is best). Each warp counts into one of a few shared
 * histograms (detail::radix::HistogramShape); full tiles are loaded and
 * counted without bounds checks, and a full window's passes (begin_bit 0,
 * end_bit the key's width) are unrolled with constant digit positions: the
 * kernel before 2026-12-04 (one shared histogram, a bounds check and a
 * branch around every item's atomic, S2UR of the shared window per item)
 * took 1.7-2.9x CUB's histogram phase (bench/cub/tune/radix_shapes.cu
 * --only hist times this one; both kernels' H200 rows are in
 * radix_shapes_hist_h200_2026-12-04.tsv).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename... Rest>
__device__ void radix_sort_histogram(const K* d_keys_in, long long n, void* d_scratch, long long begin_bit,
                                     long long end_bit, bool descending)
{
  detail::radix::histogram<BLOCK_THREADS, K>(d_keys_in, n, d_scratch, begin_bit, end_bit, descending);
}

/**
 * \brief Launch `pass` (pass * portions + portion, see the file comment) of a
 * keys-only Onesweep sort: d_keys_in -> d_keys_out (distinct buffers). Launch
 * one block per tile of the portion, after radix_sort_histogram.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, int PORTION_BITS = detail::radix::PORTION_BITS,
          detail::radix::RankMatch MATCH = detail::radix::DEFAULT_RANK_MATCH>
__device__ void radix_sort_keys_onesweep(const K* d_keys_in, K* d_keys_out, long long n, void* d_scratch,
                                         long long pass, long long begin_bit, long long end_bit, bool descending)
{
  using Agent =
    detail::radix::Onesweep<BLOCK_THREADS, ITEMS_PER_THREAD, K, detail::radix::NoValues, PORTION_BITS, MATCH>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, nullptr, nullptr, n, d_scratch, pass, begin_bit, end_bit, descending);
}

/**
 * \brief Launch `pass` of a key-value Onesweep sort: keys and values in ->
 * out (distinct buffers).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V,
          int PORTION_BITS = detail::radix::PORTION_BITS,
          detail::radix::RankMatch MATCH = detail::radix::DEFAULT_RANK_MATCH>
__device__ void radix_sort_pairs_onesweep(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                                          long long n, void* d_scratch, long long pass, long long begin_bit,
                                          long long end_bit, bool descending)
{
  using Agent = detail::radix::Onesweep<BLOCK_THREADS, ITEMS_PER_THREAD, K, V, PORTION_BITS, MATCH>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, d_values_in, d_values_out, n, d_scratch, pass, begin_bit, end_bit,
             descending);
}

/**
 * \brief Sorts n <= TILE keys in one block (grid 1); in and out may be the
 * same buffer.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K,
          detail::radix::RankMatch MATCH = detail::radix::DEFAULT_RANK_MATCH>
__device__ void radix_sort_keys_single(const K* d_keys_in, K* d_keys_out, long long n, long long begin_bit,
                                       long long end_bit, bool descending)
{
  using Agent = detail::radix::SingleTiles<BLOCK_THREADS, ITEMS_PER_THREAD, K, detail::radix::NoValues, MATCH>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, nullptr, nullptr, n, begin_bit, end_bit, descending);
}

/**
 * \brief Sorts n <= TILE pairs in one block (grid 1); in and out may be the
 * same buffers.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V,
          detail::radix::RankMatch MATCH = detail::radix::DEFAULT_RANK_MATCH>
__device__ void radix_sort_pairs_single(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                                        long long n, long long begin_bit, long long end_bit, bool descending)
{
  using Agent = detail::radix::SingleTiles<BLOCK_THREADS, ITEMS_PER_THREAD, K, V, MATCH>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, d_values_in, d_values_out, n, begin_bit, end_bit, descending);
}

} // namespace gocccl
