// Package group runs gocccl's algorithms over a group of devices: data
// sharded across them, each shard processed by the same declared instance
// and Go operator as on one device, and the shards' partial results
// exchanged through a communicator.
//
// A Group is an ordered set of devices, one rank each. A Sharded[T] is one
// Slice per rank; Scatter splits host data into nearly equal shards (the
// first n mod g ranks hold one element more), Gather joins them back in
// rank order. The distributed algorithms take the instances a single
// device runs (declared with runtime's constructors, so gocccl-gen
// generates their kernels as usual):
//
//   - Reduce: every rank reduces its shard; the partials are all-gathered
//     and combined in rank order with the instance's own operator on the
//     host (a collective's built-in sum cannot run a Go operator).
//   - InclusiveScan and ExclusiveScan: every rank reduces its shard, the
//     totals are all-gathered, and every rank scans its shard seeded with
//     the combination of the totals of the ranks before it.
//   - HistogramEven: every rank counts its shard; the counts are
//     all-gathered and summed bin by bin.
//   - HistogramRange: as HistogramEven, over bin boundaries every rank
//     uploads.
//   - Select and Partition: every rank compacts (partitions) its shard; the
//     result is sharded as the ranks selected. Rebalance splits any sharded
//     sequence evenly again in one all-to-all exchange.
//   - SortKeys: a sample sort. Every rank sorts its shard and offers
//     evenly spaced samples; all ranks choose the same splitters; one
//     all-to-all exchange sends every key to its rank, which sorts what it
//     received. SortPairs carries the values along, stable over the whole
//     sequence.
//   - ReduceByKey: every rank reduces its shard's runs; the ranks
//     all-gather their first and last runs, and a run a shard boundary cut
//     is completed where it starts and dropped from the ranks it continues
//     on.
//
// For an associative operator over integers the results are bit for bit
// those of one device over the whole input; for floating point they differ
// by rounding only, as a single device's grid does.
//
// A group is formed in one of two ways. New (CPU devices, or GPUs whose
// partials meet on the host) and NewNCCL (GPUs of this process, one NCCL
// communicator each) hold every rank in this process, one goroutine a rank.
// Join holds one rank of a group whose other ranks are other processes' (or
// hosts'): rank 0 makes an ID with NewID and hands it to the others over a
// channel of the launcher's (MPI, Kubernetes, a job scheduler: String and
// ParseID carry it as text); every process joins with its rank, shards its
// own part of the input with ScatterPart, and calls the same algorithms in
// the same order. GPUs join through NCCL (ncclCommInitRank); CPU devices
// meet within one process only, which is how the multi-process form is
// tested without GPUs.
//
// Collectives need every rank: a rank that fails inside an algorithm (its
// device gone, an allocation refused) tells the communicator, and the
// ranks waiting for it fail too instead of waiting for ever. The in-process
// communicator is then ready for the next algorithm; NCCL's communicators
// are aborted, and the group must be made again. Arguments are checked
// before any rank starts, in every process alike: pass every process the
// same instances and shardings.
package group
