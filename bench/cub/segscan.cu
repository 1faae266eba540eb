// segscan.cu: segmented prefix sums with CUB 3.0's device-level calls, one
// TSV row each (bench.cuh's format). CCCL 3.0 has no
// cub::DeviceSegmentedScan (3.3 adds it); a CUB 3.0 user scans by key over
// segment ids:
//
//   cub  segmented_scan            cub::DeviceScan::InclusiveSumByKey, keys
//                                  i / 1024 from a transformed counting
//                                  iterator (no key array read)
//   cub  segmented_scan_fixed      the same call (CUB has no by-size form)
//   cub  segmented_exclusive_scan  cub::DeviceScan::ExclusiveSumByKey
//
// over uint32, float32 and uint64 (segmented_scan), uint32 and float32
// (segmented_scan_fixed), uint32 (exclusive), as bench/gpubench/segscan.go.
// Checks before timing: every item against a host loop (integers exact,
// floats within a relative 1e-5 of a double sum).
//
// Usage: segscan [--runs R] [--sizes 10,16,20,24,28] [--seed S]

#include "bench.cuh"

#include <cub/device/device_scan.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cmath>
#include <string>
#include <vector>

constexpr long long segment_len = 1024;

// SegmentOf maps an item's index to its segment's.
struct SegmentOf
{
  __host__ __device__ long long operator()(long long i) const { return i / segment_len; }
};

template <typename T>
std::string check(const std::vector<T>& in, const std::vector<T>& got, bool inclusive)
{
  T acc = 0;
  double wide = 0, mag = 0;
  for (size_t i = 0; i < in.size(); ++i)
  {
    if (i % segment_len == 0) acc = 0, wide = 0, mag = 0;
    if (inclusive) acc += in[i], wide += static_cast<double>(in[i]), mag += std::fabs(static_cast<double>(in[i]));
    const bool ok = std::is_floating_point<T>::value ? std::fabs(static_cast<double>(got[i]) - wide) <= 1e-5 * mag + 1e-6
                                                     : got[i] == acc;
    if (!ok) return "item " + std::to_string(i) + " differs";
    if (!inclusive) acc += in[i], wide += static_cast<double>(in[i]), mag += std::fabs(static_cast<double>(in[i]));
  }
  return "";
}

template <typename T>
void run_type(const char* alg, bool inclusive, uint64_t salt)
{
  const char* type = bench::type_name<T>();
  for (long long n : bench::sizes())
  {
    const std::vector<T> host = bench::random_items<T>(n, salt);
    bench::Rotation<T> in(host);
    bench::DeviceBuffer<T> out(static_cast<size_t>(n));
    const long long bytes = 2 * n * static_cast<long long>(sizeof(T));
    auto keys = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), SegmentOf{});
    size_t tb = 0;
    if (inclusive) BENCH_CK(cub::DeviceScan::InclusiveSumByKey(nullptr, tb, keys, in.get(0), out.get(), n));
    else BENCH_CK(cub::DeviceScan::ExclusiveSumByKey(nullptr, tb, keys, in.get(0), out.get(), n));
    bench::DeviceBuffer<unsigned char> tmp(tb);
    auto run = [&](int i) {
      size_t b = tb;
      if (inclusive) BENCH_CK(cub::DeviceScan::InclusiveSumByKey(tmp.get(), b, keys, in.get(i), out.get(), n));
      else BENCH_CK(cub::DeviceScan::ExclusiveSumByKey(tmp.get(), b, keys, in.get(i), out.get(), n));
    };
    out.poison();
    run(0);
    BENCH_CK(cudaDeviceSynchronize());
    const std::string bad = check(host, out.to_host(), inclusive);
    if (!bad.empty()) bench::fail("cub", alg, type, n, bytes, bad);
    else bench::row("cub", alg, type, n, bench::time_us(run), bytes, "scan by key over i / 1024 from an iterator");
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "segscan");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
  run_type<uint32_t>("segmented_scan", true, 1);
  run_type<float>("segmented_scan", true, 2);
  run_type<uint64_t>("segmented_scan", true, 3);
  run_type<uint32_t>("segmented_scan_fixed", true, 4);
  run_type<float>("segmented_scan_fixed", true, 5);
  run_type<uint32_t>("segmented_exclusive_scan", false, 6);
  return bench::finish();
}
