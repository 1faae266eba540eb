// segsort.cu: segmented sorts on the layouts of bench/gpubench/segsort.go,
// one TSV row each (bench.cuh's format):
//
//   cub  segmented_sort_keys_<layout>   cub::DeviceSegmentedSort::SortKeys
//   cub  segmented_sort_pairs_<layout>  cub::DeviceSegmentedSort::SortPairs, uint32 values (the input positions)
//
// uint32 keys (temp storage allocated beforehand), on two layouts:
//
//   1024   n / 1024 segments of 1024 keys
//   mixed  lengths (x >> 32) % (2 << (x & 15)) for x = splitmix64 from the
//          state 0x5e65, until n is covered (the last one cut): 0 to 65535
//          keys, every class of the gocccl sort (warp, block, Onesweep).
//
// The Go side (bench/gpubench/segsort.go) times runtime.SegmentedSortKeys
// and SegmentedSortPairs on the same layouts and data. Checks before timing:
// every segment ascending and a permutation of its input (sums of mixed
// bits), values the positions of their keys. bytes_moved: 2 n 4 (+ 2 n 4
// for the values) + the offsets read.
//
// Usage: segsort [--runs R] [--sizes 20,24,28] [--seed S]

#include "bench.cuh"

#include <cub/device/device_segmented_sort.cuh>

#include <string>
#include <vector>

// offsets returns the begin offsets of a layout and n at the end.
static std::vector<int64_t> offsets(const std::string& layout, long long n)
{
  std::vector<int64_t> off{0};
  if (layout == "1024")
  {
    for (long long p = 1024; p < n; p += 1024) off.push_back(p);
  }
  else
  {
    uint64_t s = 0x5e65;
    for (long long p = 0; p < n;)
    {
      const uint64_t x = bench::splitmix64(s);
      p = std::min<long long>(n, p + static_cast<long long>((x >> 32) % (2ull << (x & 15))));
      if (p < n) off.push_back(p);
    }
  }
  off.push_back(n);
  return off;
}

static uint64_t mix(uint32_t k)
{
  uint64_t s = k;
  return bench::splitmix64(s);
}

// check returns "" when every segment of keys is the ascending sort of in's
// and, for pairs, in[vals[i]] == keys[i] within the segment.
static std::string check(const std::vector<uint32_t>& in, const std::vector<uint32_t>& keys,
                         const std::vector<uint32_t>* vals, const std::vector<int64_t>& off)
{
  for (size_t s = 0; s + 1 < off.size(); ++s)
  {
    uint64_t a = 0, b = 0;
    for (int64_t i = off[s]; i < off[s + 1]; ++i)
    {
      a += mix(in[i]);
      b += mix(keys[i]);
      if (i > off[s] && keys[i] < keys[i - 1]) return "not sorted at " + std::to_string(i);
      if (vals && ((*vals)[i] < off[s] || (*vals)[i] >= off[s + 1] || in[(*vals)[i]] != keys[i]))
        return "value " + std::to_string(i) + " is not the position of its key";
    }
    if (a != b) return "segment " + std::to_string(s) + " is not a permutation of its input";
  }
  return "";
}

template <bool PAIRS>
void run_layout(const std::string& layout, uint64_t salt)
{
  using K = uint32_t;
  using V = uint32_t;
  const std::string alg_name = std::string(PAIRS ? "segmented_sort_pairs_" : "segmented_sort_keys_") + layout;
  const char* alg = alg_name.c_str();
  for (long long n : bench::sizes())
  {
    const std::vector<K> host = bench::random_items<K>(n, salt);
    const std::vector<int64_t> off = offsets(layout, n);
    const long long segs = static_cast<long long>(off.size()) - 1;
    std::vector<V> idx(static_cast<size_t>(n));
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<V>(i);
    bench::Rotation<K> in(host);
    bench::DeviceBuffer<V> vin(PAIRS ? static_cast<size_t>(n) : 0);
    if (PAIRS) BENCH_CK(cudaMemcpy(vin.get(), idx.data(), n * sizeof(V), cudaMemcpyHostToDevice));
    bench::DeviceBuffer<int64_t> doff(off.size());
    BENCH_CK(cudaMemcpy(doff.get(), off.data(), off.size() * sizeof(int64_t), cudaMemcpyHostToDevice));
    bench::DeviceBuffer<K> out(static_cast<size_t>(n));
    bench::DeviceBuffer<V> vout(PAIRS ? static_cast<size_t>(n) : 0);
    const long long bytes = 2ll * n * static_cast<long long>(sizeof(K) + (PAIRS ? sizeof(V) : 0)) + 16ll * segs;
    const std::string note = std::string(layout == "1024" ? "1024-item segments" : "mixed segments (0..65535 items)") +
                             (PAIRS ? "; uint32 values" : "");
    const int64_t* begin = doff.get();
    const int64_t* end = doff.get() + 1;

    size_t tmp_bytes = 0;
    if (PAIRS)
      BENCH_CK(cub::DeviceSegmentedSort::SortPairs(nullptr, tmp_bytes, in.get(0), out.get(), vin.get(), vout.get(), n,
                                                   segs, begin, end));
    else BENCH_CK(cub::DeviceSegmentedSort::SortKeys(nullptr, tmp_bytes, in.get(0), out.get(), n, segs, begin, end));
    bench::DeviceBuffer<unsigned char> tmp(tmp_bytes);
    auto run = [&](int i) {
      size_t tb = tmp_bytes;
      if (PAIRS)
        BENCH_CK(cub::DeviceSegmentedSort::SortPairs(tmp.get(), tb, in.get(i), out.get(), vin.get(), vout.get(), n,
                                                     segs, begin, end));
      else BENCH_CK(cub::DeviceSegmentedSort::SortKeys(tmp.get(), tb, in.get(i), out.get(), n, segs, begin, end));
    };
    out.poison();
    if (PAIRS) vout.poison();
    run(0);
    BENCH_CK(cudaDeviceSynchronize());
    std::vector<V> got_v;
    if (PAIRS) got_v = vout.to_host();
    const std::string bad = check(host, out.to_host(), PAIRS ? &got_v : nullptr, off);
    if (!bad.empty()) bench::fail("cub", alg, "uint32", n, bytes, bad);
    else bench::row("cub", alg, "uint32", n, bench::time_us(run), bytes, note);
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "segsort");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
  run_layout<false>("1024", 1);
  run_layout<true>("1024", 2);
  run_layout<false>("mixed", 3);
  run_layout<true>("mixed", 4);
  return bench::finish();
}
