/*
 * gocccl/segmented_topk.cuh: top-k of every segment, the kernel side of
 * runtime.SegmentedTopKKeys and runtime.SegmentedTopKPairs.
 *
 * Order. As topk.cuh: a key's ordered bits (radix_sort.cuh's order, all
 * flipped for the largest, detail::topk::Keys) are compared; the k smallest
 * are selected, ties at the k-th key broken by the lower input position.
 *
 * A group of G threads (a warp, or the block) selects one segment
 * [begin, end) (clamped to [0, n); end < begin is empty) of m keys, kk =
 * min(k, m) results to out[s*k, s*k + kk):
 *   kk < m: a radix select over the ordered bits, 8 bits a pass, MSB first:
 *     each pass reads the segment from global memory and counts, in shared
 *     memory, the digit of every key whose higher bits equal the
 *     threshold's so far; one warp scans the 256 counts and picks the digit
 *     holding the kk-th key. When the chosen bucket is exactly what is still
 *     needed, the threshold is final early.
 *   then one pass in input order, G keys at a time, writes every key below
 *   the threshold T and the first `remaining` keys equal to it (positions by
 *   ballots, warp sums in shared memory): straight to the output when
 *   unsorted, else to shared memory (bits and position), after which every
 *   staged item finds its rank (keys below it, and equal ones staged before
 *   it) and writes itself there, gathering its key and value from the input.
 *
 *   <sym>_warp   a warp per segment (grid-stride over the segments); sorted
 *                takes k <= WARP_SORT_MAX.
 *   <sym>_block  a block per segment (grid-stride); sorted takes k <=
 *                BLOCK_SORT_MAX.
 * A sorted launch of a larger k writes nothing (the host errors before).
 * Counts and in-segment positions are 32-bit: the host takes n < 2^32.
 *
 * Template parameters: BLOCK_THREADS (a multiple of 32), ITEMS_PER_THREAD
 * (unused). Compiles with CUB 1.17 (CUDA 11.8) and CCCL 3.x.
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/topk.cuh>

#include <stdint.h>
#include <type_traits>

namespace gocccl {
namespace detail {
namespace segtopk {

constexpr int RADIX_BITS = 8;
constexpr int RADIX = 1 << RADIX_BITS;
constexpr int WARP_SORT_MAX = 256;
constexpr int BLOCK_SORT_MAX = 1024;

/// b >> s, 0 for s >= 64.
GOCCCL_DEVICE unsigned long long high(unsigned long long b, int s)
{
  return s >= 64 ? 0ull : (b >> s);
}

/// The shared state of a group of G threads, and the staging of up to CAP
/// sorted results.
template <int G, int CAP>
struct Shared
{
  static constexpr int WARPS = G / 32;
  unsigned hist[RADIX];
  unsigned warp_sums[WARPS];
  unsigned digit;
  unsigned remaining;
  unsigned exact; // the chosen bucket is all that is still needed
  unsigned long long stage_bits[CAP];
  unsigned stage_pos[CAP];
};

template <int G>
GOCCCL_DEVICE void sync()
{
  if constexpr (G == 32)
  {
    __syncwarp();
  }
  else
  {
    __syncthreads();
  }
}

/// The number of group threads before `rank` whose pred holds, and the
/// group's total.
template <int G, typename S>
GOCCCL_DEVICE unsigned count(S& sh, int rank, bool pred, unsigned& total)
{
  const unsigned ballot = __ballot_sync(0xffffffffu, pred);
  const int lane = rank & 31;
  const unsigned lt = __popc(ballot & ((1u << lane) - 1u));
  if constexpr (G == 32)
  {
    total = __popc(ballot);
    return lt;
  }
  else
  {
    const int warp = rank / 32;
    if (lane == 0)
    {
      sh.warp_sums[warp] = __popc(ballot);
    }
    __syncthreads();
    unsigned before = 0, tot = 0;
#pragma unroll
    for (int w = 0; w < S::WARPS; ++w)
    {
      const unsigned v = sh.warp_sums[w];
      before += w < warp ? v : 0u;
      tot += v;
    }
    __syncthreads();
    total = tot;
    return before + lt;
  }
}

/// Selects segment keys[0, m) into out[0, min(k, m)) (see the file comment).
template <int G, int CAP, typename K, typename V, typename S>
GOCCCL_DEVICE void select(S& sh, int rank, const K* keys, K* kout, const V* vals, V* vout, long long m, long long k,
                          bool sorted, bool largest)
{
  using KT = topk::Keys<K>;
  constexpr int KEY_BITS = KT::KEY_BITS;
  const unsigned kk = static_cast<unsigned>(k < m ? k : m);
  if (kk == 0 || (sorted && kk > unsigned(CAP)))
  {
    return;
  }
  const unsigned len = static_cast<unsigned>(m);
  const bool all = kk == len;
  unsigned long long t = 0; // the threshold's bits
  unsigned remaining = kk;  // keys equal to t still to take
  if (!all)
  {
#pragma unroll 1
    for (int shift = KEY_BITS - RADIX_BITS; shift >= 0; shift -= RADIX_BITS)
    {
      for (int d = rank; d < RADIX; d += G)
      {
        sh.hist[d] = 0;
      }
      sync<G>();
      const unsigned long long want = high(t, shift + RADIX_BITS);
#pragma unroll 1
      for (unsigned i = rank; i < len; i += G)
      {
        const unsigned long long b = KT::in(keys[i], largest);
        if (high(b, shift + RADIX_BITS) == want)
        {
          atomicAdd(&sh.hist[(b >> shift) & (RADIX - 1)], 1u);
        }
      }
      sync<G>();
      if (rank < 32)
      {
        // Lane l holds digits [8l, 8l + 8).
        constexpr int PER = RADIX / 32;
        unsigned c[PER];
        unsigned sum = 0;
#pragma unroll
        for (int j = 0; j < PER; ++j)
        {
          c[j] = sh.hist[rank * PER + j];
          sum += c[j];
        }
        unsigned incl = sum;
#pragma unroll
        for (int off = 1; off < 32; off <<= 1)
        {
          const unsigned v = __shfl_up_sync(0xffffffffu, incl, off);
          if (rank >= off)
          {
            incl += v;
          }
        }
        const unsigned excl = incl - sum;
        if (excl < remaining && remaining <= incl)
        {
          unsigned before = excl;
#pragma unroll
          for (int j = 0; j < PER; ++j)
          {
            if (before + c[j] >= remaining)
            {
              sh.digit = rank * PER + j;
              sh.remaining = remaining - before;
              sh.exact = before + c[j] == remaining;
              break;
            }
            before += c[j];
          }
        }
      }
      sync<G>();
      t |= static_cast<unsigned long long>(sh.digit) << shift;
      remaining = sh.remaining;
      const bool exact = sh.exact != 0;
      sync<G>();
      if (exact)
      {
        // Every key of the bucket is taken: the threshold is its largest bits.
        t |= shift == 0 ? 0ull : ((1ull << shift) - 1ull);
        remaining = len;
        break;
      }
    }
  }

  unsigned eq_seen = 0, out_at = 0;
#pragma unroll 1
  for (unsigned base = 0; base < len && out_at < kk; base += G)
  {
    const unsigned i = base + rank;
    const bool valid = i < len;
    const unsigned long long b = valid ? KT::in(keys[i], largest) : 0ull;
    const bool eq = valid && !all && b == t;
    unsigned eq_total;
    const unsigned eq_before = count<G>(sh, rank, eq, eq_total);
    const bool sel = valid && (all || b < t || (eq && eq_seen + eq_before < remaining));
    unsigned sel_total;
    const unsigned at = out_at + count<G>(sh, rank, sel, sel_total);
    if (sel && at < kk)
    {
      if (sorted)
      {
        sh.stage_bits[at] = b;
        sh.stage_pos[at] = i;
      }
      else
      {
        kout[at] = keys[i];
        if constexpr (!std::is_same<V, void>::value)
        {
          vout[at] = vals[i];
        }
      }
    }
    eq_seen += eq_total;
    out_at += sel_total;
  }
  if (!sorted)
  {
    return;
  }
  sync<G>();
#pragma unroll 1
  for (unsigned o = rank; o < kk; o += G)
  {
    const unsigned long long b = sh.stage_bits[o];
    unsigned r = 0;
#pragma unroll 4
    for (unsigned j = 0; j < kk; ++j)
    {
      const unsigned long long bj = sh.stage_bits[j];
      r += (bj < b || (bj == b && j < o)) ? 1u : 0u;
    }
    const unsigned p = sh.stage_pos[o];
    kout[r] = keys[p];
    if constexpr (!std::is_same<V, void>::value)
    {
      vout[r] = vals[p];
    }
  }
  sync<G>();
}

/// Segment s's clamped bounds.
template <typename BeginIt, typename EndIt>
GOCCCL_DEVICE void bounds(BeginIt d_begin, EndIt d_end, long long s, long long n, long long& b, long long& e)
{
  b = static_cast<long long>(d_begin[s]);
  e = static_cast<long long>(d_end[s]);
  b = b < 0 ? 0 : (b > n ? n : b);
  e = e > n ? n : e;
  e = e < b ? b : e;
}

template <int BLOCK_THREADS, typename K, typename V, typename BeginIt, typename EndIt>
GOCCCL_DEVICE void warp_kernel(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                               BeginIt d_begin, EndIt d_end, long long n, long long num_segments, long long k,
                               long long sorted, bool largest)
{
  static_assert(BLOCK_THREADS % 32 == 0, "gocccl::segmented_topk: BLOCK_THREADS must be a multiple of 32");
  constexpr int WARPS = BLOCK_THREADS / 32;
  using S = Shared<32, WARP_SORT_MAX>;
  __shared__ S sh[WARPS];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x & 31;
  const long long stride = static_cast<long long>(gridDim.x) * WARPS;
#pragma unroll 1
  for (long long s = static_cast<long long>(blockIdx.x) * WARPS + warp; s < num_segments; s += stride)
  {
    long long b, e;
    bounds(d_begin, d_end, s, n, b, e);
    V* vout = nullptr;
    const V* vin = nullptr;
    if constexpr (!std::is_same<V, void>::value)
    {
      vin = d_values_in + b;
      vout = d_values_out + s * k;
    }
    select<32, WARP_SORT_MAX, K, V>(sh[warp], lane, d_keys_in + b, d_keys_out + s * k, vin, vout, e - b, k,
                                    sorted != 0, largest);
  }
}

template <int BLOCK_THREADS, typename K, typename V, typename BeginIt, typename EndIt>
GOCCCL_DEVICE void block_kernel(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                                BeginIt d_begin, EndIt d_end, long long n, long long num_segments, long long k,
                                long long sorted, bool largest)
{
  static_assert(BLOCK_THREADS % 32 == 0, "gocccl::segmented_topk: BLOCK_THREADS must be a multiple of 32");
  using S = Shared<BLOCK_THREADS, BLOCK_SORT_MAX>;
  __shared__ S sh;
#pragma unroll 1
  for (long long s = blockIdx.x; s < num_segments; s += gridDim.x)
  {
    long long b, e;
    bounds(d_begin, d_end, s, n, b, e);
    V* vout = nullptr;
    const V* vin = nullptr;
    if constexpr (!std::is_same<V, void>::value)
    {
      vin = d_values_in + b;
      vout = d_values_out + s * k;
    }
    select<BLOCK_THREADS, BLOCK_SORT_MAX, K, V>(sh, threadIdx.x, d_keys_in + b, d_keys_out + s * k, vin, vout, e - b,
                                                k, sorted != 0, largest);
  }
}

} // namespace segtopk
} // namespace detail

/// A warp per segment, keys only.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename BeginIt, typename EndIt>
__device__ void segmented_topk_keys_warp(const K* d_keys_in, K* d_keys_out, BeginIt d_begin, EndIt d_end, long long n,
                                         long long num_segments, long long k, long long sorted, bool largest)
{
  detail::segtopk::warp_kernel<BLOCK_THREADS, K, void>(d_keys_in, d_keys_out, static_cast<const void*>(nullptr),
                                                       static_cast<void*>(nullptr), d_begin, d_end, n, num_segments,
                                                       k, sorted, largest);
}

/// A block per segment, keys only.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename BeginIt, typename EndIt>
__device__ void segmented_topk_keys_block(const K* d_keys_in, K* d_keys_out, BeginIt d_begin, EndIt d_end, long long n,
                                          long long num_segments, long long k, long long sorted, bool largest)
{
  detail::segtopk::block_kernel<BLOCK_THREADS, K, void>(d_keys_in, d_keys_out, static_cast<const void*>(nullptr),
                                                        static_cast<void*>(nullptr), d_begin, d_end, n, num_segments,
                                                        k, sorted, largest);
}

/// A warp per segment, key-value pairs.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename BeginIt, typename EndIt>
__device__ void segmented_topk_pairs_warp(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                                          BeginIt d_begin, EndIt d_end, long long n, long long num_segments,
                                          long long k, long long sorted, bool largest)
{
  detail::segtopk::warp_kernel<BLOCK_THREADS, K, V>(d_keys_in, d_keys_out, d_values_in, d_values_out, d_begin, d_end,
                                                    n, num_segments, k, sorted, largest);
}

/// A block per segment, key-value pairs.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V, typename BeginIt, typename EndIt>
__device__ void segmented_topk_pairs_block(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                                           BeginIt d_begin, EndIt d_end, long long n, long long num_segments,
                                           long long k, long long sorted, bool largest)
{
  detail::segtopk::block_kernel<BLOCK_THREADS, K, V>(d_keys_in, d_keys_out, d_values_in, d_values_out, d_begin, d_end,
                                                     n, num_segments, k, sorted, largest);
}

} // namespace gocccl
