// radix.cu: cub::DeviceRadixSort on the inputs the Go benchmark sorts, one
// TSV row each (bench.cuh's format):
//
//   cub  sort_keys   cub::DeviceRadixSort::SortKeys (temp storage allocated beforehand)
//   cub  sort_pairs  cub::DeviceRadixSort::SortPairs, uint32 values (the input positions)
//
// for uint32, float32, uint64 and float64 keys. gocccl's sorts are timed through the
// Go API by bench/gpubench (radix.go), and its kernels beside CUB's, at every
// policy tried, by tune/radix_tune.sh; this file keeps no second copy of the
// runtime's dispatch. Checks before timing: the keys ascending and a
// permutation of the input (sums of mixed bits), the values the positions of
// their keys. bytes_moved: 2 n sizeof(K) (+ 2 n 4 for the values).
//
// Usage: radix [--runs R] [--sizes 10,16,20,24,28] [--seed S]

#include "bench.cuh"

#include <cub/device/device_radix_sort.cuh>

#include <string>
#include <vector>

// mix hashes a key's bits, for a multiset check by sums.
template <typename K>
uint64_t mix(K k)
{
  uint64_t s = 0;
  std::memcpy(&s, &k, sizeof(K));
  return bench::splitmix64(s);
}

// check_cub returns "" when keys is the ascending sort of in and, for
// pairs, in[vals[i]] == keys[i].
template <typename K>
std::string check_cub(const std::vector<K>& in, const std::vector<K>& keys, const std::vector<uint32_t>* vals)
{
  uint64_t a = 0, b = 0;
  for (size_t i = 0; i < in.size(); ++i)
  {
    a += mix(in[i]);
    b += mix(keys[i]);
    if (i > 0 && keys[i] < keys[i - 1]) return "not sorted at " + std::to_string(i);
    if (vals && ((*vals)[i] >= in.size() || std::memcmp(&in[(*vals)[i]], &keys[i], sizeof(K)) != 0))
      return "value " + std::to_string(i) + " is not the position of its key";
  }
  return a == b ? "" : "keys are not a permutation of the input";
}

template <typename K, bool PAIRS>
void run_type(uint64_t salt)
{
  using V = uint32_t;
  const char* type = bench::type_name<K>();
  const char* alg = PAIRS ? "sort_pairs" : "sort_keys";
  for (long long n : bench::sizes())
  {
    const std::vector<K> host = bench::random_items<K>(n, salt);
    std::vector<V> idx(static_cast<size_t>(n));
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<V>(i);
    bench::Rotation<K> in(host);
    bench::DeviceBuffer<V> vin(PAIRS ? static_cast<size_t>(n) : 0);
    if (PAIRS) BENCH_CK(cudaMemcpy(vin.get(), idx.data(), n * sizeof(V), cudaMemcpyHostToDevice));
    bench::DeviceBuffer<K> ref(static_cast<size_t>(n));
    bench::DeviceBuffer<V> vref(PAIRS ? static_cast<size_t>(n) : 0);
    const long long bytes = 2ll * n * static_cast<long long>(sizeof(K) + (PAIRS ? sizeof(V) : 0));
    const char* note = PAIRS ? "uint32 values" : "";

    size_t cub_bytes = 0;
    if (PAIRS) BENCH_CK(cub::DeviceRadixSort::SortPairs(nullptr, cub_bytes, in.get(0), ref.get(), vin.get(), vref.get(), n));
    else BENCH_CK(cub::DeviceRadixSort::SortKeys(nullptr, cub_bytes, in.get(0), ref.get(), n));
    bench::DeviceBuffer<unsigned char> cub_tmp(cub_bytes);
    auto run_cub = [&](int i) {
      size_t tb = cub_bytes;
      if (PAIRS)
        BENCH_CK(cub::DeviceRadixSort::SortPairs(cub_tmp.get(), tb, in.get(i), ref.get(), vin.get(), vref.get(), n));
      else BENCH_CK(cub::DeviceRadixSort::SortKeys(cub_tmp.get(), tb, in.get(i), ref.get(), n));
    };

    ref.poison();
    if (PAIRS) vref.poison();
    run_cub(0);
    BENCH_CK(cudaDeviceSynchronize());
    const std::vector<K> want = ref.to_host();
    std::vector<V> wantv;
    if (PAIRS) wantv = vref.to_host();
    std::string bad = check_cub(host, want, PAIRS ? &wantv : nullptr);
    if (!bad.empty()) bench::fail("cub", alg, type, n, bytes, bad);
    else bench::row("cub", alg, type, n, bench::time_us(run_cub), bytes, note);
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "radix");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
  run_type<uint32_t, false>(1);
  run_type<uint32_t, true>(2);
  run_type<float, false>(3);
  run_type<float, true>(4);
  run_type<uint64_t, false>(5);
  run_type<uint64_t, true>(6);
  run_type<double, false>(7);
  run_type<double, true>(8);
  return bench::finish();
}
