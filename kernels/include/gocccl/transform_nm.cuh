/*
 * gocccl/transform_nm.cuh: element-wise transforms of N inputs to M outputs
 * (the kernel side of runtime.Transform3, Transform4 and Transform1x2 …
 * Transform4x3; cub::DeviceTransform::Transform over a tuple of inputs):
 *
 *   transform<N>x<M>  (d_out1[i], …, d_outM[i]) = op(d_a[i], d_b[i], …)  for i in [0, n)
 *
 * for N in 1..4 inputs and M in 1..3 outputs (1x1 and 2x1 are transform and
 * transform2 of transform.cuh). An operator of one output returns its value;
 * one of several returns the results struct the generator writes for a Go
 * function of several results, fields r0, r1, r2 in order, and each field is
 * stored through its own output pointer or output iterator.
 *
 * Every arity is one engine, detail::transform_nm, with four input and three
 * output slots; the slots an arity leaves out hold detail::NullItem and a
 * null pointer, and are never read or written (if constexpr), so they cost
 * nothing. The entry templates transform1x2 … transform4x3 only name the
 * slots.
 *
 * Launch: gridDim.x = ceil(n / TILE), TILE = BLOCK_THREADS * ITEMS_PER_THREAD,
 * n >= 1 (the host skips the launch for n == 0); block b handles tile b.
 * Access pattern as transform.cuh's: in a full tile with every array a
 * pointer aligned to its chunk, each thread moves chunks of V consecutive
 * items (V the same for every array: the largest power of two dividing
 * ITEMS_PER_THREAD with V * sizeof(X) <= 16 for each item type X), all loads
 * of all inputs before the first op; otherwise, and in the last tile, item i
 * of the tile goes to thread i % BLOCK_THREADS, in groups of at most 16
 * items, with guards. With an iterator of iterator.cuh among the arrays,
 * item i of the tile goes to thread i % BLOCK_THREADS, one item at a time.
 *
 * Loads are plain (not ld.global.nc), so an output may be exactly one of the
 * inputs (each element is read before the same thread writes it); partial
 * overlap is not allowed, and two outputs must not overlap (the host rejects
 * one buffer given twice).
 *
 * Policy: transform.cuh's table, keyed by the largest item size of all the
 * arrays (32 bytes of the widest array in flight per thread).
 *
 * Requirements: item types trivially copyable and default constructible;
 * Op a default-constructible functor with `R operator()(A, B, …) const`
 * (R a struct with fields r0 … r{M-1} for M > 1). Launch with
 * blockDim.x == BLOCK_THREADS. Compiles with CUB 1.17 (CUDA 11.8) and
 * CCCL 3 (CUDA 13): only config.cuh.
 */
#pragma once

#include <gocccl/config.cuh>

#include <initializer_list>
#include <type_traits>

namespace gocccl {
namespace detail {

/// The item type of an input or output slot that an arity leaves out.
struct NullItem
{};

/// The iterators of the slots left out: null pointers, never dereferenced.
GOCCCL_DEVICE const NullItem* no_input() { return nullptr; }
GOCCCL_DEVICE NullItem* no_output() { return nullptr; }

/// Reads item i of input slot K when the arity has it (K < NIN).
template <int K, int NIN, typename It>
GOCCCL_DEVICE auto nm_read(It it, long long i)
{
  if constexpr (K < NIN)
  {
    return it[i];
  }
  else
  {
    return NullItem{};
  }
}

/// Applies op to the first NIN of the four slots' items.
template <int NIN, typename Op, typename A, typename B, typename C, typename D>
GOCCCL_DEVICE auto nm_apply(const Op& op, const A& a, const B& b, const C& c, const D& d)
{
  if constexpr (NIN == 1)
  {
    return op(a);
  }
  else if constexpr (NIN == 2)
  {
    return op(a, b);
  }
  else if constexpr (NIN == 3)
  {
    return op(a, b, c);
  }
  else
  {
    return op(a, b, c, d);
  }
}

/// Result K of an operator with NOUT results: the value itself for one,
/// field rK of the results struct for several.
template <int K, int NOUT, typename Res>
GOCCCL_DEVICE auto nm_result(const Res& r)
{
  if constexpr (NOUT == 1)
  {
    return r;
  }
  else if constexpr (K == 0)
  {
    return r.r0;
  }
  else if constexpr (K == 1)
  {
    return r.r1;
  }
  else
  {
    return r.r2;
  }
}

/// Stores the results of one item through the first NOUT output slots.
template <int NOUT, typename Res, typename O1, typename O2, typename O3>
GOCCCL_DEVICE void nm_store(const Res& r, O1 o1, O2 o2, O3 o3, long long i)
{
  o1[i] = nm_result<0, NOUT>(r);
  if constexpr (NOUT > 1)
  {
    o2[i] = nm_result<1, NOUT>(r);
  }
  if constexpr (NOUT > 2)
  {
    o3[i] = nm_result<2, NOUT>(r);
  }
}

/// Items per chunk shared by all arrays of an N×M transform (0 or 1: no
/// chunking).
template <int ITEMS_PER_THREAD, typename... Ts>
__host__ __device__ constexpr int transform_nm_vector_items()
{
  int v = 16;
  for (int x : {vector_items(int(sizeof(Ts)), ITEMS_PER_THREAD)...})
  {
    v = x < v ? x : v;
  }
  return v;
}

/// N×M transform of one full tile, chunked: thread tid moves chunks
/// c = j * BLOCK_THREADS + tid of VEC items of every array. Pointers are
/// offset to the tile and aligned to their chunk.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, int VEC, int NIN, int NOUT, typename A, typename B, typename C,
          typename D, typename R1, typename R2, typename R3, typename Op>
GOCCCL_DEVICE void transform_nm_tile_chunked(
  const A* a, const B* b, const C* c, const D* d, R1* o1, R2* o2, R3* o3, const Op& op)
{
  const int first = threadIdx.x * VEC;
  A a_items[ITEMS_PER_THREAD];
  B b_items[ITEMS_PER_THREAD];
  C c_items[ITEMS_PER_THREAD];
  D d_items[ITEMS_PER_THREAD];
#pragma unroll
  for (int j = 0; j < ITEMS_PER_THREAD / VEC; ++j)
  {
    const int at = first + j * BLOCK_THREADS * VEC;
    load_chunk<false, VEC>(a + at, a_items + j * VEC);
    if constexpr (NIN > 1)
    {
      load_chunk<false, VEC>(b + at, b_items + j * VEC);
    }
    if constexpr (NIN > 2)
    {
      load_chunk<false, VEC>(c + at, c_items + j * VEC);
    }
    if constexpr (NIN > 3)
    {
      load_chunk<false, VEC>(d + at, d_items + j * VEC);
    }
  }
#pragma unroll
  for (int j = 0; j < ITEMS_PER_THREAD / VEC; ++j)
  {
    R1 r1[VEC];
    R2 r2[VEC];
    R3 r3[VEC];
#pragma unroll
    for (int k = 0; k < VEC; ++k)
    {
      const int x = j * VEC + k;
      const auto r = nm_apply<NIN>(op, a_items[x], b_items[x], c_items[x], d_items[x]);
      r1[k] = nm_result<0, NOUT>(r);
      if constexpr (NOUT > 1)
      {
        r2[k] = nm_result<1, NOUT>(r);
      }
      if constexpr (NOUT > 2)
      {
        r3[k] = nm_result<2, NOUT>(r);
      }
    }
    const int at = first + j * BLOCK_THREADS * VEC;
    store_chunk<VEC>(o1 + at, r1);
    if constexpr (NOUT > 1)
    {
      store_chunk<VEC>(o2 + at, r2);
    }
    if constexpr (NOUT > 2)
    {
      store_chunk<VEC>(o3 + at, r3);
    }
  }
}

/// N×M transform of one tile, one item per access: item i of the tile
/// belongs to thread i % BLOCK_THREADS. Only the first valid_items items are
/// touched (FULL skips the guards). Pointers are offset to the tile.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, bool FULL, int NIN, int NOUT, typename A, typename B, typename C,
          typename D, typename R1, typename R2, typename R3, typename Op>
GOCCCL_DEVICE void transform_nm_tile_striped(
  const A* a, const B* b, const C* c, const D* d, R1* o1, R2* o2, R3* o3, int valid_items, const Op& op)
{
  // At most 16 items of each input in registers at once.
  constexpr int GROUP = ITEMS_PER_THREAD < 16 ? ITEMS_PER_THREAD : 16;
  const int t = threadIdx.x;
  const int valid = valid_items - t; // item i valid iff i * BLOCK_THREADS < valid
#pragma unroll
  for (int g = 0; g < ITEMS_PER_THREAD; g += GROUP)
  {
    A a_items[GROUP];
    B b_items[GROUP];
    C c_items[GROUP];
    D d_items[GROUP];
#pragma unroll
    for (int k = 0; k < GROUP; ++k)
    {
      const int i = g + k;
      if (i < ITEMS_PER_THREAD && (FULL || i * BLOCK_THREADS < valid))
      {
        const int at = t + i * BLOCK_THREADS;
        a_items[k] = load_item<false>(a + at);
        if constexpr (NIN > 1)
        {
          b_items[k] = load_item<false>(b + at);
        }
        if constexpr (NIN > 2)
        {
          c_items[k] = load_item<false>(c + at);
        }
        if constexpr (NIN > 3)
        {
          d_items[k] = load_item<false>(d + at);
        }
      }
    }
#pragma unroll
    for (int k = 0; k < GROUP; ++k)
    {
      const int i = g + k;
      if (i < ITEMS_PER_THREAD && (FULL || i * BLOCK_THREADS < valid))
      {
        nm_store<NOUT>(nm_apply<NIN>(op, a_items[k], b_items[k], c_items[k], d_items[k]), o1, o2, o3,
                       t + i * BLOCK_THREADS);
      }
    }
  }
}

/// The engine of every arity: NIN of the input slots a … d and NOUT of the
/// output slots o1 … o3 are used, the others hold NullItem.
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, int NIN, int NOUT, typename A, typename B, typename C, typename D,
          typename R1, typename R2, typename R3, typename Op, typename AIt, typename BIt, typename CIt, typename DIt,
          typename O1It, typename O2It, typename O3It>
GOCCCL_DEVICE void transform_nm(AIt d_a, BIt d_b, CIt d_c, DIt d_d, O1It d_o1, O2It d_o2, O3It d_o3, long long n)
{
  static_assert(BLOCK_THREADS > 0 && BLOCK_THREADS % 32 == 0 && BLOCK_THREADS <= 1024,
                "gocccl::transform_nm: BLOCK_THREADS must be a multiple of 32 in [32, 1024]");
  static_assert(ITEMS_PER_THREAD > 0, "gocccl::transform_nm: ITEMS_PER_THREAD must be positive");
  static_assert(NIN >= 1 && NIN <= 4 && NOUT >= 1 && NOUT <= 3, "gocccl::transform_nm: 1 to 4 inputs, 1 to 3 outputs");
  constexpr int TILE_ITEMS = BLOCK_THREADS * ITEMS_PER_THREAD;
  const long long tile_offset = static_cast<long long>(blockIdx.x) * TILE_ITEMS;
  if (tile_offset >= n)
  {
    return;
  }
  Op op;
  if constexpr (!std::is_pointer<AIt>::value || !std::is_pointer<BIt>::value || !std::is_pointer<CIt>::value
                || !std::is_pointer<DIt>::value || !std::is_pointer<O1It>::value || !std::is_pointer<O2It>::value
                || !std::is_pointer<O3It>::value)
  {
    // Iterators (iterator.cuh): item i of the tile on thread i % BLOCK_THREADS.
    const long long first = tile_offset + threadIdx.x;
#pragma unroll
    for (int k = 0; k < ITEMS_PER_THREAD; ++k)
    {
      const long long i = first + static_cast<long long>(k) * BLOCK_THREADS;
      if (i < n)
      {
        nm_store<NOUT>(nm_apply<NIN>(op, nm_read<0, NIN>(d_a, i), nm_read<1, NIN>(d_b, i), nm_read<2, NIN>(d_c, i),
                                     nm_read<3, NIN>(d_d, i)),
                       d_o1, d_o2, d_o3, i);
      }
    }
  }
  else
  {
    static_assert(std::is_trivially_copyable<A>::value && std::is_trivially_copyable<B>::value
                    && std::is_trivially_copyable<C>::value && std::is_trivially_copyable<D>::value
                    && std::is_trivially_copyable<R1>::value && std::is_trivially_copyable<R2>::value
                    && std::is_trivially_copyable<R3>::value,
                  "gocccl::transform_nm: item types must be trivially copyable");
    // NullItem (1 byte) never limits V below what the used arrays allow.
    constexpr int VEC = transform_nm_vector_items<ITEMS_PER_THREAD, A, B, C, D, R1, R2, R3>();
    const A* a = d_a + tile_offset;
    const B* b = d_b + (NIN > 1 ? tile_offset : 0);
    const C* c = d_c + (NIN > 2 ? tile_offset : 0);
    const D* d = d_d + (NIN > 3 ? tile_offset : 0);
    R1* o1 = d_o1 + tile_offset;
    R2* o2 = d_o2 + (NOUT > 1 ? tile_offset : 0);
    R3* o3 = d_o3 + (NOUT > 2 ? tile_offset : 0);
    if (n - tile_offset >= TILE_ITEMS)
    {
      if constexpr (VEC > 1)
      {
        if (is_aligned(d_a, VEC * int(sizeof(A))) && is_aligned(d_b, VEC * int(sizeof(B)))
            && is_aligned(d_c, VEC * int(sizeof(C))) && is_aligned(d_d, VEC * int(sizeof(D)))
            && is_aligned(d_o1, VEC * int(sizeof(R1))) && is_aligned(d_o2, VEC * int(sizeof(R2)))
            && is_aligned(d_o3, VEC * int(sizeof(R3))))
        {
          transform_nm_tile_chunked<BLOCK_THREADS, ITEMS_PER_THREAD, VEC, NIN, NOUT>(a, b, c, d, o1, o2, o3, op);
          return;
        }
      }
      transform_nm_tile_striped<BLOCK_THREADS, ITEMS_PER_THREAD, true, NIN, NOUT>(
        a, b, c, d, o1, o2, o3, TILE_ITEMS, op);
    }
    else
    {
      transform_nm_tile_striped<BLOCK_THREADS, ITEMS_PER_THREAD, false, NIN, NOUT>(
        a, b, c, d, o1, o2, o3, static_cast<int>(n - tile_offset), op);
    }
  }
}

} // namespace detail

/**
 * \brief (d_out1[i], d_out2[i]) = op(d_a[i]) for i in [0, n).
 *
 * \tparam A, R1, R2  item types of the inputs and outputs
 * \tparam Op  `Results operator()(A) const` with fields r0 … r1 of types R1, R2
 * \param d_a  inputs, n items each: pointers or iterators of iterator.cuh
 * \param d_out1, d_out2  outputs, n items: pointers or output iterators
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename A, typename R1, typename R2, typename Op,
          typename AIt, typename R1It, typename R2It>
__device__ void transform1x2(AIt d_a, R1It d_out1, R2It d_out2, long long n)
{
  detail::transform_nm<BLOCK_THREADS, ITEMS_PER_THREAD, 1, 2, A, detail::NullItem, detail::NullItem, detail::NullItem, R1, R2, detail::NullItem, Op>(
    d_a, detail::no_input(), detail::no_input(), detail::no_input(), d_out1, d_out2, detail::no_output(), n);
}

/**
 * \brief (d_out1[i], d_out2[i], d_out3[i]) = op(d_a[i]) for i in [0, n).
 *
 * \tparam A, R1, R2, R3  item types of the inputs and outputs
 * \tparam Op  `Results operator()(A) const` with fields r0 … r2 of types R1, R2, R3
 * \param d_a  inputs, n items each: pointers or iterators of iterator.cuh
 * \param d_out1, d_out2, d_out3  outputs, n items: pointers or output iterators
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename A, typename R1, typename R2, typename R3, typename Op,
          typename AIt, typename R1It, typename R2It, typename R3It>
__device__ void transform1x3(AIt d_a, R1It d_out1, R2It d_out2, R3It d_out3, long long n)
{
  detail::transform_nm<BLOCK_THREADS, ITEMS_PER_THREAD, 1, 3, A, detail::NullItem, detail::NullItem, detail::NullItem, R1, R2, R3, Op>(
    d_a, detail::no_input(), detail::no_input(), detail::no_input(), d_out1, d_out2, d_out3, n);
}

/**
 * \brief (d_out1[i], d_out2[i]) = op(d_a[i], d_b[i]) for i in [0, n).
 *
 * \tparam A, B, R1, R2  item types of the inputs and outputs
 * \tparam Op  `Results operator()(A, B) const` with fields r0 … r1 of types R1, R2
 * \param d_a, d_b  inputs, n items each: pointers or iterators of iterator.cuh
 * \param d_out1, d_out2  outputs, n items: pointers or output iterators
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename A, typename B, typename R1, typename R2, typename Op,
          typename AIt, typename BIt, typename R1It, typename R2It>
__device__ void transform2x2(AIt d_a, BIt d_b, R1It d_out1, R2It d_out2, long long n)
{
  detail::transform_nm<BLOCK_THREADS, ITEMS_PER_THREAD, 2, 2, A, B, detail::NullItem, detail::NullItem, R1, R2, detail::NullItem, Op>(
    d_a, d_b, detail::no_input(), detail::no_input(), d_out1, d_out2, detail::no_output(), n);
}

/**
 * \brief (d_out1[i], d_out2[i], d_out3[i]) = op(d_a[i], d_b[i]) for i in [0, n).
 *
 * \tparam A, B, R1, R2, R3  item types of the inputs and outputs
 * \tparam Op  `Results operator()(A, B) const` with fields r0 … r2 of types R1, R2, R3
 * \param d_a, d_b  inputs, n items each: pointers or iterators of iterator.cuh
 * \param d_out1, d_out2, d_out3  outputs, n items: pointers or output iterators
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename A, typename B, typename R1, typename R2, typename R3, typename Op,
          typename AIt, typename BIt, typename R1It, typename R2It, typename R3It>
__device__ void transform2x3(AIt d_a, BIt d_b, R1It d_out1, R2It d_out2, R3It d_out3, long long n)
{
  detail::transform_nm<BLOCK_THREADS, ITEMS_PER_THREAD, 2, 3, A, B, detail::NullItem, detail::NullItem, R1, R2, R3, Op>(
    d_a, d_b, detail::no_input(), detail::no_input(), d_out1, d_out2, d_out3, n);
}

/**
 * \brief d_out[i] = op(d_a[i], d_b[i], d_c[i]) for i in [0, n).
 *
 * \tparam A, B, C, R  item types of the inputs and outputs
 * \tparam Op  `R operator()(A, B, C) const`
 * \param d_a, d_b, d_c  inputs, n items each: pointers or iterators of iterator.cuh
 * \param d_out  output, n items: pointers or output iterators
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename A, typename B, typename C, typename R, typename Op,
          typename AIt, typename BIt, typename CIt, typename RIt>
__device__ void transform3x1(AIt d_a, BIt d_b, CIt d_c, RIt d_out, long long n)
{
  detail::transform_nm<BLOCK_THREADS, ITEMS_PER_THREAD, 3, 1, A, B, C, detail::NullItem, R, detail::NullItem, detail::NullItem, Op>(
    d_a, d_b, d_c, detail::no_input(), d_out, detail::no_output(), detail::no_output(), n);
}

/**
 * \brief (d_out1[i], d_out2[i]) = op(d_a[i], d_b[i], d_c[i]) for i in [0, n).
 *
 * \tparam A, B, C, R1, R2  item types of the inputs and outputs
 * \tparam Op  `Results operator()(A, B, C) const` with fields r0 … r1 of types R1, R2
 * \param d_a, d_b, d_c  inputs, n items each: pointers or iterators of iterator.cuh
 * \param d_out1, d_out2  outputs, n items: pointers or output iterators
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename A, typename B, typename C, typename R1, typename R2, typename Op,
          typename AIt, typename BIt, typename CIt, typename R1It, typename R2It>
__device__ void transform3x2(AIt d_a, BIt d_b, CIt d_c, R1It d_out1, R2It d_out2, long long n)
{
  detail::transform_nm<BLOCK_THREADS, ITEMS_PER_THREAD, 3, 2, A, B, C, detail::NullItem, R1, R2, detail::NullItem, Op>(
    d_a, d_b, d_c, detail::no_input(), d_out1, d_out2, detail::no_output(), n);
}

/**
 * \brief (d_out1[i], d_out2[i], d_out3[i]) = op(d_a[i], d_b[i], d_c[i]) for i in [0, n).
 *
 * \tparam A, B, C, R1, R2, R3  item types of the inputs and outputs
 * \tparam Op  `Results operator()(A, B, C) const` with fields r0 … r2 of types R1, R2, R3
 * \param d_a, d_b, d_c  inputs, n items each: pointers or iterators of iterator.cuh
 * \param d_out1, d_out2, d_out3  outputs, n items: pointers or output iterators
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename A, typename B, typename C, typename R1, typename R2, typename R3, typename Op,
          typename AIt, typename BIt, typename CIt, typename R1It, typename R2It, typename R3It>
__device__ void transform3x3(AIt d_a, BIt d_b, CIt d_c, R1It d_out1, R2It d_out2, R3It d_out3, long long n)
{
  detail::transform_nm<BLOCK_THREADS, ITEMS_PER_THREAD, 3, 3, A, B, C, detail::NullItem, R1, R2, R3, Op>(
    d_a, d_b, d_c, detail::no_input(), d_out1, d_out2, d_out3, n);
}

/**
 * \brief d_out[i] = op(d_a[i], d_b[i], d_c[i], d_d[i]) for i in [0, n).
 *
 * \tparam A, B, C, D, R  item types of the inputs and outputs
 * \tparam Op  `R operator()(A, B, C, D) const`
 * \param d_a, d_b, d_c, d_d  inputs, n items each: pointers or iterators of iterator.cuh
 * \param d_out  output, n items: pointers or output iterators
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename A, typename B, typename C, typename D, typename R, typename Op,
          typename AIt, typename BIt, typename CIt, typename DIt, typename RIt>
__device__ void transform4x1(AIt d_a, BIt d_b, CIt d_c, DIt d_d, RIt d_out, long long n)
{
  detail::transform_nm<BLOCK_THREADS, ITEMS_PER_THREAD, 4, 1, A, B, C, D, R, detail::NullItem, detail::NullItem, Op>(
    d_a, d_b, d_c, d_d, d_out, detail::no_output(), detail::no_output(), n);
}

/**
 * \brief (d_out1[i], d_out2[i]) = op(d_a[i], d_b[i], d_c[i], d_d[i]) for i in [0, n).
 *
 * \tparam A, B, C, D, R1, R2  item types of the inputs and outputs
 * \tparam Op  `Results operator()(A, B, C, D) const` with fields r0 … r1 of types R1, R2
 * \param d_a, d_b, d_c, d_d  inputs, n items each: pointers or iterators of iterator.cuh
 * \param d_out1, d_out2  outputs, n items: pointers or output iterators
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename A, typename B, typename C, typename D, typename R1, typename R2, typename Op,
          typename AIt, typename BIt, typename CIt, typename DIt, typename R1It, typename R2It>
__device__ void transform4x2(AIt d_a, BIt d_b, CIt d_c, DIt d_d, R1It d_out1, R2It d_out2, long long n)
{
  detail::transform_nm<BLOCK_THREADS, ITEMS_PER_THREAD, 4, 2, A, B, C, D, R1, R2, detail::NullItem, Op>(
    d_a, d_b, d_c, d_d, d_out1, d_out2, detail::no_output(), n);
}

/**
 * \brief (d_out1[i], d_out2[i], d_out3[i]) = op(d_a[i], d_b[i], d_c[i], d_d[i]) for i in [0, n).
 *
 * \tparam A, B, C, D, R1, R2, R3  item types of the inputs and outputs
 * \tparam Op  `Results operator()(A, B, C, D) const` with fields r0 … r2 of types R1, R2, R3
 * \param d_a, d_b, d_c, d_d  inputs, n items each: pointers or iterators of iterator.cuh
 * \param d_out1, d_out2, d_out3  outputs, n items: pointers or output iterators
 */
template <int BLOCK_THREADS, int ITEMS_PER_THREAD, typename A, typename B, typename C, typename D, typename R1, typename R2, typename R3, typename Op,
          typename AIt, typename BIt, typename CIt, typename DIt, typename R1It, typename R2It, typename R3It>
__device__ void transform4x3(AIt d_a, BIt d_b, CIt d_c, DIt d_d, R1It d_out1, R2It d_out2, R3It d_out3, long long n)
{
  detail::transform_nm<BLOCK_THREADS, ITEMS_PER_THREAD, 4, 3, A, B, C, D, R1, R2, R3, Op>(
    d_a, d_b, d_c, d_d, d_out1, d_out2, d_out3, n);
}

} // namespace gocccl
