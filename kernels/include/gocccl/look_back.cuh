/*
 * gocccl/look_back.cuh: how a block of a decoupled look-back waits for the
 * tile states of the blocks before it (CUB's delay constructors).
 *
 * A block that looks back first waits L2_WRITE_LATENCY ns, about the time
 * its predecessors need to publish, and then, each time it finds a
 * predecessor's state not yet ready, waits again before it reads it once
 * more (DELAY ns for FixedDelay, not at all for NoDelay). Waiting less
 * means more reads of the same few cache lines in L2 by every block of the
 * grid at once; waiting more leaves a ready prefix unread. CUB tunes the
 * pair per algorithm, element size and architecture (CCCL's tuning_*.cuh,
 * sm90_tuning); gocccl's tuning tables in internal/algo record the same
 * values, and gocccl-gen passes them to the kernel templates as a tag type:
 *
 *   DefaultDelay                   CUB's default for the scan value
 *                                  (cub::detail::default_delay_constructor_t)
 *   FixedDelay<DELAY, L2_LATENCY>  cub::detail::fixed_delay_constructor_t
 *   NoDelay<L2_LATENCY>            cub::detail::no_delay_constructor_t
 *
 * A kernel template takes the tag as its last, defaulted argument
 * (`..., FixedDelay<648, 1245>()`): callers that pass none get DefaultDelay.
 * With CUB older than 2.2 (CUDA 11.8's CUB 1.17 has no delay constructors)
 * every tag is CUB's only behaviour.
 */
#pragma once

#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/version.cuh>

#if CUB_VERSION >= 200200
#define GOCCCL_HAS_DELAY_CONSTRUCTORS 1
#else
#define GOCCCL_HAS_DELAY_CONSTRUCTORS 0
#endif

namespace gocccl {

/// DefaultDelay waits as CUB does by default for a scan value of type S.
struct DefaultDelay
{
#if GOCCCL_HAS_DELAY_CONSTRUCTORS
  template <typename S>
  using constructor = cub::detail::default_delay_constructor_t<S>;
#endif
};

/// FixedDelay waits L2_WRITE_LATENCY ns before the first look back and
/// DELAY ns before each read of a predecessor's state that was not ready.
template <unsigned DELAY, unsigned L2_WRITE_LATENCY>
struct FixedDelay
{
#if GOCCCL_HAS_DELAY_CONSTRUCTORS
  template <typename S>
  using constructor = cub::detail::fixed_delay_constructor_t<DELAY, L2_WRITE_LATENCY>;
#endif
};

/// NoDelay waits L2_WRITE_LATENCY ns before the first look back, then
/// reads a predecessor's state again at once until it is ready.
template <unsigned L2_WRITE_LATENCY>
struct NoDelay
{
#if GOCCCL_HAS_DELAY_CONSTRUCTORS
  template <typename S>
  using constructor = cub::detail::no_delay_constructor_t<L2_WRITE_LATENCY>;
#endif
};

namespace detail {

/// TilePrefix is cub::TilePrefixCallbackOp over scan values S with the
/// waits of Delay (one of the tags above).
#if GOCCCL_HAS_DELAY_CONSTRUCTORS
template <typename S, typename ScanOp, typename TileState, typename Delay>
using TilePrefix = cub::TilePrefixCallbackOp<S, ScanOp, TileState, typename Delay::template constructor<S>>;
#else
template <typename S, typename ScanOp, typename TileState, typename Delay>
using TilePrefix = cub::TilePrefixCallbackOp<S, ScanOp, TileState>;
#endif

} // namespace detail
} // namespace gocccl
