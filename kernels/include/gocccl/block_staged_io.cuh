/*
 * gocccl/block_staged_io.cuh: a block's partial (last) tile moved between
 * global memory and a thread's blocked items through shared memory, in
 * rolled loops.
 *
 * cub::BlockLoad / BlockStore with a guard (valid_items) unroll the guarded
 * accesses: each of a thread's items keeps its own index or predicate live
 * through the access, 14 registers of indices at 14 items a thread, which
 * sets the peak of the whole kernel when the last tile's path is its
 * heaviest (bench/NOTES.md, 2026-12-04, sixth session: the by-key sweeps'
 * partial tile peaks 8 registers above their full tiles). Here:
 *
 *   load_staged   the block reads the tile striped (thread t: items t,
 *                 t + BLOCK_THREADS, ...) in a loop that is not unrolled,
 *                 the slots at and past valid_items filled with fill, into
 *                 shared memory; after a barrier each thread copies its
 *                 ITEMS_PER_THREAD consecutive items (blocked order) out.
 *                 The registers equal cub::BlockLoad's Load(in, items,
 *                 valid_items, fill) (any of its algorithms).
 *   store_staged  each thread writes its items into shared memory in
 *                 blocked order; after a barrier the block writes the
 *                 first valid_items of them to global memory striped, in a
 *                 loop that is not unrolled: as BlockStore's Store(out,
 *                 items, valid_items).
 *
 * Each uses its StagedTile storage as BlockLoad / BlockStore use their
 * TempStorage: the caller puts a barrier between a staged load or store and
 * any other use of the same shared memory (before and after), as with
 * cub's block primitives. StagedTile<T, N> is N items, no more than
 * BLOCK_LOAD_WARP_TRANSPOSE's exchange of the same tile (which pads).
 * Only for the partial tile: full tiles keep CUB's vectorized, transposed
 * accesses; the rolled loops' trip count is valid_items / BLOCK_THREADS.
 *
 * Plain C++ and shared memory: compiles with CUB 1.17 and CCCL 3 alike.
 * Used by scan_by_key.cuh under GOCCCL_EXPERIMENT_BYKEY_FOLD (issue 38).
 */
#pragma once

#include <gocccl/config.cuh>

namespace gocccl {
namespace detail {

/// StagedTile is shared memory for N items of T (uninitialized bytes, so
/// that it can sit in a union with CUB's TempStorage types).
template <typename T, int N>
struct StagedTile
{
  alignas(T) unsigned char bytes[sizeof(T) * N];
  GOCCCL_DEVICE T* items() { return reinterpret_cast<T*>(bytes); }
};

/// Loads a partial tile: items[i] = in[threadIdx.x * ITEMS_PER_THREAD + i]
/// where that index is below valid_items, else fill. Ends after a barrier
/// and the copy out of shared memory (the caller's barrier must follow
/// before temp is used again).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename InputIt>
GOCCCL_DEVICE void load_staged(StagedTile<T, BLOCK_THREADS * ITEMS_PER_THREAD>& temp, InputIt in,
                               T (&items)[ITEMS_PER_THREAD], int valid_items, const T& fill)
{
  constexpr int TILE = BLOCK_THREADS * ITEMS_PER_THREAD;
  T* tile            = temp.items();
#pragma unroll 1
  for (int i = static_cast<int>(threadIdx.x); i < TILE; i += BLOCK_THREADS)
  {
    tile[i] = i < valid_items ? static_cast<T>(*(in + i)) : fill;
  }
  __syncthreads();
  const int first = static_cast<int>(threadIdx.x) * ITEMS_PER_THREAD;
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    items[i] = tile[first + i];
  }
}

/// Stores a partial tile: out[threadIdx.x * ITEMS_PER_THREAD + i] =
/// items[i] where that index is below valid_items. The caller's barrier
/// must come before (temp's last use) and after (temp's next use).
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename T, typename OutputIt>
GOCCCL_DEVICE void store_staged(StagedTile<T, BLOCK_THREADS * ITEMS_PER_THREAD>& temp, OutputIt out,
                                const T (&items)[ITEMS_PER_THREAD], int valid_items)
{
  T* tile         = temp.items();
  const int first = static_cast<int>(threadIdx.x) * ITEMS_PER_THREAD;
#pragma unroll
  for (int i = 0; i < ITEMS_PER_THREAD; ++i)
  {
    tile[first + i] = items[i];
  }
  __syncthreads();
#pragma unroll 1
  for (int i = static_cast<int>(threadIdx.x); i < valid_items; i += BLOCK_THREADS)
  {
    *(out + i) = tile[i];
  }
}

} // namespace detail
} // namespace gocccl
