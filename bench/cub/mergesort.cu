// mergesort.cu: stable comparison sorts side by side on the same inputs, one
// TSV row each (bench.cuh's format):
//
//   cub             merge_sort        cub::DeviceMergeSort::SortKeys with a less functor
//   cub             merge_sort_pairs  cub::DeviceMergeSort::SortPairs, uint32 values
//   gocccl-kernels  merge_sort(_pairs) gocccl's merge_sort.cuh templates behind
//                                     extern "C" kernels, dispatched as the Go runtime does
//
// for uint32 and float32 keys. Both sorts are in place, so every timed run
// first copies its input (a rotation copy) into the work buffer with
// cudaMemcpyAsync: the copy is inside every row's time, alike for all
// systems (about 4% of the sort at 2^28). Checks are O(n): keys ascending
// and the same multiset as the input; for pairs, whose values are the
// input positions, also keys[i] == input[values[i]], values a permutation,
// and values ascending within equal keys (stability).
//
// Usage: mergesort [--runs R] [--sizes 10,16,20,24,28] [--seed S]

#include "bench.cuh"

#include <gocccl/merge_sort.cuh>

#include <cub/device/device_merge_sort.cuh>

#include <algorithm>
#include <string>
#include <vector>

// Less is the comparator of every row: a < b.
struct Less
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return a < b;
  }
};

#define BENCH_MS_KEYS(NAME, IPT, K)                                                                              \
  extern "C" __global__ void __launch_bounds__(256) NAME##_block(K* k, void* tk, long long n, long long to_tmp) \
  {                                                                                                              \
    gocccl::merge_sort_keys_block<256, IPT, K, Less>(k, tk, n, to_tmp);                                         \
  }                                                                                                              \
  extern "C" __global__ void __launch_bounds__(256)                                                              \
    NAME##_partition(const K* k, void* tk, long long n, void* p, long long from_tmp, long long merged)          \
  {                                                                                                              \
    gocccl::merge_sort_keys_partition<256, IPT, K, Less>(k, tk, n, p, from_tmp, merged);                        \
  }                                                                                                              \
  extern "C" __global__ void __launch_bounds__(256)                                                              \
    NAME##_merge(K* k, void* tk, long long n, void* p, long long from_tmp, long long merged)                    \
  {                                                                                                              \
    gocccl::merge_sort_keys_merge<256, IPT, K, Less>(k, tk, n, p, from_tmp, merged);                            \
  }                                                                                                              \
  extern "C" __global__ void __launch_bounds__(256) NAME##_single(K* k, long long n)                            \
  {                                                                                                              \
    gocccl::merge_sort_keys_single<256, IPT, K, Less>(static_cast<const K*>(k), k, n);                           \
  }

#define BENCH_MS_PAIRS(NAME, IPT, K, V)                                                                          \
  extern "C" __global__ void __launch_bounds__(256)                                                              \
    NAME##_block(K* k, V* v, void* tk, void* tv, long long n, long long to_tmp)                                 \
  {                                                                                                              \
    gocccl::merge_sort_pairs_block<256, IPT, K, V, Less>(k, v, tk, tv, n, to_tmp);                              \
  }                                                                                                              \
  extern "C" __global__ void __launch_bounds__(256)                                                              \
    NAME##_partition(const K* k, void* tk, long long n, void* p, long long from_tmp, long long merged)          \
  {                                                                                                              \
    gocccl::merge_sort_pairs_partition<256, IPT, K, V, Less>(k, tk, n, p, from_tmp, merged);                    \
  }                                                                                                              \
  extern "C" __global__ void __launch_bounds__(256)                                                              \
    NAME##_merge(K* k, V* v, void* tk, void* tv, long long n, void* p, long long from_tmp, long long merged)    \
  {                                                                                                              \
    gocccl::merge_sort_pairs_merge<256, IPT, K, V, Less>(k, v, tk, tv, n, p, from_tmp, merged);                 \
  }                                                                                                              \
  extern "C" __global__ void __launch_bounds__(256) NAME##_single(K* k, V* v, long long n)                      \
  {                                                                                                              \
    gocccl::merge_sort_pairs_single<256, IPT, K, V, Less>(static_cast<const K*>(k), static_cast<const V*>(v), k, \
                                                          v, n);                                                 \
  }

// The runtime's policy (internal/algo/mergesort.go): 256 threads, 17 items
// of 4 bytes.
BENCH_MS_KEYS(bench_ms_u32, 17, uint32_t)
BENCH_MS_KEYS(bench_ms_f32, 17, float)
BENCH_MS_PAIRS(bench_ms_pairs_u32, 17, uint32_t, uint32_t)
BENCH_MS_PAIRS(bench_ms_pairs_f32, 17, float, uint32_t)

// Ours is the Go runtime's dispatch (runtime/mergesort.go) in C++: one tile
// takes the single kernel, more the block sort and the merge passes. V is
// void for a keys-only sort. As mergeSearches there: while the tiles are at
// most four waves of resident merge blocks (the merge kernel's own occupancy),
// the merge blocks search their own splits (null partitions) and no pass
// launches a partition kernel; the scratch then holds no splits.
template <typename K, typename V>
struct Ours
{
  static constexpr bool PAIRS = !std::is_void<V>::value;
  using VP = typename std::conditional<PAIRS, V, char>::type;
  void (*block_k)(K*, void*, long long, long long);
  void (*block_p)(K*, VP*, void*, void*, long long, long long);
  void (*partition)(const K*, void*, long long, void*, long long, long long);
  void (*merge_k)(K*, void*, long long, void*, long long, long long);
  void (*merge_p)(K*, VP*, void*, void*, long long, void*, long long, long long);
  void (*single_k)(K*, long long);
  void (*single_p)(K*, VP*, long long);
  static constexpr long long TILE = 256 * 17;
  static constexpr size_t VSIZE   = PAIRS ? sizeof(VP) : 0;

  static size_t up(size_t x) { return (x + 255) / 256 * 256; }
  // One wave of the merge kernel's blocks (runtime/gpu.go's boundKernels.wave).
  long long merge_wave() const
  {
    int occupancy = 0;
    if constexpr (PAIRS) BENCH_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy, merge_p, 256, 0));
    else BENCH_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy, merge_k, 256, 0));
    return std::max(1, occupancy * bench::state().sms);
  }
  // As runtime/merge.go's mergeSearches: self-searched splits up to four waves.
  bool searches(long long n) const { return (n + TILE - 1) / TILE <= 4 * merge_wave(); }
  size_t temp_bytes(long long n) const
  {
    const long long tiles = (n + TILE - 1) / TILE;
    return up(n * sizeof(K)) + up(n * VSIZE) + (searches(n) ? 0 : (tiles + 1) * 8);
  }
  // search: searches(n), decided once before the timed runs (the Go runtime
  // reads the occupancy it computed when it bound the kernels).
  void run(K* keys, VP* values, long long n, unsigned char* tmp, bool search) const
  {
    if (n < 2) return;
    const long long tiles = (n + TILE - 1) / TILE;
    if (tiles == 1)
    {
      if constexpr (PAIRS) single_p<<<1, 256>>>(keys, values, n);
      else single_k<<<1, 256>>>(keys, n);
      return;
    }
    int passes = 0;
    while ((1ll << passes) < tiles) ++passes;
    void* tk = tmp;
    void* tv = tmp + up(n * sizeof(K));
    void* parts = search ? nullptr : tmp + up(n * sizeof(K)) + up(n * VSIZE);
    bool in_tmp = passes % 2 == 1;
    const unsigned grid = static_cast<unsigned>(tiles);
    if constexpr (PAIRS) block_p<<<grid, 256>>>(keys, values, tk, tv, n, in_tmp);
    else block_k<<<grid, 256>>>(keys, tk, n, in_tmp);
    const unsigned pgrid = static_cast<unsigned>((tiles + 1 + 255) / 256);
    for (int p = 0; p < passes; ++p, in_tmp = !in_tmp)
    {
      const long long merged = 2ll << p;
      if (!search) partition<<<pgrid, 256>>>(keys, tk, n, parts, in_tmp, merged);
      if constexpr (PAIRS) merge_p<<<grid, 256>>>(keys, values, tk, tv, n, parts, in_tmp, merged);
      else merge_k<<<grid, 256>>>(keys, tk, n, parts, in_tmp, merged);
    }
  }
};

// key_hash mixes a key's bits, for a multiset check by sums.
template <typename K>
uint64_t key_hash(K k)
{
  uint64_t bits = 0;
  std::memcpy(&bits, &k, sizeof(K));
  uint64_t s = bits;
  return bench::splitmix64(s);
}

// check_keys returns "" when got is in ascending order and holds the
// multiset of in.
template <typename K>
std::string check_keys(const std::vector<K>& in, const std::vector<K>& got)
{
  char buf[160];
  uint64_t a = 0, b = 0, c = 0, d = 0;
  for (size_t i = 0; i < in.size(); ++i)
  {
    a += key_hash(in[i]);
    b ^= key_hash(in[i]) * 3;
    c += key_hash(got[i]);
    d ^= key_hash(got[i]) * 3;
    if (i > 0 && got[i] < got[i - 1])
    {
      std::snprintf(buf, sizeof buf, "not sorted at %zu", i);
      return buf;
    }
  }
  return a == c && b == d ? "" : "keys are not a permutation of the input";
}

// check_pairs returns "" when the output is the stable sort of (in[i], i).
template <typename K>
std::string check_pairs(const std::vector<K>& in, const std::vector<K>& keys, const std::vector<uint32_t>& vals)
{
  char buf[160];
  std::vector<bool> seen(in.size());
  for (size_t i = 0; i < in.size(); ++i)
  {
    const uint32_t v = vals[i];
    if (v >= in.size() || seen[v] || !(keys[i] == in[v]))
    {
      std::snprintf(buf, sizeof buf, "pair %zu: value %u is not a fresh index of its key", i, v);
      return buf;
    }
    seen[v] = true;
    if (i > 0 && (keys[i] < keys[i - 1] || (!(keys[i - 1] < keys[i]) && vals[i] < vals[i - 1])))
    {
      std::snprintf(buf, sizeof buf, "not sorted or not stable at %zu", i);
      return buf;
    }
  }
  return "";
}

template <typename K>
void run_type(const Ours<K, void>& keys_ours, const Ours<K, uint32_t>& pairs_ours, uint64_t salt)
{
  const char* type = bench::type_name<K>();
  for (long long n : bench::sizes())
  {
    std::vector<K> host = bench::random_items<K>(n, salt);
    for (size_t i = 0; i < host.size(); i += 7) host[i] = host[i / 2]; // some equal keys: stability shows
    bench::Rotation<K> in(host);
    bench::DeviceBuffer<K> work(static_cast<size_t>(n));
    const size_t kbytes = in.bytes();
    auto load = [&](int i) { BENCH_CK(cudaMemcpyAsync(work.get(), in.get(i), kbytes, cudaMemcpyDeviceToDevice, 0)); };
    const char* note = "includes a D2D copy of the input (in-place sort)";
    auto our_note = [](bool search) {
      return search ? "includes a D2D copy of the input (in-place sort); self-searched splits"
                    : "includes a D2D copy of the input (in-place sort); partition kernels";
    };

    // Keys.
    {
      const long long bytes = 2 * static_cast<long long>(kbytes);
      size_t tb = 0;
      BENCH_CK(cub::DeviceMergeSort::SortKeys(nullptr, tb, work.get(), n, Less{}, cudaStream_t{}));
      bench::DeviceBuffer<unsigned char> temp(std::max<size_t>(tb, 1));
      auto cub_run = [&](int i) {
        load(i);
        size_t t = tb;
        BENCH_CK(cub::DeviceMergeSort::SortKeys(temp.get(), t, work.get(), n, Less{}, cudaStream_t{}));
      };
      cub_run(0);
      BENCH_CK(cudaDeviceSynchronize());
      std::string bad = check_keys(host, work.to_host());
      if (!bad.empty()) bench::fail("cub", "merge_sort", type, n, bytes, bad);
      else bench::row("cub", "merge_sort", type, n, bench::time_us(cub_run), bytes, note);

      bench::DeviceBuffer<unsigned char> ours_temp(keys_ours.temp_bytes(n));
      const bool search = keys_ours.searches(n);
      auto our_run = [&](int i) {
        load(i);
        keys_ours.run(work.get(), nullptr, n, ours_temp.get(), search);
      };
      work.poison();
      our_run(0);
      BENCH_CK(cudaGetLastError());
      BENCH_CK(cudaDeviceSynchronize());
      bad = check_keys(host, work.to_host());
      if (!bad.empty()) bench::fail("gocccl-kernels", "merge_sort", type, n, bytes, bad);
      else bench::row("gocccl-kernels", "merge_sort", type, n, bench::time_us(our_run), bytes, our_note(search));
    }

    // Pairs: values are the input positions.
    {
      const long long bytes = 2 * static_cast<long long>(n) * static_cast<long long>(sizeof(K) + 4);
      std::vector<uint32_t> idx(static_cast<size_t>(n));
      for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<uint32_t>(i);
      bench::Rotation<uint32_t> vin(idx);
      bench::DeviceBuffer<uint32_t> vwork(static_cast<size_t>(n));
      auto load2 = [&](int i) {
        load(i);
        BENCH_CK(cudaMemcpyAsync(vwork.get(), vin.get(i), vin.bytes(), cudaMemcpyDeviceToDevice, 0));
      };
      size_t tb = 0;
      BENCH_CK(cub::DeviceMergeSort::SortPairs(nullptr, tb, work.get(), vwork.get(), n, Less{}, cudaStream_t{}));
      bench::DeviceBuffer<unsigned char> temp(std::max<size_t>(tb, 1));
      auto cub_run = [&](int i) {
        load2(i);
        size_t t = tb;
        BENCH_CK(cub::DeviceMergeSort::SortPairs(temp.get(), t, work.get(), vwork.get(), n, Less{}, cudaStream_t{}));
      };
      cub_run(0);
      BENCH_CK(cudaDeviceSynchronize());
      std::string bad = check_pairs(host, work.to_host(), vwork.to_host());
      if (!bad.empty()) bench::fail("cub", "merge_sort_pairs", type, n, bytes, bad);
      else bench::row("cub", "merge_sort_pairs", type, n, bench::time_us(cub_run), bytes, note);

      bench::DeviceBuffer<unsigned char> ours_temp(pairs_ours.temp_bytes(n));
      const bool search = pairs_ours.searches(n);
      auto our_run = [&](int i) {
        load2(i);
        pairs_ours.run(work.get(), vwork.get(), n, ours_temp.get(), search);
      };
      work.poison();
      vwork.poison();
      our_run(0);
      BENCH_CK(cudaGetLastError());
      BENCH_CK(cudaDeviceSynchronize());
      bad = check_pairs(host, work.to_host(), vwork.to_host());
      if (!bad.empty()) bench::fail("gocccl-kernels", "merge_sort_pairs", type, n, bytes, bad);
      else bench::row("gocccl-kernels", "merge_sort_pairs", type, n, bench::time_us(our_run), bytes, our_note(search));
    }
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "mergesort");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
  Ours<uint32_t, void> u32{bench_ms_u32_block, nullptr, bench_ms_u32_partition, bench_ms_u32_merge, nullptr,
                           bench_ms_u32_single, nullptr};
  Ours<uint32_t, uint32_t> u32p{nullptr, bench_ms_pairs_u32_block, bench_ms_pairs_u32_partition, nullptr,
                                bench_ms_pairs_u32_merge, nullptr, bench_ms_pairs_u32_single};
  Ours<float, void> f32{bench_ms_f32_block, nullptr, bench_ms_f32_partition, bench_ms_f32_merge, nullptr,
                        bench_ms_f32_single, nullptr};
  Ours<float, uint32_t> f32p{nullptr, bench_ms_pairs_f32_block, bench_ms_pairs_f32_partition, nullptr,
                             bench_ms_pairs_f32_merge, nullptr, bench_ms_pairs_f32_single};
  run_type(u32, u32p, 1);
  run_type(f32, f32p, 2);
  return bench::finish();
}
