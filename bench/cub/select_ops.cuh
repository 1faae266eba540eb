// select_ops.cuh: the predicates of the compaction benchmarks, shared by
// select.cu and the tune harnesses (tune/select_tune.cu, tune/compact_tune.cu,
// tune/rle_tune.cu)
// so that every row times the same selection. uint32 and uint64 keep odd
// values (three-way: x % 3 == 0, then x % 3 == 1); float32 and float64 keep
// x < 0.5 (three-way: x < 1/3, then x < 2/3). CCCL 3.0 has no predefined ones to
// reuse. gocccl's rows use the same operators (bench/ops/select.go).
#pragma once

#include <cstdint>

template <typename T> struct Keep;
template <> struct Keep<uint32_t>
{
  __host__ __device__ bool operator()(const uint32_t& x) const { return (x & 1u) != 0; }
};
template <> struct Keep<float>
{
  __host__ __device__ bool operator()(const float& x) const { return x < 0.5f; }
};
template <> struct Keep<uint64_t>
{
  __host__ __device__ bool operator()(const uint64_t& x) const { return (x & 1u) != 0; }
};
template <> struct Keep<double>
{
  __host__ __device__ bool operator()(const double& x) const { return x < 0.5; }
};
template <typename T> struct First;
template <> struct First<uint32_t>
{
  __host__ __device__ bool operator()(const uint32_t& x) const { return x % 3u == 0; }
};
template <> struct First<float>
{
  __host__ __device__ bool operator()(const float& x) const { return x < 1.0f / 3; }
};
template <> struct First<uint64_t>
{
  __host__ __device__ bool operator()(const uint64_t& x) const { return x % 3u == 0; }
};
template <> struct First<double>
{
  __host__ __device__ bool operator()(const double& x) const { return x < 1.0 / 3; }
};
template <typename T> struct Second;
template <> struct Second<uint32_t>
{
  __host__ __device__ bool operator()(const uint32_t& x) const { return x % 3u == 1; }
};
template <> struct Second<float>
{
  __host__ __device__ bool operator()(const float& x) const { return x < 2.0f / 3; }
};

template <> struct Second<uint64_t>
{
  __host__ __device__ bool operator()(const uint64_t& x) const { return x % 3u == 1; }
};
template <> struct Second<double>
{
  __host__ __device__ bool operator()(const double& x) const { return x < 2.0 / 3; }
};

// Equal compares bitwise, as the generated == of integers and of non-NaN
// floats does (the tune harnesses' unique and run-length operators).
struct Equal
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const { return a == b; }
};
