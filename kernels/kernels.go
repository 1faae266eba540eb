// Package kernels holds gocccl's CUDA header library: one algorithm per header
// under include/gocccl, built from CUB's block- and warp-level primitives. The
// generator embeds the headers and hands them to nvcc; generated .cu files only
// define operator functors and instantiate these templates.
package kernels

import "embed"

// Include is the header tree rooted so that "#include <gocccl/reduce.cuh>"
// resolves: its entries are include/gocccl/*.cuh.
//
//go:embed include
var Include embed.FS
