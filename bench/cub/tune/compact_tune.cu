// compact_tune.cu: gocccl's three_way_partition and unique_by_key
// (kernels/include/gocccl/select.cuh) at several tile shapes beside
// cub::DevicePartition::If (two predicates) and cub::DeviceSelect::UniqueByKey,
// in one run, to choose their sm_90 policies. The inputs and predicates are
// bench/cub/select.cu's: three-way x % 3 == 0, then == 1 (float32: x < 1/3,
// then < 2/3); unique_by_key over runs of 7 keys with values of the type.
// Rows in bench.cuh's format; the system column names the shape
// ("gocccl-128x16") or "cub". Every output and count is checked against the
// host before the shape is timed. gocccl's rows are one launch a call over
// epoch tile states (epoch_region.cuh), their init run once per shape before
// the checked call, as the Go runtime runs it once per stream region.
//
// Build on the GPU machine, from the repository root:
//   nvcc -std=c++17 -O3 -arch=sm_90 -Ikernels/include -Ibench/cub \
//     -o /tmp/compact_tune bench/cub/tune/compact_tune.cu
//   /tmp/compact_tune --sizes 16,20,24,28
// (with the project's toolkit wheel, scripts/install-cuda-toolkit.sh, add
// -L<toolkit>/nvidia/cu13/lib: without it nvcc links whatever CUDA runtime
// the system has, Debian's CUDA 11 one here, and the link fails).
//
// Parts (--only): "tune", the shapes below at --sizes (the default), and
// "small", run only when named: --only small (bench/cub/tune/three_way_small.sh) runs the
// single-tile three-way partition of three_way_single.cuh (not yet in any
// algorithm description) at one-tile sizes, a fixed list (--sizes is
// ignored): 2^10, 1500, 2^11, 2^12 for the timings and the rungs' edges
// 1, 1023, 1025, 2047, 2049, 5888 for the checks, uint32 and float32. Rows:
// "cub"; "gocccl-256x23", today's path for one tile (the sweep of the
// policy's tile, no tile states, epoch 0: the runtime launches no init for
// one tile); "gocccl-single", three_way_partition_single as a generated
// package would instantiate it (policy 256 x 23, the rung chosen in the
// kernel); "gocccl-single-256xI", each rung's tile alone (I = 4, 8, 23), a
// dash where n does not fit it.
#include "bench.cuh"
#include "epoch_region.cuh"
#include "select_ops.cuh"

#include <gocccl/select.cuh>
#include <gocccl/three_way_single.cuh>

#include <cub/device/device_partition.cuh>
#include <cub/device/device_select.cuh>

#include <string>
#include <vector>

template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) init3_kernel(void* d_state, long long state_bytes, long long tiles, long long* d_count)
{
  ::gocccl::select_init_pair2<THREADS, ITEMS, T>(d_state, state_bytes, tiles, d_count);
}
template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) three_kernel(const T* d_in, T* d_a, T* d_b, T* d_c, long long* d_count, long long n,
                                                        void* d_state, long long state_bytes, unsigned epoch)
{
  ::gocccl::three_way_partition<THREADS, ITEMS, T, First<T>, Second<T>>(d_in, d_a, d_b, d_c, d_count, n, d_state, state_bytes,
                                                                        epoch);
}
// The same partition with its counts carried as a pair of 64-bit counts, as
// three_way_partition carries them from 2^32 items on: checks that path at
// sizes a test can afford, and times what packing saves.
template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) init3_wide_kernel(void* d_state, long long state_bytes, long long tiles, long long* d_count)
{
  namespace s = ::gocccl::detail::select;
  s::init<s::WideCounts::S, 2>(d_state, state_bytes, tiles, d_count);
}
template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) three_wide_kernel(const T* d_in, T* d_a, T* d_b, T* d_c, long long* d_count,
                                                             long long n, void* d_state, long long state_bytes, unsigned epoch)
{
  namespace s = ::gocccl::detail::select;
  using Agent = s::ThreeWay<THREADS, ITEMS, T>;
  __shared__ typename Agent::TempStorage temp;
  Agent::template run<s::WideCounts, First<T>, Second<T>>(temp, d_in, d_a, d_b, d_c, d_count, n, d_state, state_bytes,
                                                          epoch);
}
// The single-tile three-way partition (three_way_single.cuh): the kernel a
// generated package would instantiate at its policy (the rung chosen by n
// inside), and one rung's tile alone (1 <= n <= THREADS * ITEMS).
template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) three_single_kernel(const T* d_in, T* d_a, T* d_b, T* d_c, long long* d_count,
                                                               long long n)
{
  ::gocccl::three_way_partition_single<THREADS, ITEMS, T, First<T>, Second<T>>(d_in, d_a, d_b, d_c, d_count, n);
}
template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) three_rung_kernel(const T* d_in, T* d_a, T* d_b, T* d_c, long long* d_count,
                                                             long long n)
{
  using Tile = ::gocccl::detail::select::ThreeWayTile<THREADS, ITEMS, T>;
  __shared__ typename Tile::TempStorage temp;
  Tile::template run<First<T>, Second<T>>(temp, d_in, d_a, d_b, d_c, d_count, static_cast<int>(n));
}
template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) init1_kernel(void* d_state, long long state_bytes, long long tiles, long long* d_count)
{
  ::gocccl::select_init<THREADS, ITEMS, T>(d_state, state_bytes, tiles, d_count);
}
template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) ubk_kernel(const T* d_keys, const T* d_values, T* d_keys_out, T* d_values_out,
                                                      long long* d_count, long long n, void* d_state, long long state_bytes,
                                                      unsigned epoch)
{
  ::gocccl::unique_by_key<THREADS, ITEMS, T, T, Equal>(d_keys, d_values, d_keys_out, d_values_out, d_count, n, d_state,
                                                       state_bytes, epoch);
}

template <typename T>
struct Data
{
  long long n;
  std::vector<T> first, second, other, uniq, uvals;
  bench::Rotation<T>* xs;
  bench::Rotation<T>* rs;
};

template <typename T>
bool same(const std::vector<T>& got, const std::vector<T>& want)
{
  return got.size() >= want.size() && std::memcmp(got.data(), want.data(), want.size() * sizeof(T)) == 0;
}

template <int THREADS, int ITEMS, typename T, bool WIDE = false>
void shape(const Data<T>& d)
{
  const std::string system = "gocccl-" + std::to_string(THREADS) + "x" + std::to_string(ITEMS) + (WIDE ? "-wide" : "");
  const char* type = bench::type_name<T>();
  const long long n = d.n, s = sizeof(T), tile = THREADS * ITEMS, tiles = (n + tile - 1) / tile;
  bench::DeviceBuffer<T> a(static_cast<size_t>(n)), b(static_cast<size_t>(n)), c(static_cast<size_t>(n));
  bench::DeviceBuffer<long long> count(2);
  {
    // The carry: two counts packed into one word below 2^32 items (and not
    // WIDE), a pair of 64-bit counts otherwise.
    namespace sel = ::gocccl::detail::select;
    bench::EpochRegion state(tiles, !WIDE && tiles * tile < (1LL << 32) ? bench::EpochRegion::bytes_for<sel::PackedCounts::S>(tiles)
                                                                          : bench::EpochRegion::bytes_for<sel::WideCounts::S>(tiles));
    state.init_once(THREADS, [&](unsigned grid, void* p, long long bytes, long long t) {
      if (WIDE)
        init3_wide_kernel<THREADS, ITEMS, T><<<grid, THREADS>>>(p, bytes, t, count.get());
      else
        init3_kernel<THREADS, ITEMS, T><<<grid, THREADS>>>(p, bytes, t, count.get());
    });
    auto fn = [&](int i) {
      if (n == 0)
        init3_kernel<THREADS, ITEMS, T><<<1, THREADS>>>(nullptr, 0, 0, count.get()); // the counts alone
      else if (WIDE)
        three_wide_kernel<THREADS, ITEMS, T><<<static_cast<unsigned>(tiles), THREADS>>>(
          d.xs->get(i), a.get(), b.get(), c.get(), count.get(), n, state.ptr(), state.bytes(), state.next());
      else
        three_kernel<THREADS, ITEMS, T><<<static_cast<unsigned>(tiles), THREADS>>>(
          d.xs->get(i), a.get(), b.get(), c.get(), count.get(), n, state.ptr(), state.bytes(), state.next());
    };
    a.poison(), b.poison(), c.poison(), count.poison();
    fn(0);
    BENCH_CK(cudaDeviceSynchronize());
    BENCH_CK(cudaGetLastError());
    const std::vector<long long> got = count.to_host();
    if (got[0] != static_cast<long long>(d.first.size()) || got[1] != static_cast<long long>(d.second.size()) ||
        !same(a.to_host(), d.first) || !same(b.to_host(), d.second) || !same(c.to_host(), d.other))
      bench::fail(system.c_str(), "three_way_partition", type, n, 2 * s * n + 16, "counts or items differ");
    else
      bench::row(system.c_str(), "three_way_partition", type, n, bench::time_us(fn), 2 * s * n + 16, "");
  }
  if (!WIDE)
  {
    bench::EpochRegion state(tiles, bench::EpochRegion::bytes_for<long long>(tiles)); // one count
    state.init_once(THREADS, [&](unsigned grid, void* p, long long bytes, long long t) {
      init1_kernel<THREADS, ITEMS, T><<<grid, THREADS>>>(p, bytes, t, count.get());
    });
    auto fn = [&](int i) {
      if (n == 0)
        init1_kernel<THREADS, ITEMS, T><<<1, THREADS>>>(nullptr, 0, 0, count.get()); // the count alone
      else
        ubk_kernel<THREADS, ITEMS, T><<<static_cast<unsigned>(tiles), THREADS>>>(
          d.rs->get(i), d.xs->get(i), a.get(), b.get(), count.get(), n, state.ptr(), state.bytes(), state.next());
    };
    a.poison(), b.poison(), count.poison();
    fn(0);
    BENCH_CK(cudaDeviceSynchronize());
    BENCH_CK(cudaGetLastError());
    const long long runs = static_cast<long long>(d.uniq.size());
    if (count.to_host()[0] != runs || !same(a.to_host(), d.uniq) || !same(b.to_host(), d.uvals))
      bench::fail(system.c_str(), "unique_by_key", type, n, 2 * s * (n + runs) + 8, "count or items differ");
    else
      bench::row(system.c_str(), "unique_by_key", type, n, bench::time_us(fn), 2 * s * (n + runs) + 8, "");
  }
}

template <typename T>
void cub_rows(const Data<T>& d)
{
  const char* type = bench::type_name<T>();
  const long long n = d.n, s = sizeof(T), runs = static_cast<long long>(d.uniq.size());
  const int ni = static_cast<int>(n);
  bench::DeviceBuffer<T> a(static_cast<size_t>(n)), b(static_cast<size_t>(n)), c(static_cast<size_t>(n));
  bench::DeviceBuffer<int> count(2);
  size_t t3 = 0, tu = 0;
  BENCH_CK(cub::DevicePartition::If(nullptr, t3, d.xs->get(0), a.get(), b.get(), c.get(), count.get(), ni, First<T>(), Second<T>()));
  BENCH_CK(cub::DeviceSelect::UniqueByKey(nullptr, tu, d.rs->get(0), d.xs->get(0), a.get(), b.get(), count.get(), ni));
  bench::DeviceBuffer<unsigned char> temp(std::max(t3, tu));
  auto three = [&](int i) {
    size_t t = t3;
    BENCH_CK(cub::DevicePartition::If(temp.get(), t, d.xs->get(i), a.get(), b.get(), c.get(), count.get(), ni, First<T>(), Second<T>()));
  };
  count.poison();
  three(0);
  BENCH_CK(cudaDeviceSynchronize());
  std::vector<int> c3 = count.to_host();
  if (c3[0] != static_cast<int>(d.first.size()) || c3[1] != static_cast<int>(d.second.size()))
    bench::fail("cub", "three_way_partition", type, n, 2 * s * n + 8, "counts");
  else
    bench::row("cub", "three_way_partition", type, n, bench::time_us(three), 2 * s * n + 8, "");
  auto ubk = [&](int i) {
    size_t t = tu;
    BENCH_CK(cub::DeviceSelect::UniqueByKey(temp.get(), t, d.rs->get(i), d.xs->get(i), a.get(), b.get(), count.get(), ni));
  };
  count.poison();
  ubk(0);
  BENCH_CK(cudaDeviceSynchronize());
  if (count.to_host()[0] != static_cast<int>(runs))
    bench::fail("cub", "unique_by_key", type, n, 2 * s * (n + runs) + 4, "count");
  else
    bench::row("cub", "unique_by_key", type, n, bench::time_us(ubk), 2 * s * (n + runs) + 4, "");
}

template <typename T>
void run_type(uint64_t salt)
{
  for (long long n : bench::sizes())
  {
    Data<T> d;
    d.n = n;
    const std::vector<T> x = bench::random_items<T>(n, salt);
    const std::vector<T> group = bench::random_items<T>((n + 6) / 7, salt + 100);
    std::vector<T> runs(static_cast<size_t>(n));
    for (long long i = 0; i < n; ++i) runs[i] = group[i / 7];
    for (T v : x) (First<T>{}(v) ? d.first : Second<T>{}(v) ? d.second : d.other).push_back(v);
    for (long long i = 0; i < n; ++i)
      if (i == 0 || std::memcmp(&runs[i], &runs[i - 1], sizeof(T)) != 0)
      {
        d.uniq.push_back(runs[i]);
        d.uvals.push_back(x[i]);
      }
    bench::Rotation<T> xs(x), rs(runs);
    d.xs = &xs;
    d.rs = &rs;
    cub_rows(d);
    // The H200 run of 2026-12-01 (bench/NOTES.md) timed 128x16, 256x11,
    // 320x12, 384x12 and 384x17 too; these are the shapes it chose and the
    // runner-up at 2^20.
    shape<256, 23, T>(d);       // three-way (CUB 3.0's sm_90 tuning for 64-bit offsets)
    shape<256, 23, T, true>(d); // the same with the counts as a pair
    shape<384, 12, T>(d);
    shape<512, 14, T>(d); // unique_by_key (CUB 3.0's sm_90 tuning, 4-byte keys and values)
  }
}

// three_rows checks one three-way partition call fn(i) (one launch, or
// CUB's call) against the host's parts and counts, then times it. CountT is
// the counts' type (long long for gocccl, int for CUB).
template <typename T, typename CountT, typename F>
void three_rows(const char* system, const Data<T>& d, bench::DeviceBuffer<T>& a, bench::DeviceBuffer<T>& b,
                bench::DeviceBuffer<T>& c, bench::DeviceBuffer<CountT>& count, F fn)
{
  const char* type = bench::type_name<T>();
  const long long n = d.n, bytes = 2 * static_cast<long long>(sizeof(T)) * n + 2 * static_cast<long long>(sizeof(CountT));
  a.poison(), b.poison(), c.poison(), count.poison();
  fn(0);
  BENCH_CK(cudaDeviceSynchronize());
  BENCH_CK(cudaGetLastError());
  const std::vector<CountT> got = count.to_host();
  if (got[0] != static_cast<CountT>(d.first.size()) || got[1] != static_cast<CountT>(d.second.size()) ||
      !same(a.to_host(), d.first) || !same(b.to_host(), d.second) || !same(c.to_host(), d.other))
    bench::fail(system, "three_way_partition", type, n, bytes, "counts or items differ");
  else
    bench::row(system, "three_way_partition", type, n, bench::time_us(fn), bytes, "");
}

// rung_rows: the rung THREADS x ITEMS of the single-tile kernel alone.
template <int THREADS, int ITEMS, typename T>
void rung_rows(const Data<T>& d, bench::DeviceBuffer<T>& a, bench::DeviceBuffer<T>& b, bench::DeviceBuffer<T>& c,
               bench::DeviceBuffer<long long>& count)
{
  const std::string system = "gocccl-single-" + std::to_string(THREADS) + "x" + std::to_string(ITEMS);
  if (d.n > THREADS * ITEMS)
  {
    bench::skip(system.c_str(), "three_way_partition", bench::type_name<T>(), d.n, 2 * sizeof(T) * d.n + 16,
                "n does not fit the tile");
    return;
  }
  three_rows(system.c_str(), d, a, b, c, count, [&](int i) {
    three_rung_kernel<THREADS, ITEMS, T><<<1, THREADS>>>(d.xs->get(i), a.get(), b.get(), c.get(), count.get(), d.n);
  });
}

// small_type: the --only small rows of one type (see the top of the file).
template <typename T>
void small_type(uint64_t salt)
{
  constexpr int THREADS = 256, ITEMS = 23; // the sm_90 policy of 4-byte three-way partitions (threeWayPolicy)
  for (long long n : {1LL, 1023LL, 1024LL, 1025LL, 1500LL, 2047LL, 2048LL, 2049LL, 4096LL, 5888LL})
  {
    Data<T> d;
    d.n = n;
    const std::vector<T> x = bench::random_items<T>(n, salt);
    for (T v : x) (First<T>{}(v) ? d.first : Second<T>{}(v) ? d.second : d.other).push_back(v);
    bench::Rotation<T> xs(x);
    d.xs = &xs;
    d.rs = nullptr;
    bench::DeviceBuffer<T> a(static_cast<size_t>(n)), b(static_cast<size_t>(n)), c(static_cast<size_t>(n));
    {
      bench::DeviceBuffer<int> count(2);
      size_t bytes = 0;
      const int ni = static_cast<int>(n);
      BENCH_CK(cub::DevicePartition::If(nullptr, bytes, d.xs->get(0), a.get(), b.get(), c.get(), count.get(), ni, First<T>(),
                                        Second<T>()));
      bench::DeviceBuffer<unsigned char> temp(bytes);
      three_rows("cub", d, a, b, c, count, [&](int i) {
        size_t t = bytes;
        BENCH_CK(cub::DevicePartition::If(temp.get(), t, d.xs->get(i), a.get(), b.get(), c.get(), count.get(), ni,
                                          First<T>(), Second<T>()));
      });
    }
    bench::DeviceBuffer<long long> count(2);
    // Today: the sweep over one tile (d_state null, epoch 0), as
    // runtime/compaction.go's compactThrough launches it for tiles == 1.
    three_rows("gocccl-256x23", d, a, b, c, count, [&](int i) {
      three_kernel<THREADS, ITEMS, T><<<1, THREADS>>>(d.xs->get(i), a.get(), b.get(), c.get(), count.get(), n, nullptr, 0, 0);
    });
    three_rows("gocccl-single", d, a, b, c, count, [&](int i) {
      three_single_kernel<THREADS, ITEMS, T><<<1, THREADS>>>(d.xs->get(i), a.get(), b.get(), c.get(), count.get(), n);
    });
    rung_rows<THREADS, 4, T>(d, a, b, c, count);
    rung_rows<THREADS, 8, T>(d, a, b, c, count);
    rung_rows<THREADS, ITEMS, T>(d, a, b, c, count);
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "compact_tune");
  if (!bench::state().only.empty() && bench::wants("small"))
  {
    small_type<uint32_t>(1);
    small_type<float>(2);
  }
  if (bench::wants("tune"))
  {
    run_type<uint32_t>(1);
    run_type<float>(2);
  }
  return bench::finish();
}
