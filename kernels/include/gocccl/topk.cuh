/*
 * gocccl/topk.cuh: device-wide top-k by radix select (after the "AIR top-k"
 * of Zhang et al. 2023, which cub::DeviceTopK of CCCL 3.2 also runs), the
 * kernel side of runtime.TopKKeys and runtime.TopKPairs.
 *
 * Order. Every key becomes its composite (b, i): b its ordered bits as the
 * radix sort orders them (radix_sort.cuh: unsigned as they are, signed with
 * the sign bit flipped, floats negative all flipped, else the sign flipped),
 * all bits flipped again for the largest k (`largest`), and i its input
 * position, in the low IDX_BITS = bits.Len(n - 1) bits. Composites are
 * distinct; the k smallest are selected: the k best keys, ties at the k-th
 * key broken by the lower input position. The selection goes MSB first over
 * the composite's W = KEY_BITS + IDX_BITS bits in 11-bit digits (levels
 * 0, 1, ..., NL - 1, NL = ceil(W / 11)); level q's prefix is the top
 * min(W, 11 (q + 1)) bits.
 *
 *   <sym>_init    grid any: zeroes the scratch's histograms and control words.
 *   <sym>_pass    grid G, launch `level` = 0, 1, ..., NL in order: each block
 *                 strides over the pass's source (the input, or the candidate
 *                 buffer the previous pass wrote) and, for level p:
 *                   p = 0: counts every key's level-0 digit;
 *                   p > 0: skips keys whose level p-2 prefix differs from the
 *                   threshold's (output or dropped earlier), writes those
 *                   whose level p-1 prefix is below it to the output, and
 *                   counts the level-p digit of those equal to it, also
 *                   writing them (bits and position) to the other candidate
 *                   buffer when they fit;
 *                 blocks add their shared histograms to global memory; the
 *                 last block to finish finds the bucket holding the k-th
 *                 composite (block scan over the 2048 digits), appends its
 *                 digit to the threshold and sets the source of the next pass.
 *                 When the bucket is exactly what is still needed the
 *                 threshold is final at that level L: launch L + 1 writes
 *                 every key of prefix <= the threshold's and later launches
 *                 return at once. No count goes back to the host.
 *   <sym>_filter  grid G, launch `phase` = 0, 1, 2 before level 0, for
 *                 large n and small k (4- and 8-byte keys; the host decides,
 *                 runtime/topk_gpu.go topkFilterPlan): phases 0 and 1 find
 *                 the top two digits (22 key bits) of the rank-th best key
 *                 of a sample of every stride-th key, in a scratch region of
 *                 its own (SAMPLE_BYTES); phase 2 reads the input once and
 *                 writes every key whose bits are at most that prefix
 *                 followed by ones to buffer 0. When that keeps k to cap
 *                 keys, they hold the k best and level 0 reads buffer 0 as
 *                 its source; else (a skewed sample, many ties) the source
 *                 stays the input and the passes run as without it. The
 *                 rank is the sample's expected count of keys before the
 *                 k-th plus four standard deviations and 16, so the bound
 *                 lies past the k-th key unless the sample misleads; one
 *                 read of the input then replaces the two or three that
 *                 random keys take otherwise.
 *   <sym>_single  grid 1: n <= TILE: one block runs every level in shared
 *                 memory, reading the input (cached) once a level.
 *   <sym>_sort    grid 1: k <= TILE: sorts the k results best first by
 *                 composite (two stable block radix sorts: positions, then
 *                 key bits), gathering values anew from d_values_in.
 *
 * Larger sorted selections (k > BLOCK_THREADS * SORT_ITEMS) sort the k
 * results with Onesweep (radix_sort.cuh) over 64-bit sort items, whatever K
 * and V are; the selection's output is in no particular order, so the items
 * carry the positions and the sort orders by composite:
 *   <sym>_order            grid any: bits[p] = the ordered bits of result p,
 *                          shifted left by `shift` and or'ed with its
 *                          position when shift > 0 (the composite fits 64
 *                          bits: keys of at most 4 bytes), else alone.
 *   <sym>_sort_histogram,  radix_sort_histogram and radix_sort_pairs_onesweep
 *   <sym>_sort_onesweep    of unsigned long long keys and values: one stable
 *                          ascending sort of (bits, positions) over the
 *                          composite's bits, or, for 8-byte keys, a sort of
 *                          (positions, bits) by position, then one of
 *                          (bits, positions) by key bits.
 *   <sym>_gather           grid any: writes result p's key from bits[p] >>
 *                          shift and its value from d_values_in[idx[p]].
 *
 * Scratch layout (bytes; the host computes the same, runtime/topk_gpu.go):
 *   [0, HIST_BYTES)             hist[MAX_LEVELS][2048] unsigned
 *   [HIST_BYTES, +CTRL_BYTES)   Control
 *   then, 256-aligned: bufs[2] of cap (bits: u64) then cap (positions: u64),
 *   then the outputs' positions (k u64) when sorted; for the larger sorted
 *   selections then, each 256-aligned, the sort items' bits and their
 *   alternate (k u64 each), the positions' alternate (k u64) and the
 *   Onesweep scratch of k items (runtime/topk_gpu.go, topkScratch).
 *
 * Template parameters: BLOCK_THREADS (a multiple of 32, >= 256),
 * ITEMS_PER_THREAD. All sizes and indices are 64-bit. Compiles with CUB 1.17
 * (CUDA 11.8) and CCCL 3.x.
 */
#pragma once

#include <gocccl/config.cuh>
#include <gocccl/radix_sort.cuh>

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include <stdint.h>
#include <string.h>
#include <type_traits>

/// The key-order and composite helpers also compile for the host, where a
/// test checks them (cmd/gocccl-gen/internal/emit/cuda_topk_test.go).
#define GOCCCL_TOPK_HD __host__ __device__ __forceinline__

namespace gocccl {
namespace detail {
namespace topk {

constexpr int DIGIT_BITS = 11;
constexpr int DIGITS = 1 << DIGIT_BITS;
constexpr int MAX_LEVELS = 12; // ceil((64 + 63) / 11)
/// Items a thread of the sort kernel holds: it sorts k <= BLOCK_THREADS * SORT_ITEMS.
constexpr int SORT_ITEMS = 16;
constexpr long long HIST_BYTES = (long long)MAX_LEVELS * DIGITS * 4;

/// The control words of a selection (in scratch after the histograms).
struct Control
{
  unsigned long long t_key;  // threshold: key part of the chosen prefix
  unsigned long long t_idx;  // threshold: position part
  long long remaining;       // composites still to take from the bucket
  long long bucket;          // composites in the chosen bucket
  long long done;            // level + 1 at which the threshold is final, 0 while not
  long long src;             // source of the next pass: 0 the input, 1 or 2 buffer 0 or 1
  long long src_count;       // items in that buffer
  long long out_count;       // items written to the output
  long long buf_count;       // items written to the buffer this pass
  unsigned blocks_done;      // blocks of this pass finished
  unsigned pad;
};
constexpr long long CTRL_BYTES = 128;
static_assert(sizeof(Control) <= CTRL_BYTES, "gocccl::topk: control words");

template <int BYTES> struct uint_of;
template <> struct uint_of<1> { using type = uint8_t; };
template <> struct uint_of<2> { using type = uint16_t; };
template <> struct uint_of<4> { using type = uint32_t; };
template <> struct uint_of<8> { using type = uint64_t; };

/// A key's ordered bits (flipped for the largest) and back.
template <typename K>
struct Keys
{
  static_assert(sizeof(K) == 1 || sizeof(K) == 2 || sizeof(K) == 4 || sizeof(K) == 8,
                "gocccl::topk: keys must be 1, 2, 4 or 8 bytes");
  using Bits = typename uint_of<int(sizeof(K))>::type;
  static constexpr int KEY_BITS = 8 * int(sizeof(K));
  static constexpr Bits SIGN = Bits(Bits(1) << (KEY_BITS - 1));

  static GOCCCL_TOPK_HD unsigned long long in(K k, bool largest)
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
    if (largest)
    {
      b = Bits(~b);
    }
    return b;
  }

  static GOCCCL_TOPK_HD K out(unsigned long long x, bool largest)
  {
    Bits b = Bits(x);
    if (largest)
    {
      b = Bits(~b);
    }
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

GOCCCL_TOPK_HD unsigned long long low_mask(int bits)
{
  return bits <= 0 ? 0ull : bits >= 64 ? ~0ull : (~0ull >> (64 - bits));
}

/// The composite's geometry: KEY_BITS key bits above IDX_BITS position bits.
struct Geometry
{
  int key_bits, idx_bits, width;

  GOCCCL_TOPK_HD Geometry(int kb, int ib) : key_bits(kb), idx_bits(ib), width(kb + ib) {}

  GOCCCL_TOPK_HD int levels() const { return (width + DIGIT_BITS - 1) / DIGIT_BITS; }

  /// The composite bit where level q's digit starts (its prefix is [lo, width)).
  GOCCCL_TOPK_HD int lo(int q) const
  {
    const int l = width - DIGIT_BITS * (q + 1);
    return l > 0 ? l : 0;
  }

  /// Level q's digit of (b, i).
  GOCCCL_TOPK_HD unsigned digit(unsigned long long b, unsigned long long i, int q) const
  {
    const int l = lo(q);
    const int w = (width - DIGIT_BITS * q) - l;
    unsigned long long d;
    if (l >= idx_bits)
    {
      d = b >> (l - idx_bits);
    }
    else if (l + w <= idx_bits)
    {
      d = i >> l;
    }
    else
    {
      d = (i >> l) | (b << (idx_bits - l));
    }
    return unsigned(d & low_mask(w));
  }

  /// The masks of level q's prefix over the key and position parts (q < 0:
  /// nothing).
  GOCCCL_TOPK_HD void masks(int q, unsigned long long& km, unsigned long long& im) const
  {
    if (q < 0)
    {
      km = im = 0;
      return;
    }
    const int l = lo(q);
    km = l >= idx_bits ? (low_mask(key_bits) & ~low_mask(l - idx_bits)) : low_mask(key_bits);
    im = l >= idx_bits ? 0ull : (low_mask(idx_bits) & ~low_mask(l));
  }

  /// Sets level q's digit d in (tk, ti), whose bits there are zero.
  GOCCCL_TOPK_HD void place(unsigned d, int q, unsigned long long& tk, unsigned long long& ti) const
  {
    const int l = lo(q);
    const unsigned long long x = d;
    if (l >= idx_bits)
    {
      tk |= x << (l - idx_bits);
    }
    else
    {
      ti |= (x << l) & low_mask(idx_bits);
      if (l + (width - DIGIT_BITS * q - l) > idx_bits)
      {
        tk |= x >> (idx_bits - l);
      }
    }
  }
};

/// -1, 0 or 1: (b, i) against (tk, ti) under the masks.
GOCCCL_TOPK_HD int compare(unsigned long long b, unsigned long long i, unsigned long long tk, unsigned long long ti,
                          unsigned long long km, unsigned long long im)
{
  b &= km;
  tk &= km;
  if (b != tk)
  {
    return b < tk ? -1 : 1;
  }
  i &= im;
  ti &= im;
  return i < ti ? -1 : (i > ti ? 1 : 0);
}

/// Positions in a buffer for the warp's lanes with `pred` (all lanes call it):
/// one atomic a warp.
GOCCCL_DEVICE long long warp_append(long long* counter, bool pred)
{
  const unsigned ballot = __ballot_sync(0xffffffffu, pred);
  const int lane = threadIdx.x & 31;
  long long base = 0;
  if (ballot != 0)
  {
    const int leader = __ffs(ballot) - 1;
    if (lane == leader)
    {
      base = (long long)atomicAdd(reinterpret_cast<unsigned long long*>(counter), (unsigned long long)__popc(ballot));
    }
    base = __shfl_sync(0xffffffffu, base, leader);
  }
  return base + __popc(ballot & ((1u << lane) - 1u));
}

/// Finds in hist[0, DIGITS) the bucket holding the remaining-th composite
/// (1-based) and records it in (tk, ti, remaining, bucket, done). One block
/// calls it; hist is read through `load` (shared or global).
template <int BLOCK_THREADS, typename Load>
GOCCCL_DEVICE void choose(Load load, const Geometry& g, int q, long long k, Control* c, long long* s_result)
{
  static_assert(DIGITS % BLOCK_THREADS == 0, "gocccl::topk: BLOCK_THREADS must divide 2048");
  constexpr int PER = DIGITS / BLOCK_THREADS;
  volatile Control* vc = c;
  using Scan = cub::BlockScan<long long, BLOCK_THREADS>;
  __shared__ typename Scan::TempStorage scan;
  long long h[PER];
  long long sum = 0;
#pragma unroll
  for (int j = 0; j < PER; ++j)
  {
    h[j] = load(threadIdx.x * PER + j);
    sum += h[j];
  }
  long long before;
  Scan(scan).ExclusiveSum(sum, before);
  // Level 0 takes k from everything; later levels what the last choice left.
  const long long r = q == 0 ? k : vc->remaining;
#pragma unroll
  for (int j = 0; j < PER; ++j)
  {
    if (before < r && r <= before + h[j])
    {
      const unsigned d = threadIdx.x * PER + j;
      unsigned long long tk = vc->t_key, ti = vc->t_idx;
      g.place(d, q, tk, ti);
      s_result[0] = (long long)tk;
      s_result[1] = (long long)ti;
      s_result[2] = r - before;
      s_result[3] = h[j];
    }
    before += h[j];
  }
  __syncthreads();
  if (threadIdx.x == 0)
  {
    vc->t_key = (unsigned long long)s_result[0];
    vc->t_idx = (unsigned long long)s_result[1];
    vc->remaining = s_result[2];
    vc->bucket = s_result[3];
    if (s_result[2] == s_result[3] || q + 1 >= g.levels())
    {
      vc->done = q + 1;
    }
  }
  __syncthreads();
}

/// What a pass does with one composite (b, i) of its source: returns true
/// when it goes to the output; sets `cand` when it is a candidate of level q.
GOCCCL_TOPK_HD bool classify(unsigned long long b, unsigned long long i, bool valid, int q, bool final_pass,
                            unsigned long long tk, unsigned long long ti, unsigned long long km2,
                            unsigned long long im2, unsigned long long km1, unsigned long long im1, bool& cand)
{
  cand = false;
  if (!valid)
  {
    return false;
  }
  if (q == 0)
  {
    cand = true;
    return false;
  }
  if (compare(b, i, tk, ti, km2, im2) != 0)
  {
    return false;
  }
  const int c = compare(b, i, tk, ti, km1, im1);
  if (c < 0 || (c == 0 && final_pass))
  {
    return true;
  }
  cand = c == 0;
  return false;
}

/// Writes one selected item.
template <typename K, typename V>
GOCCCL_DEVICE void emit(long long at, long long k, unsigned long long b, unsigned long long i, bool largest,
                        K* d_keys_out, const V* d_values_in, V* d_values_out, unsigned long long* d_out_idx)
{
  if (at >= k)
  {
    return; // cannot happen: the counts select exactly k (a guard against writing past the output)
  }
  d_keys_out[at] = Keys<K>::out(b, largest);
  if constexpr (!std::is_same<V, void>::value)
  {
    d_values_out[at] = d_values_in[i];
  }
  if (d_out_idx != nullptr)
  {
    d_out_idx[at] = i;
  }
}

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
struct Pass
{
  static constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;

  struct TempStorage
  {
    unsigned hist[DIGITS];
    long long result[4];
    bool last;
  };

  static GOCCCL_DEVICE void run(TempStorage& temp, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                V* d_values_out, long long n, long long k, void* d_scratch, long long cap,
                                long long sorted, long long level, bool largest)
  {
    char* base = static_cast<char*>(d_scratch);
    unsigned* ghist = reinterpret_cast<unsigned*>(base);
    Control* c = reinterpret_cast<Control*>(base + HIST_BYTES);
    const long long bufs_at = (HIST_BYTES + CTRL_BYTES + 255) / 256 * 256;
    // Buffer j (0 or 1): cap composites' bits, then their cap positions.
    unsigned long long* const buf0 = reinterpret_cast<unsigned long long*>(base + bufs_at);
    unsigned long long* const buf1 = buf0 + 2 * cap;
    unsigned long long* out_idx = sorted ? reinterpret_cast<unsigned long long*>(base + bufs_at + 32 * cap) : nullptr;

    const int q = int(level);
    const Geometry g(Keys<K>::KEY_BITS, n > 1 ? 64 - __clzll((unsigned long long)(n - 1)) : 0);
    const long long done = c->done;
    if (done != 0 && done < q)
    {
      return; // final already written
    }
    const bool final_pass = done != 0 && done == q;
    const unsigned long long tk = c->t_key, ti = c->t_idx;
    unsigned long long km2, im2, km1, im1;
    g.masks(q - 2, km2, im2);
    g.masks(q - 1, km1, im1);
    const long long src = c->src;
    const long long count = src == 0 ? n : c->src_count;
    const bool write_buf = !final_pass && q > 0 && q < g.levels() && c->bucket <= cap;
    const int dst = src == 1 ? 1 : 0;
    // Scalar pointers (an array indexed at run time would live in local memory).
    const unsigned long long* const src_bits = src == 2 ? buf1 : buf0;
    const unsigned long long* const src_idx = src_bits + cap;
    unsigned long long* const dst_bits = dst == 1 ? buf1 : buf0;
    unsigned long long* const dst_idx = dst_bits + cap;

    for (int j = threadIdx.x; j < DIGITS; j += BLOCK_THREADS)
    {
      temp.hist[j] = 0;
    }
    __syncthreads();

    const long long stride = (long long)gridDim.x * TILE;
    for (long long t = (long long)blockIdx.x * TILE; t < count; t += stride)
    {
#pragma unroll 4
      for (int it = 0; it < ITEMS_PER_THREAD; ++it)
      {
        const long long p = t + (long long)it * BLOCK_THREADS + threadIdx.x;
        const bool valid = p < count;
        unsigned long long b = 0, i = 0;
        if (valid)
        {
          if (src == 0)
          {
            b = Keys<K>::in(d_keys_in[p], largest);
            i = (unsigned long long)p;
          }
          else
          {
            b = src_bits[p];
            i = src_idx[p];
          }
        }
        bool cand;
        const bool out = classify(b, i, valid, q, final_pass, tk, ti, km2, im2, km1, im1, cand);
        if (__any_sync(0xffffffffu, out))
        {
          const long long at = warp_append(&c->out_count, out);
          if (out)
          {
            emit<K, V>(at, k, b, i, largest, d_keys_out, d_values_in, d_values_out, out_idx);
          }
        }
        if (cand && !final_pass)
        {
          atomicAdd(&temp.hist[g.digit(b, i, q)], 1u);
        }
        if (write_buf && __any_sync(0xffffffffu, cand))
        {
          const long long at = warp_append(&c->buf_count, cand);
          if (cand && at < cap)
          {
            dst_bits[at] = b;
            dst_idx[at] = i;
          }
        }
      }
    }
    if (final_pass)
    {
      return;
    }
    __syncthreads();
    unsigned* lh = ghist + (long long)q * DIGITS;
    for (int j = threadIdx.x; j < DIGITS; j += BLOCK_THREADS)
    {
      if (temp.hist[j] != 0)
      {
        atomicAdd(&lh[j], temp.hist[j]);
      }
    }
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
    {
      temp.last = atomicAdd(&c->blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!temp.last)
    {
      return;
    }
    __threadfence();
    choose<BLOCK_THREADS>([&](int j) { return (long long)__ldcg(&lh[j]); }, g, q, k, c, temp.result);
    if (threadIdx.x == 0)
    {
      // Read back what other blocks' atomics wrote past L1 (volatile), and
      // reset the per-launch words for the next launch.
      volatile Control* vc = c;
      vc->blocks_done = 0;
      if (write_buf)
      {
        vc->src = dst + 1;
        vc->src_count = vc->buf_count;
      }
      vc->buf_count = 0;
    }
  }
};

template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
struct Single
{
  struct TempStorage
  {
    unsigned hist[DIGITS];
    long long result[4];
    Control c;
  };

  static GOCCCL_DEVICE void run(TempStorage& temp, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                V* d_values_out, long long n, long long k, unsigned long long* out_idx,
                                bool largest)
  {
    Control* c = &temp.c;
    if (threadIdx.x == 0)
    {
      *c = Control{};
      c->remaining = k;
    }
    const Geometry g(Keys<K>::KEY_BITS, n > 1 ? 64 - __clzll((unsigned long long)(n - 1)) : 0);
    __syncthreads();
    for (int q = 0;; ++q)
    {
      const bool final_pass = c->done != 0;
      const unsigned long long tk = c->t_key, ti = c->t_idx;
      unsigned long long km2, im2, km1, im1;
      g.masks(q - 2, km2, im2);
      g.masks(q - 1, km1, im1);
      for (int j = threadIdx.x; j < DIGITS; j += BLOCK_THREADS)
      {
        temp.hist[j] = 0;
      }
      __syncthreads();
      for (long long t = 0; t < n; t += BLOCK_THREADS)
      {
        const long long p = t + threadIdx.x;
        const bool valid = p < n;
        unsigned long long b = valid ? Keys<K>::in(d_keys_in[p], largest) : 0, i = (unsigned long long)p;
        bool cand;
        const bool out = classify(b, i, valid, q, final_pass, tk, ti, km2, im2, km1, im1, cand);
        if (__any_sync(0xffffffffu, out))
        {
          const long long at = warp_append(&c->out_count, out);
          if (out)
          {
            emit<K, V>(at, k, b, i, largest, d_keys_out, d_values_in, d_values_out, out_idx);
          }
        }
        if (cand && !final_pass)
        {
          atomicAdd(&temp.hist[g.digit(b, i, q)], 1u);
        }
      }
      __syncthreads();
      if (final_pass)
      {
        return;
      }
      choose<BLOCK_THREADS>([&](int j) { return (long long)temp.hist[j]; }, g, q, k, c, temp.result);
    }
  }
};

/// The sampled bound's state (bytes, in its own scratch region): the
/// sample's two histograms, then its control words.
constexpr long long SAMPLE_BYTES = 2LL * DIGITS * 4 + CTRL_BYTES;

/// The prefilter of large selections (see the file comment): phases 0 and 1
/// choose the top two digits of the rank-th best key of a sample (every
/// stride-th key), phase 2 writes every key at or before that prefix's last
/// key to buffer 0 and, when they number k to cap, makes buffer 0 the source
/// of level 0.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K>
struct Filter
{
  static constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
  static_assert(Keys<K>::KEY_BITS >= 2 * DIGIT_BITS, "gocccl::topk: the prefilter's bound takes 22 key bits");

  struct TempStorage
  {
    unsigned hist[DIGITS];
    long long result[4];
    bool last;
  };

  /// True for the block that finishes a launch last (after a fence).
  static GOCCCL_DEVICE bool last_block(TempStorage& temp, Control* sc)
  {
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
    {
      temp.last = atomicAdd(&sc->blocks_done, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (temp.last)
    {
      __threadfence();
    }
    return temp.last;
  }

  static GOCCCL_DEVICE void run(TempStorage& temp, const K* d_keys_in, long long n, long long k, void* d_scratch,
                                void* d_sample, long long cap, long long stride, long long rank, long long phase,
                                bool largest)
  {
    char* base = static_cast<char*>(d_scratch);
    Control* c = reinterpret_cast<Control*>(base + HIST_BYTES);
    const long long bufs_at = (HIST_BYTES + CTRL_BYTES + 255) / 256 * 256;
    unsigned long long* const buf_bits = reinterpret_cast<unsigned long long*>(base + bufs_at);
    unsigned long long* const buf_idx = buf_bits + cap;
    unsigned* const shist = static_cast<unsigned*>(d_sample);
    Control* const sc = reinterpret_cast<Control*>(static_cast<char*>(d_sample) + 2LL * DIGITS * 4);
    // The sample's composites are its keys alone: two digits of key bits.
    const Geometry g(Keys<K>::KEY_BITS, 0);

    if (phase < 2)
    {
      const int q = int(phase);
      for (int j = threadIdx.x; j < DIGITS; j += BLOCK_THREADS)
      {
        temp.hist[j] = 0;
      }
      __syncthreads();
      unsigned long long km, im;
      g.masks(q - 1, km, im);
      const unsigned long long tk = sc->t_key & km;
      const long long s = (n + stride - 1) / stride;
      const long long step = (long long)gridDim.x * BLOCK_THREADS;
      for (long long j = (long long)blockIdx.x * BLOCK_THREADS + threadIdx.x; j < s; j += step)
      {
        const unsigned long long b = Keys<K>::in(d_keys_in[j * stride], largest);
        if ((b & km) == tk)
        {
          atomicAdd(&temp.hist[g.digit(b, 0, q)], 1u);
        }
      }
      __syncthreads();
      unsigned* lh = shist + (long long)q * DIGITS;
      for (int j = threadIdx.x; j < DIGITS; j += BLOCK_THREADS)
      {
        if (temp.hist[j] != 0)
        {
          atomicAdd(&lh[j], temp.hist[j]);
        }
      }
      if (!last_block(temp, sc))
      {
        return;
      }
      choose<BLOCK_THREADS>([&](int j) { return (long long)__ldcg(&lh[j]); }, g, q, rank, sc, temp.result);
      if (threadIdx.x == 0)
      {
        volatile Control* vs = sc;
        vs->blocks_done = 0;
      }
      return;
    }

    // Phase 2: every key whose ordered bits are at most the bound (the
    // chosen 22-bit prefix followed by ones) is a candidate.
    const unsigned long long bound =
      (static_cast<volatile Control*>(sc)->t_key) | low_mask(Keys<K>::KEY_BITS - 2 * DIGIT_BITS);
    const long long step = (long long)gridDim.x * TILE;
    for (long long t = (long long)blockIdx.x * TILE; t < n; t += step)
    {
      K keys[ITEMS_PER_THREAD];
      if (t + TILE <= n)
      {
#pragma unroll
        for (int it = 0; it < ITEMS_PER_THREAD; ++it)
        {
          keys[it] = d_keys_in[t + (long long)it * BLOCK_THREADS + threadIdx.x];
        }
      }
      else
      {
#pragma unroll
        for (int it = 0; it < ITEMS_PER_THREAD; ++it)
        {
          const long long p = t + (long long)it * BLOCK_THREADS + threadIdx.x;
          keys[it] = p < n ? d_keys_in[p] : K();
        }
      }
#pragma unroll
      for (int it = 0; it < ITEMS_PER_THREAD; ++it)
      {
        const long long p = t + (long long)it * BLOCK_THREADS + threadIdx.x;
        const unsigned long long b = Keys<K>::in(keys[it], largest);
        const bool cand = p < n && b <= bound;
        if (__any_sync(0xffffffffu, cand))
        {
          const long long at = warp_append(&c->buf_count, cand);
          if (cand && at < cap)
          {
            buf_bits[at] = b;
            buf_idx[at] = (unsigned long long)p;
          }
        }
      }
    }
    if (!last_block(temp, sc))
    {
      return;
    }
    if (threadIdx.x == 0)
    {
      volatile Control* vc = c;
      const long long total = vc->buf_count;
      const bool fits = total >= k && total <= cap;
      vc->src = fits ? 1 : 0;
      vc->src_count = fits ? total : 0;
      vc->buf_count = 0;
      volatile Control* vs = sc;
      vs->blocks_done = 0;
    }
  }
};

/// Sorts the k <= BLOCK_THREADS * ITEMS results best first by composite.
template <int BLOCK_THREADS, int ITEMS, typename K, typename V>
struct Sort
{
  using ByIdx = cub::BlockRadixSort<unsigned long long, BLOCK_THREADS, ITEMS, unsigned long long>;
  union TempStorage
  {
    typename ByIdx::TempStorage sort;
  };

  static GOCCCL_DEVICE void run(TempStorage& temp, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                                V* d_values_out, long long n, long long k, const unsigned long long* out_idx,
                                bool largest)
  {
    (void)d_keys_in;
    const int idx_bits = n > 1 ? 64 - __clzll((unsigned long long)(n - 1)) : 0;
    constexpr int KEY_BITS = Keys<K>::KEY_BITS;
    unsigned long long bits[ITEMS], idx[ITEMS];
#pragma unroll
    for (int j = 0; j < ITEMS; ++j)
    {
      const long long p = (long long)threadIdx.x * ITEMS + j;
      if (p < k)
      {
        bits[j] = Keys<K>::in(d_keys_out[p], largest);
        idx[j] = out_idx[p];
      }
      else
      {
        bits[j] = ~0ull; // after every real composite
        idx[j] = ~0ull;
      }
    }
    __syncthreads();
    // Stable: padding (after the k items) stays after real items that tie
    // with it in the compared bits.
    ByIdx(temp.sort).Sort(idx, bits, 0, max(idx_bits, 1));
    __syncthreads();
    ByIdx(temp.sort).Sort(bits, idx, 0, KEY_BITS);
#pragma unroll
    for (int j = 0; j < ITEMS; ++j)
    {
      const long long p = (long long)threadIdx.x * ITEMS + j;
      if (p < k)
      {
        d_keys_out[p] = Keys<K>::out(bits[j], largest);
        if constexpr (!std::is_same<V, void>::value)
        {
          d_values_out[p] = d_values_in[idx[j]];
        }
      }
    }
  }
};

/// The sort items of the k results of a larger sorted selection: bits[p]
/// from d_keys_out[p] and positions[p] (see the file comment).
template <int BLOCK_THREADS, typename K>
GOCCCL_DEVICE void order(const K* d_keys_out, long long k, const unsigned long long* positions,
                         unsigned long long* bits, long long shift, bool largest)
{
  const long long stride = (long long)gridDim.x * BLOCK_THREADS;
  for (long long p = (long long)blockIdx.x * BLOCK_THREADS + threadIdx.x; p < k; p += stride)
  {
    const unsigned long long b = Keys<K>::in(d_keys_out[p], largest);
    bits[p] = shift > 0 ? (b << shift) | positions[p] : b;
  }
}

/// Writes the sorted results: keys from the sorted bits, values from the
/// input at the sorted positions.
template <int BLOCK_THREADS, typename K, typename V>
GOCCCL_DEVICE void gather(K* d_keys_out, const V* d_values_in, V* d_values_out, long long k,
                          const unsigned long long* bits, const unsigned long long* idx, long long shift, bool largest)
{
  const long long stride = (long long)gridDim.x * BLOCK_THREADS;
  for (long long p = (long long)blockIdx.x * BLOCK_THREADS + threadIdx.x; p < k; p += stride)
  {
    d_keys_out[p] = Keys<K>::out(bits[p] >> shift, largest);
    if constexpr (!std::is_same<V, void>::value)
    {
      d_values_out[p] = d_values_in[idx[p]];
    }
  }
}

} // namespace topk
} // namespace detail

/// Zeroes the histograms and control words (words 8-byte words; any grid).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename... Types>
__device__ void topk_init(void* d_scratch, long long words)
{
  unsigned long long* w = static_cast<unsigned long long*>(d_scratch);
  const long long stride = static_cast<long long>(gridDim.x) * BLOCK_THREADS;
  for (long long i = static_cast<long long>(blockIdx.x) * BLOCK_THREADS + threadIdx.x; i < words; i += stride)
  {
    w[i] = 0;
  }
}

/// Launch `level` of a keys-only selection (see the file comment).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K>
__device__ void topk_keys_pass(const K* d_keys_in, K* d_keys_out, long long n, long long k, void* d_scratch,
                               long long cap, long long sorted, long long level, bool largest)
{
  using Agent = detail::topk::Pass<BLOCK_THREADS, ITEMS_PER_THREAD, K, void>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, nullptr, nullptr, n, k, d_scratch, cap, sorted, level, largest);
}

/// Launch `level` of a key-value selection.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
__device__ void topk_pairs_pass(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out, long long n,
                                long long k, void* d_scratch, long long cap, long long sorted, long long level,
                                bool largest)
{
  using Agent = detail::topk::Pass<BLOCK_THREADS, ITEMS_PER_THREAD, K, V>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, d_values_in, d_values_out, n, k, d_scratch, cap, sorted, level, largest);
}

/// The prefilter of a large selection of 4- or 8-byte keys, launch `phase`
/// = 0, 1, 2 before level 0 (see the file comment); d_sample is the
/// sampled bound's SAMPLE_BYTES of scratch, zeroed by topk_init.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename... Rest>
__device__ void topk_filter(const K* d_keys_in, long long n, long long k, void* d_scratch, void* d_sample,
                            long long cap, long long stride, long long rank, long long phase, bool largest)
{
  if constexpr (sizeof(K) >= 4)
  {
    using Agent = detail::topk::Filter<BLOCK_THREADS, ITEMS_PER_THREAD, K>;
    __shared__ typename Agent::TempStorage temp;
    Agent::run(temp, d_keys_in, n, k, d_scratch, d_sample, cap, stride, rank, phase, largest);
  }
}

/// One block selects from n <= TILE keys (grid 1); d_scratch (k positions)
/// may be null when unsorted.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K>
__device__ void topk_keys_single(const K* d_keys_in, K* d_keys_out, long long n, long long k, void* d_scratch,
                                 bool largest)
{
  using Agent = detail::topk::Single<BLOCK_THREADS, ITEMS_PER_THREAD, K, void>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, nullptr, nullptr, n, k, static_cast<unsigned long long*>(d_scratch),
             largest);
}

/// One block selects from n <= TILE pairs (grid 1).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
__device__ void topk_pairs_single(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                                  long long n, long long k, void* d_scratch, bool largest)
{
  using Agent = detail::topk::Single<BLOCK_THREADS, ITEMS_PER_THREAD, K, V>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, d_values_in, d_values_out, n, k,
             static_cast<unsigned long long*>(d_scratch), largest);
}

/// Sorts the k <= BLOCK_THREADS * SORT_ITEMS selected keys best first (grid 1):
/// d_positions holds their input positions.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K>
__device__ void topk_keys_sort(const K* d_keys_in, K* d_keys_out, long long n, long long k, void* d_positions,
                               bool largest)
{
  using Agent = detail::topk::Sort<BLOCK_THREADS, detail::topk::SORT_ITEMS, K, void>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, nullptr, nullptr, n, k, static_cast<const unsigned long long*>(d_positions),
             largest);
}

/// Sorts the k <= BLOCK_THREADS * SORT_ITEMS selected pairs best first (grid 1).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
__device__ void topk_pairs_sort(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out, long long n,
                                long long k, void* d_positions, bool largest)
{
  using Agent = detail::topk::Sort<BLOCK_THREADS, detail::topk::SORT_ITEMS, K, V>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, d_keys_in, d_keys_out, d_values_in, d_values_out, n, k,
             static_cast<const unsigned long long*>(d_positions), largest);
}

/// Writes the sort items of a larger sorted keys-only selection (any grid).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K>
__device__ void topk_keys_order(const K* d_keys_in, K* d_keys_out, long long n, long long k, void* d_positions,
                                void* d_bits, long long shift, bool largest)
{
  (void)d_keys_in;
  (void)n;
  detail::topk::order<BLOCK_THREADS, K>(d_keys_out, k, static_cast<const unsigned long long*>(d_positions),
                                        static_cast<unsigned long long*>(d_bits), shift, largest);
}

/// Writes the sort items of a larger sorted key-value selection (any grid).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
__device__ void topk_pairs_order(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out, long long n,
                                 long long k, void* d_positions, void* d_bits, long long shift, bool largest)
{
  (void)d_keys_in;
  (void)d_values_in;
  (void)d_values_out;
  (void)n;
  detail::topk::order<BLOCK_THREADS, K>(d_keys_out, k, static_cast<const unsigned long long*>(d_positions),
                                        static_cast<unsigned long long*>(d_bits), shift, largest);
}

/// Writes the sorted keys of a larger sorted keys-only selection (any grid).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K>
__device__ void topk_keys_gather(const K* d_keys_in, K* d_keys_out, long long n, long long k, void* d_bits,
                                 void* d_idx, long long shift, bool largest)
{
  (void)d_keys_in;
  (void)n;
  detail::topk::gather<BLOCK_THREADS, K, void>(d_keys_out, nullptr, nullptr, k,
                                               static_cast<const unsigned long long*>(d_bits),
                                               static_cast<const unsigned long long*>(d_idx), shift, largest);
}

/// Writes the sorted keys and values of a larger sorted key-value selection
/// (any grid).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename K, typename V>
__device__ void topk_pairs_gather(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                                  long long n, long long k, void* d_bits, void* d_idx, long long shift, bool largest)
{
  (void)d_keys_in;
  (void)n;
  detail::topk::gather<BLOCK_THREADS, K, V>(d_keys_out, d_values_in, d_values_out, k,
                                            static_cast<const unsigned long long*>(d_bits),
                                            static_cast<const unsigned long long*>(d_idx), shift, largest);
}

/// radix_sort_histogram over count 64-bit sort items (the parameters as
/// radix_sort_histogram's; descending is false).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename... Types>
__device__ void topk_sort_histogram(void* d_sort_keys, long long count, void* d_sort_scratch, long long begin_bit,
                                    long long end_bit, bool descending)
{
  detail::radix::histogram<BLOCK_THREADS, unsigned long long>(static_cast<const unsigned long long*>(d_sort_keys),
                                                              count, d_sort_scratch, begin_bit, end_bit, descending);
}

/// radix_sort_pairs_onesweep over count 64-bit sort items carrying 64-bit
/// values (the parameters as radix_sort_pairs_onesweep's).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename... Types>
__device__ void topk_sort_onesweep(void* d_sort_keys_in, void* d_sort_keys_out, void* d_sort_values_in,
                                   void* d_sort_values_out, long long count, void* d_sort_scratch, long long pass,
                                   long long begin_bit, long long end_bit, bool descending)
{
  using Agent = detail::radix::Onesweep<BLOCK_THREADS, ITEMS_PER_THREAD, unsigned long long, unsigned long long>;
  __shared__ typename Agent::TempStorage temp;
  Agent::run(temp, static_cast<const unsigned long long*>(d_sort_keys_in),
             static_cast<unsigned long long*>(d_sort_keys_out), static_cast<const unsigned long long*>(d_sort_values_in),
             static_cast<unsigned long long*>(d_sort_values_out), count, d_sort_scratch, pass, begin_bit, end_bit,
             descending);
}

} // namespace gocccl
