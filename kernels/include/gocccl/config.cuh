/*
 * gocccl/config.cuh: what every gocccl kernel header shares.
 *
 *   - GOCCCL_VERSION and the function qualifiers the headers use;
 *   - gocccl::detail helpers for the memory side of a kernel: loads of one
 *     item (optionally through the read-only LDG path), and "chunk" loads/stores that move V consecutive items
 *     of one thread as a single 1/2/4/8/16-byte access. The algorithms choose
 *     the chunk width at compile time (vector_items) and check the pointer
 *     alignment once per block at run time (is_aligned), as CUB's AgentReduce
 *     does with BLOCK_LOAD_VECTORIZE / LOAD_LDG.
 *
 * Only CUDA's own headers are used here, so it compiles unchanged with CUB 1.17
 * (CUDA 11.8) and CCCL 3.x (CUDA 13). Item types must be trivially copyable:
 * items are moved as raw bytes (memcpy) between words and typed registers.
 */
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

/// gocccl header library version: major * 10000 + minor * 100 + patch.
#define GOCCCL_VERSION 100

/// Qualifier of the header library's internal device functions.
#define GOCCCL_DEVICE __device__ __forceinline__

namespace gocccl {
namespace detail {

/// True for the access widths a single load/store instruction moves.
__host__ __device__ constexpr bool is_access_size(int bytes)
{
  return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16;
}

/// word<B>::type: an unsigned type of exactly B bytes that __ldg can load.
template <int BYTES> struct word;
template <> struct word<1>  { using type = unsigned char; };
template <> struct word<2>  { using type = unsigned short; };
template <> struct word<4>  { using type = unsigned int; };
template <> struct word<8>  { using type = uint2; };
template <> struct word<16> { using type = uint4; };

/// Items per chunk for an item of `item_bytes` bytes and a thread that owns
/// `items_per_thread` items: the largest power of two V that divides
/// items_per_thread with V * item_bytes <= 16. Returns 0 when item_bytes is
/// not itself an access size (e.g. a 12-byte struct): such items are never
/// moved in chunks.
__host__ __device__ constexpr int vector_items(int item_bytes, int items_per_thread)
{
  if (!is_access_size(item_bytes)) return 0;
  int v = 16 / item_bytes;
  while (v > 1 && items_per_thread % v != 0) v /= 2;
  return v;
}

/// Whether `p` is aligned to `bytes` (a power of two).
GOCCCL_DEVICE bool is_aligned(const void* p, int bytes)
{
  return (reinterpret_cast<unsigned long long>(p) & static_cast<unsigned long long>(bytes - 1)) == 0;
}

/// Loads one word: through the read-only data path (ld.global.nc, for data
/// that no thread writes during the kernel) when READ_ONLY, else a plain load.
template <bool READ_ONLY, typename W>
GOCCCL_DEVICE W load_word(const W* p)
{
  if constexpr (READ_ONLY)
  {
    return __ldg(p);
  }
  else
  {
    return *p;
  }
}

/// Loads one item, as one access when the type has an access size and
/// natural alignment; otherwise a plain load, which the compiler splits
/// according to the type's alignment. READ_ONLY as for load_word.
template <bool READ_ONLY, typename T>
GOCCCL_DEVICE T load_item(const T* p)
{
  static_assert(std::is_trivially_copyable<T>::value, "gocccl: item types must be trivially copyable");
  if constexpr (is_access_size(int(sizeof(T))) && alignof(T) >= sizeof(T))
  {
    using W = typename word<int(sizeof(T))>::type;
    W w = load_word<READ_ONLY>(reinterpret_cast<const W*>(p));
    T v;
    memcpy(&v, &w, sizeof(T));
    return v;
  }
  else
  {
    return *p;
  }
}

/// Loads V consecutive items from p (aligned to V * sizeof(T)) into
/// items[0..V) with one access. READ_ONLY as for load_word.
template <bool READ_ONLY, int V, typename T>
GOCCCL_DEVICE void load_chunk(const T* p, T* items)
{
  static_assert(is_access_size(V * int(sizeof(T))), "gocccl: chunk must be 1, 2, 4, 8 or 16 bytes");
  using W = typename word<V * int(sizeof(T))>::type;
  W w = load_word<READ_ONLY>(reinterpret_cast<const W*>(p));
  memcpy(items, &w, sizeof(W));
}

/// Stores items[0..V) to p (aligned to V * sizeof(T)) with one access.
template <int V, typename T>
GOCCCL_DEVICE void store_chunk(T* p, const T* items)
{
  static_assert(is_access_size(V * int(sizeof(T))), "gocccl: chunk must be 1, 2, 4, 8 or 16 bytes");
  using W = typename word<V * int(sizeof(T))>::type;
  W w;
  memcpy(&w, items, sizeof(W));
  *reinterpret_cast<W*>(p) = w;
}

} // namespace detail
} // namespace gocccl
