// Package difftest is the differential suite of the operator language: a
// corpus of operators, grouped by topic in ops_*.go, each used by an
// algorithm instance, run on the device (the GPU when present, else the CPU
// backend) over edge values and seeded random inputs and compared with the
// Go function called directly on the host. Results must be bit-identical,
// NaNs included (Go's amd64 payloads: see ops_nan.go), except that
// transcendental math is allowed a per-operator bound in ulps; see
// difftest_test.go.
//
// Floating-point operators write a product that feeds an addition as an
// explicit conversion, T(a*b) + c, which forbids Go to fuse it into an FMA
// (the GPU code is compiled without contraction), except where a case says
// otherwise.
//
// Only sm_90 and its PTX are generated, to keep the committed images small.
package difftest

//go:generate gocccl-gen

//gocccl:arch sm_90
