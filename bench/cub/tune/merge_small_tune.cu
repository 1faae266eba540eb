// merge_small_tune.cu: gocccl's merge sort (kernels/include/gocccl/merge_sort.cuh)
// at small n beside cub::DeviceMergeSort, to choose the tile of small
// sorts: uint32 keys and uint32 keys with uint32 values (their input
// positions, so stability is checked exactly), at n = 2^10, 2^11, 2^12,
// 2^13, 2^14 and 2^16 by default. Rows in bench.cuh's format:
//
//   cub              merge_sort(_pairs)  cub::DeviceMergeSort::SortKeys / SortPairs
//   gocccl-single    merge_sort(_pairs)  what the runtime launches for one tile
//                                        (n <= 256 x 17, the policy's): the single
//                                        kernel, in 256 x I, I the first of
//                                        MergeSortSingleItems that holds n, else 17
//   gocccl-256x17    merge_sort(_pairs)  the block kernel at the policy (CUB's
//                                        sm_90 tuning), dispatched as
//                                        runtime/mergesort.go does above one tile
//                                        (and did for one tile before the single
//                                        kernel)
//   gocccl-TxI       merge_sort(_pairs)  the same kernels and dispatch at T
//                                        threads x I items: one launch when n <=
//                                        T*I, else the block sort and its merge
//                                        passes at that tile
//
// Rows gocccl-256xI with I in MergeSortSingleItems time the block kernel at
// the single kernel's rungs (the same block sort, without the single
// kernel's choice of rung).
//
// median_us is the time of the in-place sort after a cudaMemcpyAsync of the
// input into the work buffer (keys, then values), as bench/cub/mergesort.cu
// and the Go benchmarks time it; the note starts with "alone X us": the sort
// alone, as the copy form (SortKeysCopy / SortPairsCopy for CUB, our first
// kernel reading the input), no copy. The note also gives the
// tiles and launches. Every output of both forms is checked against
// std::stable_sort before it is timed.
//
// Shapes: cub::BlockMergeSort needs a power-of-two block; odd item counts
// keep its shared-memory merges free of bank conflicts; the static shared
// memory of a shape, (T*I + 1) keys or values, must stay within 48 KiB
// (1024 x 11 is the largest 4-byte tile). The generated kernels'
// __launch_bounds__ are the policy's 256 threads.
//
// Build on the GPU machine, from the repository root (half a minute; add
// -Xptxas -v for the registers of every kernel):
//   nvcc -std=c++17 -O3 -arch=sm_90 -Ikernels/include -Ibench/cub \
//     -o /tmp/merge_small_tune bench/cub/tune/merge_small_tune.cu
//   /tmp/merge_small_tune                      # --sizes 10,11,12,13,14,16
//   /tmp/merge_small_tune --sizes 8,9          # 256 x 1 and 2 in one tile
//   /tmp/merge_small_tune --only keys --sizes 10
// --only takes keys and pairs.
#include "bench.cuh"

#include <gocccl/merge_sort.cuh>

#include <cub/device/device_merge_sort.cuh>

#include <algorithm>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

struct Less
{
  template <typename T>
  __host__ __device__ bool operator()(const T& a, const T& b) const
  {
    return a < b;
  }
};

// The kernels of one shape, as the generated entry points call them; in is
// the work buffer itself (in place) or the input (the copy form).
template <int BT, int IPT, typename K>
__global__ void __launch_bounds__(BT) keys_block(const K* in, K* keys, void* tk, long long n, long long to_tmp)
{
  gocccl::merge_sort_keys_block<BT, IPT, K, Less>(in, keys, tk, n, to_tmp);
}
template <int BT, int IPT, typename K>
__global__ void __launch_bounds__(BT)
  keys_partition(const K* keys, void* tk, long long n, void* parts, long long from_tmp, long long merged)
{
  gocccl::merge_sort_keys_partition<BT, IPT, K, Less>(keys, tk, n, parts, from_tmp, merged);
}
template <int BT, int IPT, typename K>
__global__ void __launch_bounds__(BT)
  keys_merge(K* keys, void* tk, long long n, void* parts, long long from_tmp, long long merged)
{
  gocccl::merge_sort_keys_merge<BT, IPT, K, Less>(keys, tk, n, parts, from_tmp, merged);
}
template <int BT, int IPT, typename K, typename V>
__global__ void __launch_bounds__(BT)
  pairs_block(const K* kin, const V* vin, K* keys, V* values, void* tk, void* tv, long long n, long long to_tmp)
{
  gocccl::merge_sort_pairs_block<BT, IPT, K, V, Less>(kin, vin, keys, values, tk, tv, n, to_tmp);
}
template <int BT, int IPT, typename K, typename V>
__global__ void __launch_bounds__(BT)
  pairs_partition(const K* keys, void* tk, long long n, void* parts, long long from_tmp, long long merged)
{
  gocccl::merge_sort_pairs_partition<BT, IPT, K, V, Less>(keys, tk, n, parts, from_tmp, merged);
}
template <int BT, int IPT, typename K, typename V>
__global__ void __launch_bounds__(BT) pairs_merge(
  K* keys, V* values, void* tk, void* tv, long long n, void* parts, long long from_tmp, long long merged)
{
  gocccl::merge_sort_pairs_merge<BT, IPT, K, V, Less>(keys, values, tk, tv, n, parts, from_tmp, merged);
}

template <int BT, int IPT, typename K>
__global__ void __launch_bounds__(BT) keys_single(const K* in, K* keys, long long n)
{
  gocccl::merge_sort_keys_single<BT, IPT, K, Less>(in, keys, n);
}
template <int BT, int IPT, typename K, typename V>
__global__ void __launch_bounds__(BT) pairs_single(const K* kin, const V* vin, K* keys, V* values, long long n)
{
  gocccl::merge_sort_pairs_single<BT, IPT, K, V, Less>(kin, vin, keys, values, n);
}

// Sorter is the Go runtime's dispatch (runtime/mergesort.go mergeSortGPU)
// at BT x IPT; V is void for keys only. While the tiles are at most four
// waves of resident merge blocks (mergeSearches), the merge blocks search
// their own splits and no pass launches a partition kernel.
template <int BT, int IPT, typename K, typename V>
struct Sorter
{
  static constexpr bool PAIRS = !std::is_void<V>::value;
  using VP = typename std::conditional<PAIRS, V, K>::type; // values' pointer type (unused for keys)
  static constexpr long long TILE = static_cast<long long>(BT) * IPT;

  static size_t up(size_t x) { return (x + 255) / 256 * 256; }
  static long long tiles(long long n) { return (n + TILE - 1) / TILE; }
  static int passes(long long n)
  {
    int p = 0;
    while ((1ll << p) < tiles(n)) ++p;
    return p;
  }
  // wave is one wave of the merge kernel's blocks (runtime/gpu.go).
  static long long wave()
  {
    int occupancy = 0;
    if constexpr (PAIRS) BENCH_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy, pairs_merge<BT, IPT, K, V>, BT, 0));
    else BENCH_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy, keys_merge<BT, IPT, K>, BT, 0));
    return std::max(1, occupancy * bench::state().sms);
  }
  static bool searches(long long n) { return tiles(n) <= 4 * wave(); }
  static size_t temp_bytes(long long n)
  {
    if (tiles(n) == 1) return 0;
    const size_t vsize = PAIRS ? sizeof(VP) : 0;
    return up(n * sizeof(K)) + up(n * vsize) + (searches(n) ? 0 : (tiles(n) + 1) * 8);
  }
  static int launches(long long n) { return 1 + passes(n) * (searches(n) ? 1 : 2); }

  // run sorts n keys (and values) read from kin (vin) into keys (values):
  // kin == keys sorts in place. search is searches(n), decided before the
  // timed runs as the Go runtime reads the occupancy once.
  static void run(const K* kin, const VP* vin, K* keys, VP* values, long long n, unsigned char* tmp, bool search)
  {
    if (n == 0 || (n == 1 && kin == keys)) return;
    const int p = passes(n);
    void* tk = tmp;
    void* tv = tmp + up(n * sizeof(K));
    void* parts = search ? nullptr : tmp + up(n * sizeof(K)) + up(n * (PAIRS ? sizeof(VP) : 0));
    bool in_tmp = p % 2 == 1;
    const unsigned grid = static_cast<unsigned>(tiles(n));
    if constexpr (PAIRS) pairs_block<BT, IPT, K, V><<<grid, BT>>>(kin, vin, keys, values, tk, tv, n, in_tmp);
    else keys_block<BT, IPT, K><<<grid, BT>>>(kin, keys, tk, n, in_tmp);
    const unsigned pgrid = static_cast<unsigned>((tiles(n) + 1 + BT - 1) / BT);
    for (int pass = 0; pass < p; ++pass, in_tmp = !in_tmp)
    {
      const long long merged = 2ll << pass;
      if (!search)
      {
        if constexpr (PAIRS) pairs_partition<BT, IPT, K, V><<<pgrid, BT>>>(keys, tk, n, parts, in_tmp, merged);
        else keys_partition<BT, IPT, K><<<pgrid, BT>>>(keys, tk, n, parts, in_tmp, merged);
      }
      if constexpr (PAIRS) pairs_merge<BT, IPT, K, V><<<grid, BT>>>(keys, values, tk, tv, n, parts, in_tmp, merged);
      else keys_merge<BT, IPT, K><<<grid, BT>>>(keys, tk, n, parts, in_tmp, merged);
    }
  }
};

// Case is one n: the input (keys, and their positions as values) and the
// stable sort of it.
struct Case
{
  using K = uint32_t;
  long long n;
  bool pairs;
  const char* algorithm;
  long long bytes;
  std::vector<K> want_keys;
  std::vector<uint32_t> want_values;
  bench::Rotation<K>* keys;
  bench::Rotation<uint32_t>* values;
  bench::DeviceBuffer<K>* work_keys;
  bench::DeviceBuffer<uint32_t>* work_values;

  // load copies input i into the work buffers, as every in-place run does.
  void load(int i) const
  {
    BENCH_CK(cudaMemcpyAsync(work_keys->get(), keys->get(i), keys->bytes(), cudaMemcpyDeviceToDevice, 0));
    if (pairs)
      BENCH_CK(cudaMemcpyAsync(work_values->get(), values->get(i), values->bytes(), cudaMemcpyDeviceToDevice, 0));
  }
  // check returns "" when the work buffers hold the stable sort.
  std::string check() const
  {
    if (std::memcmp(work_keys->to_host().data(), want_keys.data(), n * sizeof(K)) != 0)
      return "keys differ from std::stable_sort";
    if (pairs && work_values->to_host() != want_values) return "values differ from std::stable_sort (stability)";
    return "";
  }
};

// measure checks and times one system, both forms: in_place(i) sorts the
// work buffers in place after load(i) has filled them; copy(i) sorts input
// i into them.
template <typename InPlace, typename Copy>
void measure(const Case& c, const std::string& system, const std::string& note, InPlace&& in_place, Copy&& copy)
{
  const char* type = bench::type_name<uint32_t>();
  auto with_copy = [&](int i) {
    c.load(i);
    in_place(i);
  };
  for (int form = 0; form < 2; ++form)
  {
    c.work_keys->poison();
    c.work_values->poison();
    if (form == 0) with_copy(0);
    else copy(0);
    BENCH_CK(cudaGetLastError());
    BENCH_CK(cudaDeviceSynchronize());
    const std::string bad = c.check();
    if (!bad.empty())
    {
      bench::fail(system.c_str(), c.algorithm, type, c.n, c.bytes, (form == 0 ? "in place: " : "copy form: ") + bad);
      return;
    }
  }
  char alone[64];
  std::snprintf(alone, sizeof alone, "alone %.2f us", bench::time_us(copy));
  bench::row(system.c_str(), c.algorithm, type, c.n, bench::time_us(with_copy), c.bytes,
             std::string(alone) + "; " + note);
}

template <int BT, int IPT>
void shape(const Case& c)
{
  using K = uint32_t;
  using V = uint32_t;
  const std::string system = "gocccl-" + std::to_string(BT) + "x" + std::to_string(IPT);
  auto go = [&](auto sorter) {
    using S = decltype(sorter);
    const long long n = c.n;
    bench::DeviceBuffer<unsigned char> tmp(std::max<size_t>(S::temp_bytes(n), 1));
    const bool search = S::searches(n);
    const std::string note = std::to_string(S::tiles(n)) + " tile(s), " + std::to_string(S::launches(n)) +
                             " launch(es)" + (S::tiles(n) > 1 && !search ? ", partition kernels" : "");
    auto in_place = [&](int) {
      S::run(c.work_keys->get(), c.work_values->get(), c.work_keys->get(), c.work_values->get(), n, tmp.get(), search);
    };
    auto copy = [&](int i) {
      S::run(c.keys->get(i), c.values->get(i), c.work_keys->get(), c.work_values->get(), n, tmp.get(), search);
    };
    measure(c, system, note, in_place, copy);
  };
  if (c.pairs) go(Sorter<BT, IPT, K, V>{});
  else go(Sorter<BT, IPT, K, void>{});
}

// single is the runtime's launch for one tile at the policy: the single
// kernel.
void single(const Case& c)
{
  constexpr int BT = 256, IPT = 17;
  if (c.n > BT * IPT) return;
  auto run = [&](const uint32_t* kin, const uint32_t* vin) {
    if (c.pairs)
      pairs_single<BT, IPT, uint32_t, uint32_t><<<1, BT>>>(kin, vin, c.work_keys->get(), c.work_values->get(), c.n);
    else keys_single<BT, IPT, uint32_t><<<1, BT>>>(kin, c.work_keys->get(), c.n);
  };
  auto in_place = [&](int) { run(c.work_keys->get(), c.work_values->get()); };
  auto copy = [&](int i) { run(c.keys->get(i), c.values->get(i)); };
  measure(c, "gocccl-single", "1 launch", in_place, copy);
}

void cub_sort(const Case& c)
{
  using K = uint32_t;
  const int n = static_cast<int>(c.n);
  K* wk = c.work_keys->get();
  uint32_t* wv = c.work_values->get();
  size_t in_place_bytes = 0, copy_bytes = 0;
  if (c.pairs)
  {
    BENCH_CK(cub::DeviceMergeSort::SortPairs(nullptr, in_place_bytes, wk, wv, n, Less{}));
    BENCH_CK(cub::DeviceMergeSort::SortPairsCopy(nullptr, copy_bytes, c.keys->get(0), c.values->get(0), wk, wv, n, Less{}));
  }
  else
  {
    BENCH_CK(cub::DeviceMergeSort::SortKeys(nullptr, in_place_bytes, wk, n, Less{}));
    BENCH_CK(cub::DeviceMergeSort::SortKeysCopy(nullptr, copy_bytes, c.keys->get(0), wk, n, Less{}));
  }
  bench::DeviceBuffer<unsigned char> tmp(std::max<size_t>({in_place_bytes, copy_bytes, size_t{1}}));
  auto in_place = [&](int) {
    size_t t = in_place_bytes;
    if (c.pairs) BENCH_CK(cub::DeviceMergeSort::SortPairs(tmp.get(), t, wk, wv, n, Less{}));
    else BENCH_CK(cub::DeviceMergeSort::SortKeys(tmp.get(), t, wk, n, Less{}));
  };
  auto copy = [&](int i) {
    size_t t = copy_bytes;
    if (c.pairs) BENCH_CK(cub::DeviceMergeSort::SortPairsCopy(tmp.get(), t, c.keys->get(i), c.values->get(i), wk, wv, n, Less{}));
    else BENCH_CK(cub::DeviceMergeSort::SortKeysCopy(tmp.get(), t, c.keys->get(i), wk, n, Less{}));
  };
  measure(c, "cub", "CUB_VERSION " + std::to_string(CUB_VERSION), in_place, copy);
}

void run(bool pairs, uint64_t salt)
{
  using K = uint32_t;
  for (long long n : bench::sizes())
  {
    std::vector<K> x = bench::random_items<K>(n, salt);
    for (size_t i = 0; i < x.size(); i += 7) x[i] = x[i / 2]; // some equal keys: stability shows
    std::vector<uint32_t> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0u);
    bench::Rotation<K> keys(x);
    bench::Rotation<uint32_t> values(order);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return x[a] < x[b]; });
    bench::DeviceBuffer<K> work_keys(static_cast<size_t>(n));
    bench::DeviceBuffer<uint32_t> work_values(static_cast<size_t>(n));
    Case c;
    c.n = n;
    c.pairs = pairs;
    c.algorithm = pairs ? "merge_sort_pairs" : "merge_sort";
    c.bytes = 2 * n * static_cast<long long>(sizeof(K) + (pairs ? 4 : 0));
    for (uint32_t i : order) c.want_keys.push_back(x[i]);
    c.want_values = order;
    c.keys = &keys;
    c.values = &values;
    c.work_keys = &work_keys;
    c.work_values = &work_values;
    if (!pairs) bench::copy_row(keys, x);

    cub_sort(c);
    single(c);
    shape<256, 17>(c); // the policy (internal/algo/mergesort.go), CUB's sm_90 tuning
    // One tile at 2^10: fewer items, shorter serial merges and in-thread sorts.
    shape<64, 17>(c);
    shape<128, 8>(c);
    shape<128, 9>(c);
    shape<256, 1>(c);
    shape<256, 2>(c);
    shape<256, 4>(c);
    shape<256, 5>(c);
    shape<512, 2>(c);
    shape<512, 3>(c);
    shape<1024, 1>(c);
    // One tile at 2^11.
    shape<128, 17>(c);
    shape<256, 8>(c);
    shape<256, 9>(c);
    shape<512, 5>(c);
    shape<1024, 2>(c);
    shape<1024, 3>(c);
    // One tile at 2^12 (256 x 17 holds 4352), 2^13 and, in two, 2^14.
    shape<512, 9>(c);
    shape<1024, 5>(c);
    shape<512, 17>(c);
    shape<1024, 9>(c);
    shape<1024, 11>(c);
  }
}

int main(int argc, char** argv)
{
  bench::state().log2_sizes = {10, 11, 12, 13, 14, 16};
  bench::init(argc, argv, "merge_small_tune");
  if (bench::wants("keys")) run(false, 1);
  if (bench::wants("pairs")) run(true, 2);
  return bench::finish();
}
