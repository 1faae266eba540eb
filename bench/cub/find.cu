// find.cu: searches and extrema with CUB 3.0's device-level calls, one TSV
// row each (bench.cuh's format):
//
//   cub  find_if      the least index i with in[i] == needle, as a CUB 3.0
//                     user writes it: cub::DeviceReduce::Min over a transform
//                     of a counting iterator (i -> match ? i : n). CCCL 3.0
//                     has no cub::DeviceFind (3.2 adds it); the match is the
//                     last item
//   cub  find_if_mid  the same with the match at n/2: the reduction reads
//                     every item wherever the match is
//   cub  argmin       cub::DeviceReduce::ArgMin, value and int64 index outputs
//   cub  argmax       cub::DeviceReduce::ArgMax
//
// over uint32 (find_if, argmin, argmax), float32 (argmin, argmax) and
// float64 (argmin), as bench/gpubench/find.go. Checks before timing: the
// index equals a host loop's (ties to the lowest index) and the value is the
// input's there.
//
// Usage: find [--runs R] [--sizes 10,16,20,24,28] [--seed S]

#include "bench.cuh"

#include <cub/device/device_reduce.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <string>
#include <vector>

constexpr uint32_t needle = 0xFFFFFFFFu;

// MatchIndex maps i to i where in[i] is the needle, else to n.
struct MatchIndex
{
  const uint32_t* in;
  long long n;
  __host__ __device__ long long operator()(long long i) const { return in[i] == needle ? i : n; }
};

void run_find(const char* alg, long long (*at)(long long), uint64_t salt)
{
  for (long long n : bench::sizes())
  {
    std::vector<uint32_t> host = bench::random_items<uint32_t>(n, salt);
    for (auto& x : host)
      if (x == needle) x = 0;
    const long long want = at(n);
    host[static_cast<size_t>(want)] = needle;
    bench::Rotation<uint32_t> in(host);
    bench::DeviceBuffer<long long> out(1);
    const long long bytes = n * 4;
    auto iter = [&](int i) {
      return thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), MatchIndex{in.get(i), n});
    };
    size_t tb = 0;
    BENCH_CK(cub::DeviceReduce::Min(nullptr, tb, iter(0), out.get(), n));
    bench::DeviceBuffer<unsigned char> tmp(tb);
    auto run = [&](int i) {
      size_t b = tb;
      BENCH_CK(cub::DeviceReduce::Min(tmp.get(), b, iter(i), out.get(), n));
    };
    out.poison();
    run(0);
    BENCH_CK(cudaDeviceSynchronize());
    const long long got = out.to_host()[0];
    if (got != want) bench::fail("cub", alg, "uint32", n, bytes, "found " + std::to_string(got) + ", want " + std::to_string(want));
    else bench::row("cub", alg, "uint32", n, bench::time_us(run), bytes, "DeviceReduce::Min over i -> match ? i : n");
  }
}

template <typename T, bool MAX>
void run_arg(uint64_t salt)
{
  const char* alg = MAX ? "argmax" : "argmin";
  const char* type = bench::type_name<T>();
  for (long long n : bench::sizes())
  {
    const std::vector<T> host = bench::random_items<T>(n, salt);
    long long want = 0;
    for (long long i = 1; i < n; ++i)
      if (MAX ? host[i] > host[want] : host[i] < host[want]) want = i;
    bench::Rotation<T> in(host);
    bench::DeviceBuffer<T> value(1);
    bench::DeviceBuffer<int64_t> index(1);
    const long long bytes = n * static_cast<long long>(sizeof(T)) + static_cast<long long>(sizeof(T)) + 8;
    size_t tb = 0;
    if (MAX) BENCH_CK(cub::DeviceReduce::ArgMax(nullptr, tb, in.get(0), value.get(), index.get(), n));
    else BENCH_CK(cub::DeviceReduce::ArgMin(nullptr, tb, in.get(0), value.get(), index.get(), n));
    bench::DeviceBuffer<unsigned char> tmp(tb);
    auto run = [&](int i) {
      size_t b = tb;
      if (MAX) BENCH_CK(cub::DeviceReduce::ArgMax(tmp.get(), b, in.get(i), value.get(), index.get(), n));
      else BENCH_CK(cub::DeviceReduce::ArgMin(tmp.get(), b, in.get(i), value.get(), index.get(), n));
    };
    value.poison();
    index.poison();
    run(0);
    BENCH_CK(cudaDeviceSynchronize());
    const int64_t gi = index.to_host()[0];
    const T gv = value.to_host()[0];
    if (gi != want || gv != host[static_cast<size_t>(want)])
      bench::fail("cub", alg, type, n, bytes, "index " + std::to_string(gi) + ", want " + std::to_string(want));
    else bench::row("cub", alg, type, n, bench::time_us(run), bytes, "value and int64 index");
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "find");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
  run_find("find_if", [](long long n) { return n - 1; }, 1);
  run_find("find_if_mid", [](long long n) { return n / 2; }, 2);
  run_arg<uint32_t, false>(3);
  run_arg<uint32_t, true>(4);
  run_arg<float, false>(5);
  run_arg<float, true>(6);
  run_arg<double, false>(7);
  return bench::finish();
}
