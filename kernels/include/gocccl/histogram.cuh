/*
 * gocccl/histogram.cuh: device-wide histograms of evenly spaced bins
 * (HistogramEven) and of bins between given levels (HistogramRange), the
 * kernel side of runtime.HistogramEven / runtime.HistogramRange, and their
 * multi-channel forms (MultiHistogramEven / MultiHistogramRange, as
 * cub::DeviceHistogram::MultiHistogram*): samples interleaved in 1 to 4
 * channels, the first `active` of them counted, one histogram each. One
 * sweep serves both: a single histogram is one channel. The privatized
 * copies of a multi-channel sweep hold every active channel's bins, and a
 * sample's channel is its index modulo the channel count (a template
 * parameter: the entry point dispatches on the count at run time).
 *
 *   <sym>_sweep  grid G >= 1, tiles b, b+G, b+2G, ... of the samples per
 *                block (grid-stride). Each block counts into privatized
 *                shared-memory histograms, one copy per warp (up to
 *                HIST_MAX_COPIES copies, as many as fit in
 *                HIST_SMEM_COUNTERS counters) to cut atomic contention, then
 *                adds the copies' sums to d_hist with one global atomic per
 *                non-zero bin. With G == 1 the block writes every bin
 *                (zeros included) instead: a one-launch histogram.
 *   <sym>_init   zeroes d_hist[0:bins]; the host launches it before a sweep
 *                of G > 1 blocks.
 *
 * Host dispatch (Go runtime): n <= TILE: one sweep block. Otherwise init,
 * then a sweep of G = min(tiles, blocks resident in one wave).
 *
 * With more than HIST_SMEM_COUNTERS bins (all active channels' together) the
 * sweep adds to d_hist directly.
 *
 * Bins, exactly as the CPU backend computes them:
 *   - even, floating-point T: a sample x counts iff lower <= x < upper (NaN
 *     never); its bin is f = (x - lower) * scale, each operation rounded to
 *     T, with scale = T(bins) / (upper - lower) computed once by the host in
 *     T; bin = f < T(bins) ? (int) f : bins - 1, clamped to bins - 1.
 *   - even, integer T: x counts iff lower <= x < upper; its bin is the exact
 *     floor((x - lower) * bins / (upper - lower)) (differences taken in the
 *     unsigned type of T's width; products in 128 bits), as CCCL 2+ computes
 *     it. It is estimated in double (scale = bins / range, passed by the
 *     host) and corrected by one step each way with exact integer products,
 *     so no integer division runs per sample.
 *   - range: x counts iff levels[0] <= x < levels[bins]; its bin is i - 1 for
 *     the first i in [1, bins] with x < levels[i] (bins when there is none,
 *     which only unsorted levels allow): a binary search, over a shared
 *     memory copy of the levels when they fit (HIST_SMEM_LEVELS).
 *
 * Counters are 32-bit ints (CUB's usual CounterT) and wrap modulo 2^32.
 * Loads: a full tile is read in 16-byte (or narrower) chunks when d_samples
 * is a pointer aligned to the chunk; the tail tile item by item, guarded.
 * All sizes and indices are 64-bit.
 */
#pragma once

#include <gocccl/config.cuh>

#include <type_traits>

namespace gocccl {
namespace detail {

/// Shared-memory counters per block for privatized histograms (8 KiB).
constexpr int HIST_SMEM_COUNTERS = 2048;
/// Most privatized copies per block.
constexpr int HIST_MAX_COPIES = 8;
/// Most levels a block copies to shared memory for HistogramRange.
constexpr int HIST_SMEM_LEVELS = 1025;

/// Experiments of the sweep, bits of a sweep's EXP template argument
/// (bench/NOTES.md, nineteenth session). Each entry point takes EXP last,
/// defaulting to HIST_EXP_DEFAULT: 0, today's sweep, unless a macro sets a bit.
/// bench/cub/tune/hist_ab.cu instantiates every combination side by side.
enum HistExp : int
{
  /// -DGOCCCL_EXPERIMENT_HIST_SHARED: privatized counters are counted with
  /// shared-memory reductions (red.shared.add.u32 at 32-bit shared
  /// addresses). Today one pointer serves privatized and global counters,
  /// so atomicAdd compiles to a generic ATOM.E.ADD.STRONG.GPU (sm_90, nvcc
  /// 13) for shared counters too.
  HIST_EXP_SHARED = 1,
  /// -DGOCCCL_EXPERIMENT_HIST_BINS: integer samples of at most 4 bytes are
  /// binned with 32 x 32 -> 64-bit products and a 64-bit reciprocal of the
  /// range (no conversion to double, no double multiply); 1-byte samples
  /// through a shared table of every value's bin; bins between levels by a
  /// branchless search of fixed steps (no divergence within a warp); every
  /// binner computes a bin for each sample and selects -1 for those outside
  /// the levels instead of branching. Same bins as today's (EvenBinner's
  /// exact formula; RangeBinner's first level above the sample).
  HIST_EXP_BINS = 2,
};

constexpr int HIST_EXP_DEFAULT = 0
#ifdef GOCCCL_EXPERIMENT_HIST_SHARED
                                 | HIST_EXP_SHARED
#endif
#ifdef GOCCCL_EXPERIMENT_HIST_BINS
                                 | HIST_EXP_BINS
#endif
  ;

/// (hi, lo) = a * b in 128 bits.
GOCCCL_DEVICE void mul128(unsigned long long a, unsigned long long b, unsigned long long& hi, unsigned long long& lo)
{
  lo = a * b;
  hi = __umul64hi(a, b);
}

/// a <= b for 128-bit (hi, lo) pairs.
GOCCCL_DEVICE bool le128(unsigned long long ahi, unsigned long long alo, unsigned long long bhi, unsigned long long blo)
{
  return ahi < bhi || (ahi == bhi && alo <= blo);
}

template <typename T>
GOCCCL_DEVICE T sub_rn(T a, T b)
{
  if constexpr (std::is_same<T, float>::value)
  {
    return __fsub_rn(a, b);
  }
  else
  {
    return __dsub_rn(a, b);
  }
}

template <typename T>
GOCCCL_DEVICE T mul_rn(T a, T b)
{
  if constexpr (std::is_same<T, float>::value)
  {
    return __fmul_rn(a, b);
  }
  else
  {
    return __dmul_rn(a, b);
  }
}

/// Bins of equal width, floating-point samples.
template <typename T, bool FLOAT = std::is_floating_point<T>::value>
struct EvenBinner
{
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value,
                "gocccl::histogram_even: floating-point samples must be float or double");
  T lower, upper, scale, fbins;
  int bins;

  EvenBinner() = default;
  GOCCCL_DEVICE EvenBinner(T lower_, T upper_, double scale_, int bins_)
      : lower(lower_), upper(upper_), scale(T(scale_)), fbins(T(bins_)), bins(bins_)
  {}

  /// The bin of x, or -1 when x is not counted.
  GOCCCL_DEVICE int operator()(T x) const
  {
    if (!(x >= lower && x < upper))
    {
      return -1;
    }
    const T f = mul_rn(sub_rn(x, lower), scale);
    int b = f < fbins ? int(f) : bins - 1;
    return b < bins ? b : bins - 1;
  }
};

/// Bins of equal width, integer samples: exact floor((x - lower) * bins / range).
template <typename T>
struct EvenBinner<T, false>
{
  static_assert(std::is_integral<T>::value && sizeof(T) <= 8, "gocccl::histogram_even: samples must be numbers");
  using U = typename std::make_unsigned<T>::type;
  T lower, upper;
  unsigned long long range;
  double scale; // bins / range, for the estimate
  int bins;

  EvenBinner() = default;
  GOCCCL_DEVICE EvenBinner(T lower_, T upper_, double scale_, int bins_)
      : lower(lower_), upper(upper_), range(static_cast<unsigned long long>(static_cast<U>(static_cast<U>(upper_) - static_cast<U>(lower_)))), scale(scale_), bins(bins_)
  {}

  GOCCCL_DEVICE int operator()(T x) const
  {
    if (!(x >= lower && x < upper))
    {
      return -1;
    }
    const unsigned long long d = static_cast<unsigned long long>(static_cast<U>(static_cast<U>(x) - static_cast<U>(lower)));
    long long q = static_cast<long long>(__dmul_rn(__ull2double_rn(d), scale));
    q = q < 0 ? 0 : (q >= bins ? bins - 1 : q);
    const unsigned long long uq = static_cast<unsigned long long>(q);
    if constexpr (sizeof(T) <= 4)
    {
      // d < 2^32, bins < 2^31, range <= 2^32: every product fits 64 bits.
      const unsigned long long p = d * static_cast<unsigned long long>(bins);
      const unsigned long long lo = uq * range;
      if (lo > p)
      {
        --q;
      }
      else if (lo + range <= p)
      {
        ++q;
      }
    }
    else
    {
      unsigned long long phi, plo, qhi, qlo;
      mul128(d, static_cast<unsigned long long>(bins), phi, plo);
      mul128(uq, range, qhi, qlo);
      if (!le128(qhi, qlo, phi, plo))
      {
        --q;
      }
      else
      {
        unsigned long long nlo = qlo + range;
        unsigned long long nhi = qhi + (nlo < qlo ? 1ull : 0ull);
        if (le128(nhi, nlo, phi, plo))
        {
          ++q;
        }
      }
    }
    return static_cast<int>(q);
  }
};

/// The high word of the 128-bit product a * b (host and device).
__host__ __device__ __forceinline__ unsigned long long mul64hi(unsigned long long a, unsigned long long b)
{
#ifdef __CUDA_ARCH__
  return __umul64hi(a, b);
#else
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}

/// The reciprocal of EvenBinner32: floor((2^64 - 1) / range), 0 for range 0
/// (an inactive channel's parameters).
__host__ __device__ __forceinline__ unsigned long long even_reciprocal(unsigned range)
{
  return range == 0 ? 0ull : ~0ull / range;
}

/// floor(d * bins / range) for d < range < 2^32 and 1 <= bins < 2^31, with
/// recip = even_reciprocal(range): p = d * bins < 2^63, and since recip >
/// (2^64 - 1) / range - 1, p * recip / 2^64 lies in (p / range - 1, p / range],
/// so its floor is the quotient or one less, which the remainder tells.
__host__ __device__ __forceinline__ int even_bin32(unsigned d, unsigned bins, unsigned range, unsigned long long recip)
{
  const unsigned long long p = static_cast<unsigned long long>(d) * bins;
  unsigned q = static_cast<unsigned>(mul64hi(p, recip));
  const unsigned long long r = p - static_cast<unsigned long long>(q) * range;
  q += r >= range ? 1u : 0u;
  return static_cast<int>(q);
}

/// EvenBinner of integer samples of at most 4 bytes under HIST_EXP_BINS: the
/// same bins, in 32 x 32 -> 64-bit integer arithmetic (even_bin32).
template <typename T>
struct EvenBinner32
{
  static_assert(std::is_integral<T>::value && sizeof(T) <= 4, "gocccl::histogram_even: EvenBinner32 takes integers of at most 4 bytes");
  using U = typename std::make_unsigned<T>::type;
  T lower, upper;
  unsigned range; // upper - lower in U: below 2^32
  unsigned long long recip;
  unsigned bins;

  EvenBinner32() = default;
  __host__ __device__ __forceinline__ EvenBinner32(T lower_, T upper_, double, int bins_)
      : lower(lower_), upper(upper_), range(static_cast<unsigned>(static_cast<U>(static_cast<U>(upper_) - static_cast<U>(lower_)))),
        recip(even_reciprocal(range)), bins(static_cast<unsigned>(bins_))
  {}

  /// Computed for every sample and selected (no branch): outside [lower,
  /// upper) d wraps to at least range, a harmless quotient (p < 2^63 still).
  __host__ __device__ __forceinline__ int operator()(T x) const
  {
    const bool in = x >= lower && x < upper;
    const int b = even_bin32(static_cast<unsigned>(static_cast<U>(static_cast<U>(x) - static_cast<U>(lower))), bins, range, recip);
    return in ? b : -1;
  }
};

/// EvenBinner of floating-point samples under HIST_EXP_BINS: the same bins,
/// computed for every sample and selected (no branch): the truncating
/// conversions saturate (NaN gives 0) where the sample is not counted.
template <typename T>
struct EvenBinnerSel : EvenBinner<T>
{
  using EvenBinner<T>::EvenBinner;
  using EvenBinner<T>::lower;
  using EvenBinner<T>::upper;
  using EvenBinner<T>::scale;
  using EvenBinner<T>::fbins;
  using EvenBinner<T>::bins;

  GOCCCL_DEVICE int operator()(T x) const
  {
    const bool in = x >= lower && x < upper;
    const T f = mul_rn(sub_rn(x, lower), scale);
    int b;
    if constexpr (std::is_same<T, float>::value)
    {
      b = __float2int_rz(f);
    }
    else
    {
      b = __double2int_rz(f);
    }
    b = f < fbins ? b : bins - 1;
    b = b < bins ? b : bins - 1;
    return in ? b : -1;
  }
};

/// Bins between levels: binary search.
template <typename T>
struct RangeBinner
{
  const T* levels; // bins + 1 levels, shared or global memory
  int bins;

  GOCCCL_DEVICE int operator()(T x) const
  {
    if (!(x >= levels[0] && x < levels[bins]))
    {
      return -1;
    }
    // First i in [1, bins] with x < levels[i]; bins when none.
    int lo = 1, hi = bins;
    while (lo < hi)
    {
      const int mid = lo + (hi - lo) / 2;
      if (x < levels[mid])
      {
        hi = mid;
      }
      else
      {
        lo = mid + 1;
      }
    }
    return lo - 1;
  }
};

/// RangeBinner under HIST_EXP_BINS: the largest j in [0, bins) with
/// !(x < levels[j]) by steps of halving powers of two from the largest below
/// bins, as many for every sample, counted or not (no divergence within a
/// warp). For non-decreasing levels that is RangeBinner's first level above
/// x, less one.
template <typename T>
struct RangeBinnerSteps
{
  const T* levels; // bins + 1 levels, shared or global memory
  int bins;
  int top; // the largest power of two below bins; 0 for one bin

  RangeBinnerSteps() = default;
  __host__ __device__ __forceinline__ static int top_step(int bins)
  {
    int t = 0;
    while (bins > 1 && (t == 0 ? 1 : 2 * t) < bins)
    {
      t = t == 0 ? 1 : 2 * t;
    }
    return t;
  }

  __host__ __device__ __forceinline__ RangeBinnerSteps(const T* levels_, int bins_) : levels(levels_), bins(bins_), top(top_step(bins_)) {}

  __host__ __device__ __forceinline__ int operator()(T x) const
  {
    const bool in = x >= levels[0] && x < levels[bins];
    int j = 0;
#pragma unroll 1
    for (int step = top; step > 0; step >>= 1)
    {
      const int t = j + step;
      if (t < bins && !(x < levels[t]))
      {
        j = t;
      }
    }
    return in ? j : -1;
  }
};

/// The binners of a sweep of experiments EXP (HistExp).
template <typename T, int EXP>
using EvenBinnerFor = typename std::conditional<
  (EXP & HIST_EXP_BINS) == 0, EvenBinner<T>,
  typename std::conditional<std::is_floating_point<T>::value, EvenBinnerSel<T>,
                            typename std::conditional<sizeof(T) <= 4, EvenBinner32<T>, EvenBinner<T>>::type>::type>::type;
template <typename T, int EXP>
using RangeBinnerFor = typename std::conditional<(EXP & HIST_EXP_BINS) != 0, RangeBinnerSteps<T>, RangeBinner<T>>::type;

/// Most interleaved channels of a multi-channel histogram.
constexpr int HIST_MAX_CHANNELS = 4;

/// The histograms of one sweep: samples interleaved in CH channels (sample i
/// is of channel i % CH), of which the first `active` are counted, channel c
/// into hist[c][0:bins[c]] with binner[c]. A single histogram is CH = 1.
template <int CH, typename Binner>
struct HistChannels
{
  static_assert(CH >= 1 && CH <= HIST_MAX_CHANNELS, "gocccl::histogram: 1 to 4 channels");
  Binner binner[CH];
  int32_t* hist[CH];
  int bins[CH];
  int active;
};

/// Counters of a sweep: count(k, b) counts a sample of channel k into bin b
/// when b >= 0 (a binner's -1: not counted). Today's: one pointer per
/// channel, to the block's privatized copy or to the output, added to with
/// atomicAdd (a generic atomic).
template <int CH>
struct PointerCounters
{
  int* at[CH];
  GOCCCL_DEVICE void count(int k, int b) const
  {
    if (b >= 0)
    {
      atomicAdd(at[k] + b, 1);
    }
  }
};

/// Privatized counters under HIST_EXP_SHARED: 32-bit shared addresses,
/// counted with shared-memory reductions; a sample that is not counted goes
/// to the copy's trash counter (the word after its bins) rather than round a
/// branch (ptxas branches around a predicated one).
template <int CH>
struct SharedCounters
{
  unsigned at[CH];
  unsigned trash;
  GOCCCL_DEVICE void count(int k, int b) const
  {
    const unsigned addr = b >= 0 ? at[k] + 4u * static_cast<unsigned>(b) : trash;
    asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(addr));
  }
};

/// The shared table of every 1-byte value's bin in each channel
/// (HIST_EXP_BINS); one per sample type and kernel.
template <typename T>
GOCCCL_DEVICE short* hist_table()
{
  __shared__ short table[HIST_MAX_CHANNELS * 256];
  return table;
}

/// Whether a sweep of experiments EXP bins T's samples through hist_table.
template <typename T, int EXP>
__host__ __device__ constexpr bool hist_uses_table()
{
  return (EXP & HIST_EXP_BINS) != 0 && sizeof(T) == 1 && std::is_integral<T>::value;
}

/// Counts the block's samples (tiles b, b+G, ...) into counters; see
/// histogram_sweep. table is hist_table's when hist_uses_table, else unused.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, int CH, typename T, int EXP, typename InputIt, typename Binner,
          typename Counters>
GOCCCL_DEVICE void histogram_count(InputIt d_samples, long long n, const HistChannels<CH, Binner>& ch,
                                   const Counters& counters, const short* table)
{
  constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  constexpr int VEC = vector_items(int(sizeof(T)), ITEMS_PER_THREAD);
  constexpr bool CAN_VECTORIZE = std::is_pointer<InputIt>::value && VEC >= 1 && (VEC > 1 || alignof(T) < sizeof(T));
  const int tid = threadIdx.x;

  // count(c, x) counts x as a sample of channel c. Where c is known at
  // compile time (unrolled loops over chunks aligned to CH) the loop folds to
  // one channel's binner; otherwise it selects among them without indexing
  // the arrays at run time, which would put them in local memory.
  auto count = [&](int c, const T& x) {
#pragma unroll
    for (int k = 0; k < CH; ++k)
    {
      if (k == c && k < ch.active)
      {
        int b;
        if constexpr (hist_uses_table<T, EXP>())
        {
          b = table[k * 256 + static_cast<unsigned char>(x)];
        }
        else
        {
          b = ch.binner[k](x);
        }
        counters.count(k, b);
      }
    }
  };
  // The channel c0 + k (k < CH), wrapped.
  auto wrap = [](int c) { return c >= CH ? c - CH : c; };

  const long long num_full_tiles = n / TILE_ITEMS;
  const int tail_items = static_cast<int>(n - num_full_tiles * TILE_ITEMS);
  const long long stride = gridDim.x;
  long long tile = blockIdx.x;

  bool vectorized = false;
  if constexpr (CAN_VECTORIZE)
  {
    vectorized = is_aligned(d_samples, VEC * int(sizeof(T)));
  }
  if constexpr (CAN_VECTORIZE)
  {
    if (vectorized)
    {
      // Item j*VEC + i of a thread is sample tile*TILE + j*BLOCK*VEC + tid*VEC + i.
      constexpr bool ALIGNED = TILE_ITEMS % CH == 0 && VEC % CH == 0;
      for (; tile < num_full_tiles; tile += stride)
      {
        T items[ITEMS_PER_THREAD];
        const T* p = d_samples + tile * TILE_ITEMS + tid * VEC;
#pragma unroll
        for (int j = 0; j < ITEMS_PER_THREAD / VEC; ++j)
        {
          load_chunk<true, VEC>(p + j * BLOCK_THREADS * VEC, items + j * VEC);
        }
        const int c0 = ALIGNED ? 0 : static_cast<int>((tile * TILE_ITEMS + tid * VEC) % CH);
#pragma unroll
        for (int j = 0; j < ITEMS_PER_THREAD / VEC; ++j)
        {
#pragma unroll
          for (int i = 0; i < VEC; ++i)
          {
            count(wrap(c0 + (j * BLOCK_THREADS * VEC + i) % CH), items[j * VEC + i]);
          }
        }
      }
    }
  }
  if (!vectorized)
  {
    for (; tile < num_full_tiles; tile += stride)
    {
      T items[ITEMS_PER_THREAD];
      const long long base = tile * TILE_ITEMS + tid;
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        if constexpr (std::is_pointer<InputIt>::value)
        {
          items[i] = load_item<true>(d_samples + base + i * BLOCK_THREADS);
        }
        else
        {
          items[i] = d_samples[base + i * BLOCK_THREADS];
        }
      }
      const int c0 = CH == 1 ? 0 : static_cast<int>(base % CH);
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        count(wrap(c0 + (i * BLOCK_THREADS) % CH), items[i]);
      }
    }
  }
  // The block whose turn it is takes the partial last tile.
  if (tile == num_full_tiles && tail_items > 0)
  {
    const long long base = tile * TILE_ITEMS;
    for (int i = tid; i < tail_items; i += BLOCK_THREADS)
    {
      count(CH == 1 ? 0 : static_cast<int>((base + i) % CH), d_samples[base + i]);
    }
  }
}

/// One block's share of a histogram sweep; see the file comment. smem holds
/// HIST_SMEM_COUNTERS counters (declared once by the entry point, which may
/// instantiate several sweeps). The privatized copies hold the active
/// channels' bins one after another. EXP: HistExp bits.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, int CH, typename T, int EXP, typename InputIt, typename Binner>
GOCCCL_DEVICE void histogram_sweep(InputIt d_samples, long long n, const HistChannels<CH, Binner>& ch, int* smem)
{
  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "gocccl::histogram: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  static_assert(ITEMS_PER_THREAD > 0, "gocccl::histogram: ITEMS_PER_THREAD must be positive");
  constexpr int WARPS = BLOCK_THREADS / 32;

  const int tid = threadIdx.x;
  const bool single = gridDim.x == 1;
  int total = 0;
  int off[CH];
#pragma unroll
  for (int c = 0; c < CH; ++c)
  {
    off[c] = total;
    if (c < ch.active)
    {
      total += ch.bins[c];
    }
  }
  short* table = nullptr;
  if constexpr (hist_uses_table<T, EXP>())
  {
    // Every value's bin in every channel, built by the binners themselves.
    table = hist_table<T>();
    for (int i = tid; i < CH * 256; i += BLOCK_THREADS)
    {
      const int c = i >> 8;
      short b = -1;
#pragma unroll
      for (int k = 0; k < CH; ++k)
      {
        if (k == c && k < ch.active)
        {
          b = static_cast<short>(ch.binner[k](static_cast<T>(i & 255)));
        }
      }
      table[i] = b;
    }
  }
  // A copy's counters: its bins, and under HIST_EXP_SHARED a trash word.
  constexpr int TRASH = (EXP & HIST_EXP_SHARED) != 0 ? 1 : 0;
  const int stride = total + TRASH;
  const bool privatized = stride <= HIST_SMEM_COUNTERS;
  int copies = 0;
  PointerCounters<CH> counters;
  if (privatized)
  {
    copies = HIST_SMEM_COUNTERS / stride;
    copies = copies < HIST_MAX_COPIES ? copies : HIST_MAX_COPIES;
    copies = copies < WARPS ? copies : WARPS;
    for (int i = tid; i < copies * stride; i += BLOCK_THREADS)
    {
      smem[i] = 0;
    }
    int* mine = smem + ((tid / 32) % copies) * stride;
#pragma unroll
    for (int c = 0; c < CH; ++c)
    {
      counters.at[c] = mine + off[c];
    }
  }
  else
  {
#pragma unroll
    for (int c = 0; c < CH; ++c)
    {
      counters.at[c] = ch.hist[c];
      if (single && c < ch.active)
      {
        for (int i = tid; i < ch.bins[c]; i += BLOCK_THREADS)
        {
          ch.hist[c][i] = 0;
        }
      }
    }
  }
  __syncthreads();

  if constexpr ((EXP & HIST_EXP_SHARED) != 0)
  {
    if (privatized)
    {
      SharedCounters<CH> shared;
#pragma unroll
      for (int c = 0; c < CH; ++c)
      {
        shared.at[c] = static_cast<unsigned>(__cvta_generic_to_shared(counters.at[c]));
      }
      shared.trash = static_cast<unsigned>(__cvta_generic_to_shared(smem + ((tid / 32) % copies) * stride + total));
      histogram_count<BLOCK_THREADS, ITEMS_PER_THREAD, CH, T, EXP>(d_samples, n, ch, shared, table);
    }
    else
    {
      histogram_count<BLOCK_THREADS, ITEMS_PER_THREAD, CH, T, EXP>(d_samples, n, ch, counters, table);
    }
  }
  else
  {
    histogram_count<BLOCK_THREADS, ITEMS_PER_THREAD, CH, T, EXP>(d_samples, n, ch, counters, table);
  }

  if (privatized)
  {
    __syncthreads();
#pragma unroll
    for (int c = 0; c < CH; ++c)
    {
      if (c >= ch.active)
      {
        continue;
      }
      int32_t* out = ch.hist[c];
      for (int b = tid; b < ch.bins[c]; b += BLOCK_THREADS)
      {
        int sum = 0;
        for (int k = 0; k < copies; ++k)
        {
          sum += smem[k * stride + off[c] + b];
        }
        if (single)
        {
          out[b] = sum;
        }
        else if (sum != 0)
        {
          atomicAdd(out + b, sum);
        }
      }
    }
  }
}

/// Runs the sweep of CH channels of even bins.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, int CH, typename T, int EXP, typename InputIt>
GOCCCL_DEVICE void multi_even_sweep(InputIt d_samples, long long n, int active, int32_t* const* d_hist, const int* bins,
                                    const T* lower, const T* upper, const double* scale, int* smem)
{
  HistChannels<CH, EvenBinnerFor<T, EXP>> ch;
#pragma unroll
  for (int c = 0; c < CH; ++c)
  {
    ch.binner[c] = EvenBinnerFor<T, EXP>(lower[c], upper[c], scale[c], bins[c]);
    ch.hist[c] = d_hist[c];
    ch.bins[c] = bins[c];
  }
  ch.active = active;
  histogram_sweep<BLOCK_THREADS, ITEMS_PER_THREAD, CH, T, EXP>(d_samples, n, ch, smem);
}

/// Runs the sweep of CH channels of bins between levels (levels[c] in shared
/// or global memory).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, int CH, typename T, int EXP, typename InputIt>
GOCCCL_DEVICE void multi_range_sweep(InputIt d_samples, long long n, int active, int32_t* const* d_hist, const int* bins,
                                     const T* const* levels, int* smem)
{
  HistChannels<CH, RangeBinnerFor<T, EXP>> ch;
#pragma unroll
  for (int c = 0; c < CH; ++c)
  {
    ch.binner[c] = RangeBinnerFor<T, EXP>{levels[c], bins[c]};
    ch.hist[c] = d_hist[c];
    ch.bins[c] = bins[c];
  }
  ch.active = active;
  histogram_sweep<BLOCK_THREADS, ITEMS_PER_THREAD, CH, T, EXP>(d_samples, n, ch, smem);
}

/// Dispatches a multi-channel range sweep on the channel count.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, int EXP, typename InputIt>
GOCCCL_DEVICE void multi_range_dispatch(InputIt d_samples, long long n, long long channels, int active, int32_t* const* d_hist,
                                        const int* bins, const T* const* levels, int* smem)
{
  switch (channels)
  {
    case 1:
      multi_range_sweep<BLOCK_THREADS, ITEMS_PER_THREAD, 1, T, EXP>(d_samples, n, active, d_hist, bins, levels, smem);
      break;
    case 2:
      multi_range_sweep<BLOCK_THREADS, ITEMS_PER_THREAD, 2, T, EXP>(d_samples, n, active, d_hist, bins, levels, smem);
      break;
    case 3:
      multi_range_sweep<BLOCK_THREADS, ITEMS_PER_THREAD, 3, T, EXP>(d_samples, n, active, d_hist, bins, levels, smem);
      break;
    default:
      multi_range_sweep<BLOCK_THREADS, ITEMS_PER_THREAD, 4, T, EXP>(d_samples, n, active, d_hist, bins, levels, smem);
      break;
  }
}

} // namespace detail

/**
 * \brief Zeroes d_hist[0:bins] (grid-stride; any grid).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>
__device__ void histogram_init(int32_t* d_hist, long long bins)
{
  for (long long i = blockIdx.x * static_cast<long long>(BLOCK_THREADS) + threadIdx.x; i < bins;
       i += static_cast<long long>(gridDim.x) * BLOCK_THREADS)
  {
    d_hist[i] = 0;
  }
}

/**
 * \brief Counts d_samples[0:n] into bins equal-width bins between lower
 * (inclusive) and upper (exclusive), adding to d_hist (gridDim.x > 1, after
 * histogram_init) or writing it (gridDim.x == 1).
 *
 * \param scale  floating-point T: T(bins) / (upper - lower) rounded to T;
 *               integer T: double(bins) / double(upper - lower), an estimate
 * Preconditions (checked by the host): 1 <= bins < 2^31, lower < upper, both
 * finite.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename InputIt, int EXP = detail::HIST_EXP_DEFAULT>
__device__ void histogram_even(InputIt d_samples, long long n, int32_t* d_hist, long long bins, T lower, T upper, double scale)
{
  __shared__ int smem[detail::HIST_SMEM_COUNTERS];
  using Binner = detail::EvenBinnerFor<T, EXP>;
  const detail::HistChannels<1, Binner> ch{{Binner(lower, upper, scale, static_cast<int>(bins))}, {d_hist}, {static_cast<int>(bins)}, 1};
  detail::histogram_sweep<BLOCK_THREADS, ITEMS_PER_THREAD, 1, T, EXP>(d_samples, n, ch, smem);
}

/**
 * \brief Counts d_samples[0:n] into the bins [d_levels[i], d_levels[i+1]),
 * i < bins, adding to d_hist (gridDim.x > 1, after histogram_init) or writing
 * it (gridDim.x == 1). Levels should increase; if they do not, counts are
 * unspecified, but every access stays inside d_levels[0:bins+1] and
 * d_hist[0:bins].
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename InputIt, typename LevelIt,
          int EXP = detail::HIST_EXP_DEFAULT>
__device__ void histogram_range(InputIt d_samples, long long n, int32_t* d_hist, long long bins, LevelIt d_levels)
{
  __shared__ int smem[detail::HIST_SMEM_COUNTERS];
  __shared__ T levels[detail::HIST_SMEM_LEVELS];
  using Binner = detail::RangeBinnerFor<T, EXP>;
  const int nb = static_cast<int>(bins);
  // Two sweeps, so that each knows its levels' address space.
  if (nb + 1 <= detail::HIST_SMEM_LEVELS)
  {
    for (int i = threadIdx.x; i <= nb; i += BLOCK_THREADS)
    {
      levels[i] = d_levels[i];
    }
    __syncthreads();
    const detail::HistChannels<1, Binner> ch{{Binner{levels, nb}}, {d_hist}, {nb}, 1};
    detail::histogram_sweep<BLOCK_THREADS, ITEMS_PER_THREAD, 1, T, EXP>(d_samples, n, ch, smem);
  }
  else
  {
    const detail::HistChannels<1, Binner> ch{{Binner{&d_levels[0], nb}}, {d_hist}, {nb}, 1};
    detail::histogram_sweep<BLOCK_THREADS, ITEMS_PER_THREAD, 1, T, EXP>(d_samples, n, ch, smem);
  }
}

/**
 * \brief Zeroes d_hist<c>[0:bins<c>] for the channels c whose bins are
 * positive (grid-stride; any grid): multi_histogram_*'s init.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T>
__device__ void multi_histogram_init(int32_t* d_hist0, int32_t* d_hist1, int32_t* d_hist2, int32_t* d_hist3,
                                     long long bins0, long long bins1, long long bins2, long long bins3)
{
  int32_t* const hist[4] = {d_hist0, d_hist1, d_hist2, d_hist3};
  const long long bins[4] = {bins0, bins1, bins2, bins3};
#pragma unroll
  for (int c = 0; c < 4; ++c)
  {
    for (long long i = blockIdx.x * static_cast<long long>(BLOCK_THREADS) + threadIdx.x; i < bins[c];
         i += static_cast<long long>(gridDim.x) * BLOCK_THREADS)
    {
      hist[c][i] = 0;
    }
  }
}

/**
 * \brief Counts d_samples[0:n], interleaved in `channels` channels (1 to 4;
 * sample i is of channel i % channels), into one histogram of equal-width
 * bins per active channel c < active: bins<c> bins between lower<c>
 * (inclusive) and upper<c> (exclusive), scale<c> as for histogram_even, into
 * d_hist<c>, adding (gridDim.x > 1, after multi_histogram_init) or writing
 * (gridDim.x == 1). The parameters of channels >= active are ignored. The
 * sweep is instantiated for each channel count; chunks whose samples'
 * channels are known at compile time (4 channels, and 1 and 2) select each
 * sample's binner statically. n is a multiple of channels (host-checked).
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename InputIt, int EXP = detail::HIST_EXP_DEFAULT>
__device__ void multi_histogram_even(InputIt d_samples, long long n, long long channels, long long active,
                                     int32_t* d_hist0, int32_t* d_hist1, int32_t* d_hist2, int32_t* d_hist3,
                                     long long bins0, long long bins1, long long bins2, long long bins3,
                                     T lower0, T lower1, T lower2, T lower3, T upper0, T upper1, T upper2, T upper3,
                                     double scale0, double scale1, double scale2, double scale3)
{
  __shared__ int smem[detail::HIST_SMEM_COUNTERS];
  int32_t* const hist[4] = {d_hist0, d_hist1, d_hist2, d_hist3};
  const int bins[4] = {int(bins0), int(bins1), int(bins2), int(bins3)};
  const T lower[4] = {lower0, lower1, lower2, lower3};
  const T upper[4] = {upper0, upper1, upper2, upper3};
  const double scale[4] = {scale0, scale1, scale2, scale3};
  const int a = static_cast<int>(active);
  switch (channels)
  {
    case 1:
      detail::multi_even_sweep<BLOCK_THREADS, ITEMS_PER_THREAD, 1, T, EXP>(d_samples, n, a, hist, bins, lower, upper, scale, smem);
      break;
    case 2:
      detail::multi_even_sweep<BLOCK_THREADS, ITEMS_PER_THREAD, 2, T, EXP>(d_samples, n, a, hist, bins, lower, upper, scale, smem);
      break;
    case 3:
      detail::multi_even_sweep<BLOCK_THREADS, ITEMS_PER_THREAD, 3, T, EXP>(d_samples, n, a, hist, bins, lower, upper, scale, smem);
      break;
    default:
      detail::multi_even_sweep<BLOCK_THREADS, ITEMS_PER_THREAD, 4, T, EXP>(d_samples, n, a, hist, bins, lower, upper, scale, smem);
      break;
  }
}

/**
 * \brief As multi_histogram_even, with the bins of channel c between the
 * bins<c> + 1 levels d_levels<c> (see histogram_range). The levels of all
 * active channels are copied to shared memory when they fit together
 * (HIST_SMEM_LEVELS), else read from global memory.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename InputIt, typename LevelIt,
          int EXP = detail::HIST_EXP_DEFAULT>
__device__ void multi_histogram_range(InputIt d_samples, long long n, long long channels, long long active,
                                      int32_t* d_hist0, int32_t* d_hist1, int32_t* d_hist2, int32_t* d_hist3,
                                      long long bins0, long long bins1, long long bins2, long long bins3,
                                      LevelIt d_levels0, LevelIt d_levels1, LevelIt d_levels2, LevelIt d_levels3)
{
  __shared__ int smem[detail::HIST_SMEM_COUNTERS];
  __shared__ T shared_levels[detail::HIST_SMEM_LEVELS];
  int32_t* const hist[4] = {d_hist0, d_hist1, d_hist2, d_hist3};
  const int bins[4] = {int(bins0), int(bins1), int(bins2), int(bins3)};
  const T* levels[4] = {d_levels0, d_levels1, d_levels2, d_levels3};
  const int a = static_cast<int>(active);
  int total = 0;
#pragma unroll
  for (int c = 0; c < 4; ++c)
  {
    total += c < a ? bins[c] + 1 : 0;
  }
  if (total <= detail::HIST_SMEM_LEVELS)
  {
    const T* shared[4];
    int off = 0;
#pragma unroll
    for (int c = 0; c < 4; ++c)
    {
      shared[c] = shared_levels + off;
      if (c < a)
      {
        for (int i = threadIdx.x; i <= bins[c]; i += BLOCK_THREADS)
        {
          shared_levels[off + i] = levels[c][i];
        }
        off += bins[c] + 1;
      }
    }
    __syncthreads();
    detail::multi_range_dispatch<BLOCK_THREADS, ITEMS_PER_THREAD, T, EXP>(d_samples, n, channels, a, hist, bins, shared, smem);
  }
  else
  {
    detail::multi_range_dispatch<BLOCK_THREADS, ITEMS_PER_THREAD, T, EXP>(d_samples, n, channels, a, hist, bins, levels, smem);
  }
}

} // namespace gocccl
