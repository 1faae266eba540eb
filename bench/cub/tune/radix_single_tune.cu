// radix_single_tune.cu: gocccl's single-tile radix sort
// (radix_sort_keys_single / radix_sort_pairs_single in
// kernels/include/gocccl/radix_sort.cuh) at several block shapes beside
// cub::DeviceRadixSort on the same small inputs (n up to a few thousand,
// where CUB also sorts in one block), to choose the small-n tile. Keys:
// uint32, uint64 and float32; pairs: uint32 keys with their input positions
// as values, so stability is checked exactly. Rows in bench.cuh's format,
// the system column naming the shape ("gocccl-384x20") or "cub"; a shape
// whose tile is smaller than n prints no row. Every output is checked against
// a host stable sort before it is timed.
//
// Build on the GPU machine, from the repository root:
//   nvcc -std=c++17 -O3 -arch=sm_90 -Ikernels/include -Ibench/cub \
//     -o /tmp/radix_single_tune bench/cub/tune/radix_single_tune.cu
//   /tmp/radix_single_tune --sizes 8,10,11,12
#include "bench.cuh"

#include <gocccl/radix_sort.cuh>

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

using NoValues = gocccl::detail::radix::NoValues;

// One block shape, fixed (detail::radix::SingleTile), or with DISPATCH the
// entry point the generated kernels call (radix_sort_*_single: the fewest
// items per thread of 3, 6, 11 and IPT that hold n).
template <int BT, int IPT, int MINB, bool DISPATCH, typename K, typename V>
__global__ void __launch_bounds__(BT, MINB) single_kernel(const K* ki, K* ko, const V* vi, V* vo, long long n)
{
  using Fixed = gocccl::detail::radix::SingleTile<BT, IPT, K, V, gocccl::detail::radix::DEFAULT_RANK_MATCH>;
  if constexpr (!DISPATCH)
  {
    __shared__ typename Fixed::TempStorage temp;
    Fixed::run(temp, ki, ko, vi, vo, n, 0, 8 * sizeof(K), false);
  }
  else if constexpr (std::is_same<V, NoValues>::value)
    gocccl::radix_sort_keys_single<BT, IPT, K>(ki, ko, n, 0, 8 * sizeof(K), false);
  else
    gocccl::radix_sort_pairs_single<BT, IPT, K, V>(ki, ko, vi, vo, n, 0, 8 * sizeof(K), false);
}

template <typename K, typename V>
struct Case
{
  long long n;
  std::vector<K> want_keys;
  std::vector<uint32_t> want_values;
  bench::Rotation<K>* keys;
  bench::DeviceBuffer<uint32_t>* values;
  const char* algorithm;
  long long bytes;
};

template <int BT, int IPT, int MINB, typename K, typename V, bool DISPATCH = false>
void shape(const Case<K, V>& c)
{
  if (c.n > BT * IPT) return;
  std::string system = "gocccl-" + std::to_string(BT) + "x" + std::to_string(IPT);
  if (MINB > 1) system += "-min" + std::to_string(MINB);
  if (DISPATCH) system += "-dispatch";
  const char* type = bench::type_name<K>();
  bench::DeviceBuffer<K> ko(static_cast<size_t>(c.n));
  bench::DeviceBuffer<uint32_t> vo(static_cast<size_t>(c.n));
  constexpr bool PAIRS = !std::is_same<V, NoValues>::value;
  auto fn = [&](int i) {
    single_kernel<BT, IPT, MINB, DISPATCH, K, V><<<1, BT>>>(c.keys->get(i), ko.get(),
                                                   PAIRS ? reinterpret_cast<const V*>(c.values->get()) : nullptr,
                                                   PAIRS ? reinterpret_cast<V*>(vo.get()) : nullptr, c.n);
  };
  ko.poison();
  vo.poison();
  fn(0);
  BENCH_CK(cudaDeviceSynchronize());
  BENCH_CK(cudaGetLastError());
  const std::vector<K> got = ko.to_host();
  bool ok = std::memcmp(got.data(), c.want_keys.data(), c.n * sizeof(K)) == 0;
  if (PAIRS) ok = ok && vo.to_host() == c.want_values;
  if (!ok)
    bench::fail(system.c_str(), c.algorithm, type, c.n, c.bytes, "sorted output differs");
  else
    bench::row(system.c_str(), c.algorithm, type, c.n, bench::time_us(fn), c.bytes, "");
}

template <typename K, bool PAIRS>
void run_type(uint64_t salt)
{
  using V = typename std::conditional<PAIRS, uint32_t, NoValues>::type;
  const char* type = bench::type_name<K>();
  for (long long n : bench::sizes())
  {
    const std::vector<K> x = bench::random_items<K>(n, salt);
    std::vector<uint32_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return x[a] < x[b]; });
    Case<K, V> c;
    c.n = n;
    c.algorithm = PAIRS ? "sort_pairs" : "sort_keys";
    c.bytes = 2 * n * static_cast<long long>(sizeof(K) + (PAIRS ? 4 : 0));
    for (uint32_t i : order) c.want_keys.push_back(x[i]);
    if (PAIRS) c.want_values = order;
    bench::Rotation<K> keys(x);
    std::vector<uint32_t> positions(static_cast<size_t>(n));
    std::iota(positions.begin(), positions.end(), 0u);
    bench::DeviceBuffer<uint32_t> values(static_cast<size_t>(n));
    BENCH_CK(cudaMemcpy(values.get(), positions.data(), n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    c.keys = &keys;
    c.values = &values;
    {
      bench::DeviceBuffer<K> ko(static_cast<size_t>(n));
      bench::DeviceBuffer<uint32_t> vo(static_cast<size_t>(n));
      size_t tb = 0;
      if (PAIRS) BENCH_CK(cub::DeviceRadixSort::SortPairs(nullptr, tb, keys.get(0), ko.get(), values.get(), vo.get(), static_cast<int>(n)));
      else BENCH_CK(cub::DeviceRadixSort::SortKeys(nullptr, tb, keys.get(0), ko.get(), static_cast<int>(n)));
      bench::DeviceBuffer<unsigned char> tmp(tb);
      auto fn = [&](int i) {
        size_t t = tb;
        if (PAIRS) BENCH_CK(cub::DeviceRadixSort::SortPairs(tmp.get(), t, keys.get(i), ko.get(), values.get(), vo.get(), static_cast<int>(n)));
        else BENCH_CK(cub::DeviceRadixSort::SortKeys(tmp.get(), t, keys.get(i), ko.get(), static_cast<int>(n)));
      };
      ko.poison();
      fn(0);
      BENCH_CK(cudaDeviceSynchronize());
      const std::vector<K> got = ko.to_host();
      if (std::memcmp(got.data(), c.want_keys.data(), n * sizeof(K)) != 0)
        bench::fail("cub", c.algorithm, type, n, c.bytes, "sorted output differs");
      else
        bench::row("cub", c.algorithm, type, n, bench::time_us(fn), c.bytes, "");
    }
    constexpr int MINB = sizeof(K) >= 4 ? 3 : 1; // as RadixKeysPolicy / RadixPairsPolicy on sm_90
    // The H200 run of 2026-12-01 (bench/NOTES.md) also timed 256 x 4, 8, 16
    // and 512 x 2, 4: 256 x 4 was up to 0.7 us faster than 384 x 3, but the
    // single tile keeps the sort's block size.
    constexpr int FULL = PAIRS ? 18 : (sizeof(K) == 8 ? 15 : 20); // the generated policy on sm_90
    shape<384, FULL, MINB, K, V>(c);
    shape<384, FULL, MINB, K, V, true>(c); // what the generated kernel runs
    shape<384, 3, MINB, K, V>(c);
    shape<384, 6, MINB, K, V>(c);
    shape<384, 11, MINB, K, V>(c);
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "radix_single_tune");
  run_type<uint32_t, false>(1);
  run_type<uint32_t, true>(2);
  run_type<float, false>(3);
  run_type<uint64_t, false>(4);
  return bench::finish();
}
