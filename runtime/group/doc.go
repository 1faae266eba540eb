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
//   - Select: every rank compacts its shard; the result is sharded as the
//     ranks selected (no rebalancing yet).
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
// The communicator is an interface: in this version an in-process one,
// which moves bytes between the ranks' host copies of their partials, so
// that every algorithm runs on a group of CPU devices and is tested in CI
// against the single-device result. NCCL's (collectives over NVLink or
// PCIe between GPUs, loaded at run time as the driver is) is the next
// implementation of the same interface; docs/MULTIGPU.md has the plan.
package group
