/*
 * gocccl/gpu_nan.cuh: folding a float operator over a tile with the GPU's
 * NaNs first, and with Go's again only when a NaN came out.
 *
 * Go's float + - * / return amd64's NaN payloads; gosem.cuh's fadd, fsub,
 * fmul and fquo reproduce them with a compare and a rarely taken branch per
 * operation. In a kernel that applies the operator many times per item
 * (CUB's unrolled warp scans, `if (lane >= offset) x = op(y, x)`) that
 * branch keeps ptxas from if-converting the operator: a float32 scan through
 * Go ran 8-26% behind the same kernel with a plain + (bench/NOTES.md,
 * 2026-12-02).
 *
 * gocccl-gen gives the functor of a float operator that never reads a NaN's
 * bits (no math.Float32bits, Float64bits, Signbit or Copysign, itself or in
 * an operator it calls) a member type gpu_nan: the operator with the GPU's
 * float arithmetic. The two return the same value wherever the operator
 * returns a number, and a NaN (perhaps with another payload) wherever it
 * returns a NaN; a NaN taken in as an operand behaves the same whatever its
 * payload, since only its bits could tell. By induction the same holds for
 * any computation made of the operator and of choices on its results (a
 * scan, a reduction): a block may compute its tile with gpu_nan, keep what it
 * got when no result is a NaN, and compute the tile again with the operator
 * itself when one is. The results are then the operator's, bit for bit.
 *
 *   GpuNan<Op, T>::value  whether Op has a twin and T is float or double
 *                         (the kernels test results of type T for NaNs)
 *   GpuNan<Op, T>::type   the twin, or Op itself
 *   is_nan(x)             x is a float or double NaN (false for other T;
 *                         a by-key scan's (flag, value) pair: its value)
 *   GuardedPrefix         the look-back of a tile scanned with a twin: it
 *                         publishes only the operator's values
 *   KnownPrefix           the prefix again, for the tile's second scan
 */
#pragma once

#include <gocccl/config.cuh>

#include <cub/util_type.cuh>

#include <type_traits>

namespace gocccl {
namespace detail {

template <typename...>
using void_t = void;

/// GpuNan<Op, T> is Op's twin with the GPU's NaNs, when it has one.
template <typename Op, typename T, typename = void>
struct GpuNan
{
  static constexpr bool value = false;
  using type                  = Op;
};

template <typename Op, typename T>
struct GpuNan<Op, T, void_t<typename Op::gpu_nan>>
{
  static constexpr bool value = std::is_same<T, float>::value || std::is_same<T, double>::value;
  using type                  = typename std::conditional<value, typename Op::gpu_nan, Op>::type;
};

/// is_nan reports whether x is a NaN; false for types other than float and
/// double. The kernels are compiled without fast-math, so x != x stays.
template <typename T>
GOCCCL_DEVICE bool is_nan(const T& x)
{
  if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value)
  {
    return x != x;
  }
  else
  {
    return false;
  }
}

/// any_nan reports whether one of a thread's N items is a NaN.
template <typename T, int N>
GOCCCL_DEVICE bool any_nan(const T (&items)[N])
{
  bool nan = false;
#pragma unroll
  for (int i = 0; i < N; ++i)
  {
    nan |= is_nan(items[i]);
  }
  return nan;
}

/// is_nan of a (flag, value) pair of the by-key scans tests its value.
template <typename K, typename V>
GOCCCL_DEVICE bool is_nan(const cub::KeyValuePair<K, V>& p)
{
  return is_nan(p.value);
}

/// What the look-back of a tile scanned with a twin leaves for the tile's
/// second scan (GuardedPrefix), in shared memory.
/// Trivial (raw bytes for the prefix), so that it may sit in a kernel's
/// shared-memory union.
template <typename S>
struct Stash
{
  alignas(S) unsigned char prefix_bytes[sizeof(S)]; // the tile's exclusive prefix, when it looked back
  bool nan_aggregate;                                // the twin's aggregate was a NaN: nothing published

  GOCCCL_DEVICE S& prefix() { return *reinterpret_cast<S*>(prefix_bytes); }
};

/// GuardedPrefix is the block-prefix callback of a tile scanned with a
/// twin, called by warp 0 with the twin's aggregate. A number is the
/// operator's aggregate too: it runs LookBack (a cub::TilePrefixCallbackOp
/// over the operator itself, which publishes) and stashes the prefix. A NaN
/// may carry another payload than the operator's: it publishes nothing and
/// marks the tile, whose second scan then looks back itself.
template <typename LookBack, typename S>
struct GuardedPrefix
{
  LookBack& look_back;
  Stash<S>& stash;

  GOCCCL_DEVICE S operator()(S aggregate)
  {
    if (is_nan(aggregate)) // the same in every lane of warp 0
    {
      if (threadIdx.x == 0)
      {
        stash.nan_aggregate = true;
      }
      return aggregate;
    }
    const S prefix = look_back(aggregate);
    if (threadIdx.x == 0)
    {
      stash.prefix()      = prefix; // valid in lane 0
      stash.nan_aggregate = false;
    }
    return prefix;
  }
};

/// KnownPrefix gives a tile's second scan the prefix its first one looked
/// up.
template <typename S>
struct KnownPrefix
{
  S prefix;

  GOCCCL_DEVICE S operator()(S)
  {
    return prefix;
  }
};

} // namespace detail
} // namespace gocccl
