// topk.cu: the reference of the top-k rows, one TSV row each (bench.cuh's
// format):
//
//   cub  topk_16, topk_1024, topk_65536  cub::DeviceRadixSort::SortKeys of
//        all n keys, descending (the k largest are then its first k): CCCL
//        3.0 has no cub::DeviceTopK (3.2 adds it), so a CUB 3.0 user sorts.
//        The sort does not depend on k: it is timed once per type and size
//        and printed under each k of bench/gpubench/topk.go (k <= n)
//   cub  topk_sorted_65536  the same sort, beside gocccl's sorted top-k of
//        k = 65536 (its first k are the k largest, sorted)
//
//   cub  segmented_topk_16  cub::DeviceSegmentedSort::SortKeysDescending of
//        n/1024 segments of 1024 keys (the 16 largest of each are then its
//        first 16): CCCL 3.0 has no segmented top-k. n >= 1024 only
//
// over uint32 and float32 keys, as bench/gpubench/topk.go (gocccl's radix
// select, the k largest, unsorted) and bench/py/algos/topk.py (torch.topk).
// Check before timing: the first k keys of the sort are the k largest of a
// host sort. bytes_moved: n 4 + k 4, as gocccl's rows (the least a top-k
// moves), though the sort moves more.
//
// Usage: topk [--runs R] [--sizes 10,16,20,24,28] [--seed S]

#include "bench.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

constexpr long long ks[] = {16, 1024, 65536};
constexpr long long sorted_k = 65536; // topk_sorted_65536

template <typename K>
void run_type(uint64_t salt)
{
  const char* type = bench::type_name<K>();
  for (long long n : bench::sizes())
  {
    const std::vector<K> host = bench::random_items<K>(n, salt);
    bench::Rotation<K> in(host);
    bench::DeviceBuffer<K> out(static_cast<size_t>(n));
    size_t tb = 0;
    BENCH_CK(cub::DeviceRadixSort::SortKeysDescending(nullptr, tb, in.get(0), out.get(), n));
    bench::DeviceBuffer<unsigned char> tmp(tb);
    auto run = [&](int i) {
      size_t b = tb;
      BENCH_CK(cub::DeviceRadixSort::SortKeysDescending(tmp.get(), b, in.get(i), out.get(), n));
    };
    out.poison();
    run(0);
    BENCH_CK(cudaDeviceSynchronize());
    const std::vector<K> got = out.to_host();
    std::vector<K> want = host;
    const long long kmax = std::min<long long>(n, ks[2]);
    std::partial_sort(want.begin(), want.begin() + kmax, want.end(), std::greater<K>());
    std::string bad;
    for (long long i = 0; i < kmax && bad.empty(); ++i)
      if (got[static_cast<size_t>(i)] != want[static_cast<size_t>(i)]) bad = "item " + std::to_string(i) + " of the sort is not the host's";
    const double us = bad.empty() ? bench::time_us(run) : 0;
    for (long long k : ks)
    {
      if (k > n) continue;
      const std::string alg = "topk_" + std::to_string(k);
      const long long bytes = 4 * (n + k);
      if (!bad.empty()) bench::fail("cub", alg.c_str(), type, n, bytes, bad);
      else bench::row("cub", alg.c_str(), type, n, us, bytes, "DeviceRadixSort::SortKeysDescending of all n (CCCL 3.0 has no DeviceTopK)");
    }
    if (sorted_k <= n)
    {
      const long long bytes = 4 * (n + sorted_k);
      if (!bad.empty()) bench::fail("cub", "topk_sorted_65536", type, n, bytes, bad);
      else bench::row("cub", "topk_sorted_65536", type, n, us, bytes, "DeviceRadixSort::SortKeysDescending of all n: sorted, so its first k are the sorted top k");
    }
  }
}

// run_segmented times the segmented_topk_16 reference: a descending
// segmented sort of n/1024 segments of 1024 keys, checked segment by
// segment against a host partial sort; bytes_moved as gocccl's row (n 4 +
// segments (16 + 16 4)).
template <typename K>
void run_segmented(uint64_t salt)
{
  constexpr long long size = 1024, k = 16;
  const char* type = bench::type_name<K>();
  const char* alg = "segmented_topk_16";
  for (long long n : bench::sizes())
  {
    if (n < size) continue;
    const long long segs = n / size;
    const std::vector<K> host = bench::random_items<K>(n, salt);
    std::vector<int64_t> off(static_cast<size_t>(segs + 1));
    for (size_t i = 0; i < off.size(); ++i) off[i] = static_cast<int64_t>(i) * size;
    bench::Rotation<K> in(host);
    bench::DeviceBuffer<int64_t> doff(off.size());
    BENCH_CK(cudaMemcpy(doff.get(), off.data(), off.size() * sizeof(int64_t), cudaMemcpyHostToDevice));
    bench::DeviceBuffer<K> out(static_cast<size_t>(n));
    const int64_t* begin = doff.get();
    const int64_t* end = doff.get() + 1;
    size_t tb = 0;
    BENCH_CK(cub::DeviceSegmentedSort::SortKeysDescending(nullptr, tb, in.get(0), out.get(), segs * size, segs, begin, end));
    bench::DeviceBuffer<unsigned char> tmp(tb);
    auto run = [&](int i) {
      size_t b = tb;
      BENCH_CK(cub::DeviceSegmentedSort::SortKeysDescending(tmp.get(), b, in.get(i), out.get(), segs * size, segs, begin, end));
    };
    out.poison();
    run(0);
    BENCH_CK(cudaDeviceSynchronize());
    const std::vector<K> got = out.to_host();
    std::string bad;
    for (long long s = 0; s < segs && bad.empty(); ++s)
    {
      std::vector<K> want(host.begin() + s * size, host.begin() + (s + 1) * size);
      std::partial_sort(want.begin(), want.begin() + k, want.end(), std::greater<K>());
      for (long long i = 0; i < k && bad.empty(); ++i)
        if (got[static_cast<size_t>(s * size + i)] != want[static_cast<size_t>(i)])
          bad = "segment " + std::to_string(s) + " item " + std::to_string(i) + " of the sort is not the host's";
    }
    const long long bytes = 4 * n + segs * (16 + 4 * k);
    if (!bad.empty()) bench::fail("cub", alg, type, n, bytes, bad);
    else
      bench::row("cub", alg, type, n, bench::time_us(run), bytes,
                 "DeviceSegmentedSort::SortKeysDescending of 1024-key segments (CCCL 3.0 has no segmented top-k)");
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "topk");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
  run_type<uint32_t>(1);
  run_type<float>(2);
  run_segmented<uint32_t>(3);
  run_segmented<float>(4);
  return bench::finish();
}
