/*
 * gocccl/batched_copy.cuh: the kernel side of runtime.BatchedCopy
 * (cub::DeviceMemcpy::Batched / DeviceCopy::Batched over ranges of two
 * buffers): for every range r < num_ranges,
 *
 *   d_dst[d_dst_offsets[r] .. + d_sizes[r]) = d_src[d_src_offsets[r] .. + d_sizes[r])
 *
 * offsets and sizes in items of T. A range that does not lie inside its
 * buffers (a negative offset or size, or an end past src_len / dst_len) is
 * skipped: nothing outside the buffers is read or written. Ranges whose
 * destinations overlap each other or their sources give unspecified bytes
 * there, as CUB's do.
 *
 * Two kernels, launched in this order on one stream, as CUB's
 * agent_batch_memcpy sorts buffers into thread-, warp- and block-level ones
 * (simpler: no partition pass):
 *
 *   <sym>_small  batched_copy_small  any grid: warp w of the grid takes
 *                ranges w, w + W, w + 2W, ... (W warps in all), 32 at a
 *                time, one a lane. A range of fewer than TINY_BYTES bytes is
 *                copied by its lane alone; one of LARGE_BYTES or more is
 *                queued (an atomic slot in d_queue, while fewer than
 *                queue_cap are queued); every other range by the warp's 32
 *                lanes, one after another.
 *   <sym>_large  batched_copy_large  grid G >= 1: the queued ranges in
 *                CHUNK-byte chunks, numbered in queue order (a block scan of
 *                their counts, BLOCK_THREADS ranges at a time); chunk g goes
 *                to block g mod G, so the blocks share the bytes evenly
 *                whatever the sizes. The last block to finish zeroes the
 *                head again.
 *
 * Bytes move as 16-byte words at 16-aligned destinations: loaded as 16-byte
 * words where the source agrees with the destination modulo 16, as four
 * 4-byte words where it agrees modulo 4, else as five aligned 4-byte words
 * funnel-shifted into place (no load strays past the range's aligned words);
 * a range's first bytes up to the destination's alignment and its last
 * bytes go one byte per thread.
 *
 * d_head (16 bytes, zero at launch and again after the large kernel): the
 * number of queue slots taken (a 64-bit counter at byte 0, may exceed
 * queue_cap) and a 32-bit counter of finished large blocks at byte 8.
 * d_queue holds queue_cap 64-bit range indices; queue_cap == 0 queues
 * nothing (the host then skips the large kernel).
 *
 * Requirements: T trivially copyable. Launch with blockDim.x == BLOCK_THREADS.
 * Compiles with CUB 1.17 (CUDA 11.8) and CCCL 3 (CUDA 13): config.cuh and
 * cub::BlockScan.
 */
#pragma once

#include <gocccl/config.cuh>

#include <cub/block/block_scan.cuh>

#include <type_traits>

namespace gocccl {
namespace detail {

/// Ranges below TINY_BYTES are copied by one thread; from LARGE_BYTES on by
/// the large kernel (runtime/batched_copy.go sizes the queue with the same
/// LARGE_BYTES).
constexpr long long BATCHED_COPY_TINY_BYTES = 16;
constexpr long long BATCHED_COPY_LARGE_BYTES = 32 << 10;

struct BatchedCopyHead
{
  static GOCCCL_DEVICE unsigned long long* queued(void* h) { return static_cast<unsigned long long*>(h); }
  static GOCCCL_DEVICE unsigned int* finished(void* h)
  {
    return reinterpret_cast<unsigned int*>(static_cast<char*>(h) + 8);
  }
};

/// The 16-byte source words of a copy whose source is 16-aligned.
struct Words16
{
  const uint4* s;
  GOCCCL_DEVICE uint4 operator()(long long w) const { return s[w]; }
};

/// ... whose source is 4-aligned.
struct Words4
{
  const unsigned int* s;
  GOCCCL_DEVICE uint4 operator()(long long w) const
  {
    const unsigned int* p = s + 4 * w;
    return make_uint4(p[0], p[1], p[2], p[3]);
  }
};

/// ... whose source is at byte `shift` (1..3) of an aligned word of s.
struct WordsShifted
{
  const unsigned int* s;
  unsigned int shift; // in bits: 8, 16 or 24
  GOCCCL_DEVICE uint4 operator()(long long w) const
  {
    const unsigned int* p = s + 4 * w;
    const unsigned int a = p[0], b = p[1], c = p[2], d = p[3], e = p[4];
    return make_uint4(__funnelshift_r(a, b, shift), __funnelshift_r(b, c, shift), __funnelshift_r(c, d, shift),
                      __funnelshift_r(d, e, shift));
  }
};

/// Stores words [0, words) of load to d, thread rank of nthreads taking
/// words rank, rank + nthreads, ...; four loads in flight before their
/// stores.
template <typename Load>
GOCCCL_DEVICE void copy_words(int rank, int nthreads, uint4* d, long long words, Load load)
{
  long long w = rank;
  for (; w + 3LL * nthreads < words; w += 4LL * nthreads)
  {
    const uint4 a = load(w), b = load(w + nthreads), c = load(w + 2LL * nthreads), e = load(w + 3LL * nthreads);
    d[w] = a;
    d[w + nthreads] = b;
    d[w + 2LL * nthreads] = c;
    d[w + 3LL * nthreads] = e;
  }
  for (; w < words; w += nthreads)
  {
    d[w] = load(w);
  }
}

/// Copies len bytes from src to dst with threads rank of nthreads.
GOCCCL_DEVICE void copy_bytes(int rank, int nthreads, unsigned char* dst, const unsigned char* src, long long len)
{
  if (len <= 0)
  {
    return;
  }
  const unsigned long long da = reinterpret_cast<unsigned long long>(dst);
  long long head = static_cast<long long>((16 - (da & 15)) & 15);
  if (head > len)
  {
    head = len;
  }
  for (long long i = rank; i < head; i += nthreads)
  {
    dst[i] = src[i];
  }
  dst += head;
  src += head;
  len -= head;
  const long long words = len >> 4;
  if (words > 0)
  {
    uint4* d = reinterpret_cast<uint4*>(dst);
    const unsigned long long sa = reinterpret_cast<unsigned long long>(src);
    if ((sa & 15) == 0)
    {
      copy_words(rank, nthreads, d, words, Words16{reinterpret_cast<const uint4*>(src)});
    }
    else if ((sa & 3) == 0)
    {
      copy_words(rank, nthreads, d, words, Words4{reinterpret_cast<const unsigned int*>(src)});
    }
    else
    {
      copy_words(rank, nthreads, d, words,
                 WordsShifted{reinterpret_cast<const unsigned int*>(sa & ~3ULL), static_cast<unsigned int>(sa & 3) * 8});
    }
  }
  for (long long i = (words << 4) + rank; i < len; i += nthreads)
  {
    dst[i] = src[i];
  }
}

/// Reads range r: its source and destination byte addresses and length;
/// false when it is empty or does not lie inside its buffers.
template <typename T, typename SrcOffIt, typename DstOffIt, typename SizeIt>
GOCCCL_DEVICE bool batched_range(const T* d_src, long long src_len, T* d_dst, long long dst_len, SrcOffIt d_src_offsets,
                                 DstOffIt d_dst_offsets, SizeIt d_sizes, long long r, const unsigned char** src,
                                 unsigned char** dst, long long* bytes)
{
  const long long size = static_cast<long long>(d_sizes[r]);
  const long long so = static_cast<long long>(d_src_offsets[r]);
  const long long dof = static_cast<long long>(d_dst_offsets[r]);
  if (size <= 0 || so < 0 || dof < 0 || so > src_len - size || dof > dst_len - size)
  {
    return false;
  }
  *src = reinterpret_cast<const unsigned char*>(d_src + so);
  *dst = reinterpret_cast<unsigned char*>(d_dst + dof);
  *bytes = size * static_cast<long long>(sizeof(T));
  return true;
}

} // namespace detail

/**
 * \brief Copies every range of fewer than LARGE_BYTES bytes and queues the
 * others (see the file comment).
 *
 * Warp w of the W in the grid takes ranges w + (32 j + l) W for j = 0, 1,
 * ...: its lanes read the 32 ranges of one j at once (lane l the l-th), copy
 * the tiny ones on their own, queue the large ones, then copy the others one
 * after another with all 32 lanes.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename SrcOffIt, typename DstOffIt, typename SizeIt>
__device__ void batched_copy_small(const T* d_src, long long src_len, T* d_dst, long long dst_len, SrcOffIt d_src_offsets,
                                   DstOffIt d_dst_offsets, SizeIt d_sizes, long long num_ranges, void* d_queue,
                                   long long queue_cap, void* d_head)
{
  static_assert(BLOCK_THREADS % 32 == 0, "gocccl::batched_copy: BLOCK_THREADS must be a multiple of 32");
  static_assert(std::is_trivially_copyable<T>::value, "gocccl::batched_copy: item types must be trivially copyable");
  const int lane = static_cast<int>(threadIdx.x & 31);
  const long long warps = static_cast<long long>(gridDim.x) * (BLOCK_THREADS / 32);
  const long long warp = (static_cast<long long>(blockIdx.x) * BLOCK_THREADS + threadIdx.x) / 32;
  long long* queue = static_cast<long long*>(d_queue);
  for (long long first = warp; first < num_ranges; first += 32 * warps)
  {
    const long long r = first + lane * warps;
    const unsigned char* src = nullptr;
    unsigned char* dst = nullptr;
    long long bytes = 0;
    if (r >= num_ranges
        || !detail::batched_range(d_src, src_len, d_dst, dst_len, d_src_offsets, d_dst_offsets, d_sizes, r, &src, &dst,
                                  &bytes))
    {
      bytes = 0;
    }
    if (bytes > 0 && bytes < detail::BATCHED_COPY_TINY_BYTES)
    {
      for (long long i = 0; i < bytes; ++i)
      {
        dst[i] = src[i];
      }
      bytes = 0;
    }
    if (bytes >= detail::BATCHED_COPY_LARGE_BYTES && queue_cap > 0)
    {
      const unsigned long long slot = atomicAdd(detail::BatchedCopyHead::queued(d_head), 1ULL);
      if (slot < static_cast<unsigned long long>(queue_cap))
      {
        queue[slot] = r;
        bytes = 0; // the large kernel copies it
      }
    }
    unsigned int pending = __ballot_sync(0xffffffffu, bytes > 0);
    while (pending != 0)
    {
      const int j = __ffs(pending) - 1;
      pending &= pending - 1;
      const unsigned long long s = __shfl_sync(0xffffffffu, reinterpret_cast<unsigned long long>(src), j);
      const unsigned long long d = __shfl_sync(0xffffffffu, reinterpret_cast<unsigned long long>(dst), j);
      const long long b = __shfl_sync(0xffffffffu, bytes, j);
      detail::copy_bytes(lane, 32, reinterpret_cast<unsigned char*>(d), reinterpret_cast<const unsigned char*>(s), b);
    }
  }
}

/**
 * \brief Copies the queued ranges with every block of the grid (see the file
 * comment), then zeroes d_head.
 *
 * The queue is read BLOCK_THREADS ranges at a time, thread t the t-th; a
 * block scan of their chunk counts numbers the chunks of all queued ranges
 * in queue order, and chunk g goes to block g mod G.
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename SrcOffIt, typename DstOffIt, typename SizeIt>
__device__ void batched_copy_large(const T* d_src, long long src_len, T* d_dst, long long dst_len, SrcOffIt d_src_offsets,
                                   DstOffIt d_dst_offsets, SizeIt d_sizes, long long num_ranges, void* d_queue,
                                   long long queue_cap, void* d_head)
{
  constexpr long long CHUNK = static_cast<long long>(BLOCK_THREADS) * 16 * 4;
  using BlockScanT = cub::BlockScan<long long, BLOCK_THREADS>;
  __shared__ typename BlockScanT::TempStorage scan;
  __shared__ const unsigned char* s_src[BLOCK_THREADS];
  __shared__ unsigned char* s_dst[BLOCK_THREADS];
  __shared__ long long s_bytes[BLOCK_THREADS];
  __shared__ long long s_start[BLOCK_THREADS]; // the range's first chunk, from the tile's first
  __shared__ long long s_end[BLOCK_THREADS];

  const long long* queue = static_cast<const long long*>(d_queue);
  unsigned long long queued = *static_cast<volatile unsigned long long*>(detail::BatchedCopyHead::queued(d_head));
  if (queued > static_cast<unsigned long long>(queue_cap))
  {
    queued = static_cast<unsigned long long>(queue_cap);
  }
  const long long grid = gridDim.x;
  const long long block = blockIdx.x;
  long long base = 0; // the chunks of the earlier tiles of the queue
  for (long long q0 = 0; q0 < static_cast<long long>(queued); q0 += BLOCK_THREADS)
  {
    const long long q = q0 + threadIdx.x;
    const unsigned char* src = nullptr;
    unsigned char* dst = nullptr;
    long long bytes = 0;
    if (q >= static_cast<long long>(queued)
        || !detail::batched_range(d_src, src_len, d_dst, dst_len, d_src_offsets, d_dst_offsets, d_sizes, queue[q], &src,
                                  &dst, &bytes))
    {
      bytes = 0; // queued ranges are valid: past the queue's end only
    }
    const long long chunks = (bytes + CHUNK - 1) / CHUNK;
    long long start, total;
    BlockScanT(scan).ExclusiveSum(chunks, start, total);
    s_src[threadIdx.x] = src;
    s_dst[threadIdx.x] = dst;
    s_bytes[threadIdx.x] = bytes;
    s_start[threadIdx.x] = start;
    s_end[threadIdx.x] = start + chunks;
    __syncthreads();
    // This block's chunks of the tile: g = base + local, g mod grid == block.
    int j = 0;
    for (long long local = ((block - base) % grid + grid) % grid; local < total; local += grid)
    {
      while (s_end[j] <= local)
      {
        ++j;
      }
      const long long at = (local - s_start[j]) * CHUNK;
      const long long left = s_bytes[j] - at;
      detail::copy_bytes(threadIdx.x, BLOCK_THREADS, s_dst[j] + at, s_src[j] + at, left < CHUNK ? left : CHUNK);
    }
    base += total;
    __syncthreads(); // before the next tile's scan and shared arrays
  }
  // Every block has read the head: the last one to finish zeroes it.
  __syncthreads();
  if (threadIdx.x == 0)
  {
    __threadfence();
    if (atomicAdd(detail::BatchedCopyHead::finished(d_head), 1u) == gridDim.x - 1)
    {
      *detail::BatchedCopyHead::queued(d_head) = 0;
      *detail::BatchedCopyHead::finished(d_head) = 0;
      __threadfence();
    }
  }
}

} // namespace gocccl
