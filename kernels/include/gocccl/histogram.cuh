/*
 * gocccl/histogram.cuh: device-wide histograms of evenly spaced bins
 * (HistogramEven) and of bins between given levels (HistogramRange), the
 * kernel side of runtime.HistogramEven / runtime.HistogramRange.
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
 * With more than HIST_SMEM_COUNTERS bins the sweep adds to d_hist directly.
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

/// One block's share of a histogram sweep; see the file comment.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename InputIt, typename Binner>
GOCCCL_DEVICE void histogram_sweep(InputIt d_samples, long long n, int32_t* d_hist, int bins, const Binner& binner)
{
  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "gocccl::histogram: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  static_assert(ITEMS_PER_THREAD > 0, "gocccl::histogram: ITEMS_PER_THREAD must be positive");
  constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  constexpr int WARPS = BLOCK_THREADS / 32;
  constexpr int VEC = vector_items(int(sizeof(T)), ITEMS_PER_THREAD);
  constexpr bool CAN_VECTORIZE = std::is_pointer<InputIt>::value && VEC >= 1 && (VEC > 1 || alignof(T) < sizeof(T));

  __shared__ int smem[HIST_SMEM_COUNTERS];

  const int tid = threadIdx.x;
  const bool single = gridDim.x == 1;
  const bool privatized = bins <= HIST_SMEM_COUNTERS;
  int copies = 0;
  int* counters = d_hist;
  if (privatized)
  {
    copies = HIST_SMEM_COUNTERS / bins;
    copies = copies < HIST_MAX_COPIES ? copies : HIST_MAX_COPIES;
    copies = copies < WARPS ? copies : WARPS;
    for (int i = tid; i < copies * bins; i += BLOCK_THREADS)
    {
      smem[i] = 0;
    }
    counters = smem + ((tid / 32) % copies) * bins;
  }
  else if (single)
  {
    for (long long i = tid; i < bins; i += BLOCK_THREADS)
    {
      d_hist[i] = 0;
    }
  }
  __syncthreads();

  auto count = [&](const T& x) {
    const int b = binner(x);
    if (b >= 0)
    {
      atomicAdd(counters + b, 1);
    }
  };

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
      for (; tile < num_full_tiles; tile += stride)
      {
        T items[ITEMS_PER_THREAD];
        const T* p = d_samples + tile * TILE_ITEMS + tid * VEC;
#pragma unroll
        for (int j = 0; j < ITEMS_PER_THREAD / VEC; ++j)
        {
          load_chunk<true, VEC>(p + j * BLOCK_THREADS * VEC, items + j * VEC);
        }
#pragma unroll
        for (int i = 0; i < ITEMS_PER_THREAD; ++i)
        {
          count(items[i]);
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
#pragma unroll
      for (int i = 0; i < ITEMS_PER_THREAD; ++i)
      {
        count(items[i]);
      }
    }
  }
  // The block whose turn it is takes the partial last tile.
  if (tile == num_full_tiles && tail_items > 0)
  {
    const long long base = tile * TILE_ITEMS;
    for (int i = tid; i < tail_items; i += BLOCK_THREADS)
    {
      count(d_samples[base + i]);
    }
  }

  if (privatized)
  {
    __syncthreads();
    for (int b = tid; b < bins; b += BLOCK_THREADS)
    {
      int sum = 0;
      for (int c = 0; c < copies; ++c)
      {
        sum += smem[c * bins + b];
      }
      if (single)
      {
        d_hist[b] = sum;
      }
      else if (sum != 0)
      {
        atomicAdd(d_hist + b, sum);
      }
    }
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
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename InputIt>
__device__ void histogram_even(InputIt d_samples, long long n, int32_t* d_hist, long long bins, T lower, T upper, double scale)
{
  const detail::EvenBinner<T> binner(lower, upper, scale, static_cast<int>(bins));
  detail::histogram_sweep<BLOCK_THREADS, ITEMS_PER_THREAD, T>(d_samples, n, d_hist, static_cast<int>(bins), binner);
}

/**
 * \brief Counts d_samples[0:n] into the bins [d_levels[i], d_levels[i+1]),
 * i < bins, adding to d_hist (gridDim.x > 1, after histogram_init) or writing
 * it (gridDim.x == 1). Levels should increase; if they do not, counts are
 * unspecified, but every access stays inside d_levels[0:bins+1] and
 * d_hist[0:bins].
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename InputIt, typename LevelIt>
__device__ void histogram_range(InputIt d_samples, long long n, int32_t* d_hist, long long bins, LevelIt d_levels)
{
  __shared__ T levels[detail::HIST_SMEM_LEVELS];
  const int nb = static_cast<int>(bins);
  if (nb + 1 <= detail::HIST_SMEM_LEVELS)
  {
    for (int i = threadIdx.x; i <= nb; i += BLOCK_THREADS)
    {
      levels[i] = d_levels[i];
    }
    __syncthreads();
    const detail::RangeBinner<T> binner{levels, nb};
    detail::histogram_sweep<BLOCK_THREADS, ITEMS_PER_THREAD, T>(d_samples, n, d_hist, nb, binner);
  }
  else
  {
    const detail::RangeBinner<T> binner{&d_levels[0], nb};
    detail::histogram_sweep<BLOCK_THREADS, ITEMS_PER_THREAD, T>(d_samples, n, d_hist, nb, binner);
  }
}

} // namespace gocccl
