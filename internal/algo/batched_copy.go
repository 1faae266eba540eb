package algo

import "github.com/gocccl/gocccl/internal/arch"

// batchedCopyParams are the parameters of both BatchedCopy kernels: the
// source and destination buffers (pointers, with their lengths in items, so
// that a range outside them is skipped, never copied), the ranges' source
// offsets, destination offsets and sizes in items (through iterators or
// not), their count, and the queue of large ranges in scratch (its capacity
// in entries, and its 16-byte head: the queue's length and a counter of
// finished blocks, zero between calls).
var batchedCopyParams = []Param{
	{Name: "d_src", Kind: In, Type: "T", Fixed: true}, {Name: "src_len", Kind: Size},
	{Name: "d_dst", Kind: Out, Type: "T", Fixed: true}, {Name: "dst_len", Kind: Size},
	{Name: "d_src_offsets", Kind: In, Type: "int64"}, {Name: "d_dst_offsets", Kind: In, Type: "int64"},
	{Name: "d_sizes", Kind: In, Type: "int64"}, {Name: "num_ranges", Kind: Size},
	{Name: "d_queue", Kind: Scratch}, {Name: "queue_cap", Kind: Size}, {Name: "d_head", Kind: Scratch},
}

// BatchedCopy is runtime.BatchedCopy[T](): many ranges of items copied in
// one call, dst[dst_offsets[r] : dst_offsets[r]+sizes[r]] =
// src[src_offsets[r] : src_offsets[r]+sizes[r]] for every range r
// (cub::DeviceMemcpy::Batched / DeviceCopy::Batched over sub-ranges of two
// buffers; kernels/include/gocccl/batched_copy.cuh). Two launches: in "small"
// a warp reads 32 ranges at once, one a lane, copies the tiny ones lane by
// lane, queues the large ones and copies the others with all its lanes, one
// after another; "large" numbers the queued ranges' chunks (a block scan)
// and spreads them over every block. Both move 16-byte words where source and destination agree
// modulo 16, funnel-shifted 4-byte words where they do not.
var BatchedCopy = register(&Algorithm{
	Name:       "BatchedCopy",
	Stem:       "batched_copy",
	Header:     "batched_copy.cuh",
	TypeParams: []string{"T"},
	Kernels: []Kernel{
		{Suffix: "small", Template: "::gocccl::batched_copy_small", Params: batchedCopyParams},
		{Suffix: "large", Template: "::gocccl::batched_copy_large", Params: batchedCopyParams},
	},
	// 256 threads; ITEMS is unused (the kernels move bytes, not items).
	Policy: func(size int64, a int) arch.Policy { return arch.Policy{Arch: a, BlockThreads: 256, ItemsPerThread: 1} },
})
