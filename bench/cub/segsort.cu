// segsort.cu: segmented sorts on the layouts of bench/gpubench/segsort.go,
// one TSV row each (bench.cuh's format):
//
//   cub             segmented_sort_keys_<layout>   cub::DeviceSegmentedSort::SortKeys
//   cub             segmented_sort_pairs_<layout>  cub::DeviceSegmentedSort::SortPairs, uint32 values (the input positions)
//   gocccl-kernels  the same with gocccl's segmented_sort_{keys,pairs}_each, the one
//                   launch the Go runtime makes for at most 500 segments over at
//                   most 2^17 keys (runtime/segmented_sort_gpu.go,
//                   segsortFallback); larger calls take the classified path,
//                   not dispatched here (no row)
//
// uint32 and uint64 keys (temp storage allocated beforehand), on two layouts:
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

#include <gocccl/segmented_sort.cuh>

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

template <typename K>
static uint64_t mix(K k)
{
  uint64_t s = static_cast<uint64_t>(k);
  return bench::splitmix64(s);
}

// check returns "" when every segment of keys is the ascending sort of in's
// and, for pairs, in[vals[i]] == keys[i] within the segment.
template <typename K>
static std::string check(const std::vector<K>& in, const std::vector<K>& keys,
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

// The Go runtime's fallback limits (runtime/segmented_sort_gpu.go): segments,
// keys, and bytes of keys and values.
constexpr long long FALLBACK_SEGMENTS = 500;
constexpr long long FALLBACK_ITEMS = 1ll << 17;
constexpr long long FALLBACK_BYTES = 512ll << 10;
constexpr long long FALLBACK_MEAN = 2048;

// The policies of internal/algo (RadixKeysPolicy, RadixPairsPolicy) on
// sm_90: 384 threads; 20 items for 4-byte keys, 18 for 4-byte pairs, 15 for
// 8-byte keys or pairs.
constexpr int THREADS = 384;
template <typename K, bool PAIRS>
struct Items
{
  static constexpr int value = sizeof(K) == 8 ? 15 : PAIRS ? 18 : 20;
};

// Entry points as gocccl-gen writes them.
template <typename K>
__global__ void __launch_bounds__(THREADS)
  each_keys(const K* in, K* out, const int64_t* b, const int64_t* e, long long n, long long segs, void* alt, bool desc)
{
  gocccl::segmented_sort_keys_each<THREADS, Items<K, false>::value, K>(in, out, b, e, n, segs, alt, desc);
}
template <typename K, typename V>
__global__ void __launch_bounds__(THREADS)
  each_pairs(const K* in, K* out, const V* vin, V* vout, const int64_t* b, const int64_t* e, long long n,
             long long segs, void* alt, void* valt, bool desc)
{
  gocccl::segmented_sort_pairs_each<THREADS, Items<K, true>::value, K, V>(in, out, vin, vout, b, e, n, segs, alt, valt,
                                                                        desc);
}

template <typename K>
const char* type_name()
{
  return sizeof(K) == 8 ? "uint64" : "uint32";
}

template <typename K, bool PAIRS>
void run_layout(const std::string& layout, uint64_t salt)
{
  using V = uint32_t;
  const char* tn = type_name<K>();
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
    if (!bad.empty()) bench::fail("cub", alg, tn, n, bytes, bad);
    else bench::row("cub", alg, tn, n, bench::time_us(run), bytes, note);

    const long long item_bytes = static_cast<long long>(sizeof(K) + (PAIRS ? sizeof(V) : 0));
    if (segs > FALLBACK_SEGMENTS || n > FALLBACK_ITEMS || (n * item_bytes > FALLBACK_BYTES && n > FALLBACK_MEAN * segs))
      continue; // the classified path: not dispatched here
    // The alternate buffers, as the runtime's fallbackScratch (allocated
    // beforehand, as CUB's temp storage): only needed past the big class.
    const long long big_max = std::max<long long>(4ll * THREADS, 1ll * THREADS * Items<K, PAIRS>::value);
    const bool alt_needed = n > big_max;
    bench::DeviceBuffer<K> kalt(alt_needed ? static_cast<size_t>(n) : 0);
    bench::DeviceBuffer<V> valt(alt_needed && PAIRS ? static_cast<size_t>(n) : 0);
    auto ours = [&](int i) {
      if (PAIRS)
        each_pairs<K, V><<<static_cast<unsigned>(segs), THREADS>>>(in.get(i), out.get(), vin.get(), vout.get(), begin,
                                                                   end, n, segs, alt_needed ? kalt.get() : nullptr,
                                                                   alt_needed ? valt.get() : nullptr, false);
      else
        each_keys<K><<<static_cast<unsigned>(segs), THREADS>>>(in.get(i), out.get(), begin, end, n, segs,
                                                               alt_needed ? kalt.get() : nullptr, false);
      BENCH_CK(cudaGetLastError());
    };
    out.poison();
    if (PAIRS) vout.poison();
    ours(0);
    BENCH_CK(cudaDeviceSynchronize());
    if (PAIRS) got_v = vout.to_host();
    const std::string bad_ours = check(host, out.to_host(), PAIRS ? &got_v : nullptr, off);
    if (!bad_ours.empty()) bench::fail("gocccl-kernels", alg, tn, n, bytes, bad_ours);
    else
      bench::row("gocccl-kernels", alg, tn, n, bench::time_us(ours), bytes,
                 note + "; segmented_sort_each (the fallback), as the Go runtime chooses");
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "segsort");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
  run_layout<uint32_t, false>("1024", 1);
  run_layout<uint32_t, true>("1024", 2);
  run_layout<uint32_t, false>("mixed", 3);
  run_layout<uint32_t, true>("mixed", 4);
  run_layout<uint64_t, false>("1024", 5);
  run_layout<uint64_t, true>("1024", 6);
  run_layout<uint64_t, false>("mixed", 7);
  run_layout<uint64_t, true>("mixed", 8);
  return bench::finish();
}
