// compact_delay_tune.cu: the look-back waits of the compactions on sm_90, in
// one run: gocccl's select_if, partition_if, unique, three_way_partition and
// unique_by_key (kernels/include/gocccl/select.cuh) at the sm_90 tiles of
// internal/algo/select.go, each with CUB's default waits (DefaultDelay, what
// the Go runtime ran before) and with the waits of CUB 3's sm_90 tuning for
// the tile (what internal/algo/select.go now sets), beside CUB's own call
// (cub::DeviceSelect::If, DevicePartition::If, DeviceSelect::Unique,
// DevicePartition::If with two predicates, DeviceSelect::UniqueByKey; int
// num_items, as bench/cub/select.cu). Partition also runs CUB's partition
// tuning (256 x 14, FixedDelay<536, 1055>) and its waits on our tile.
//
// Inputs and operators are bench/cub/select.cu's (select_ops.cuh): select
// and partition keep odd integers / x < 0.5; three-way x % 3 == 0, then == 1
// (float32: x < 1/3, then < 2/3); unique and unique_by_key over runs of 7
// (unique_by_key: values of the type). gocccl's rows are the Go runtime's
// dispatch: one sweep launch a call over epoch tile states
// (epoch_region.cuh), the init run once per row before the checked call, as
// the runtime runs it once per stream region. Every output and count is
// checked in full against the host before a row is timed (outputs poisoned
// first). Rows in bench.cuh's format; the system column names the tile and
// the waits: "gocccl-384x17-default", "gocccl-384x17-fixed76_1150",
// "gocccl-256x23-nodelay910", or "cub". --only select,partition,unique,
// three_way_partition,unique_by_key picks algorithms.
//
// Build and run on the GPU machine, from the repository root (about 25 s to
// build, one nvcc process; 40-60 s to run at 2^24 and 2^28, most of it the
// host's inputs and checks). ptxas (CUDA 13, sm_90): the waits change no
// sweep's registers (select 56 / 56, partition 56, unique 56, 256 x 14
// partition 48, unique_by_key 64, three-way 96 uint32 / 123 float32):
//   nvcc -std=c++17 -O3 -arch=sm_90 -Ikernels/include -Ibench/cub \
//     -o /tmp/compact_delay_tune bench/cub/tune/compact_delay_tune.cu
//   /tmp/compact_delay_tune --sizes 24,28 --runs 50
#include "bench.cuh"
#include "epoch_region.cuh"
#include "select_ops.cuh"

#include <gocccl/select.cuh>

#include <cub/device/device_partition.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <string>
#include <vector>

using gocccl::DefaultDelay;
using gocccl::FixedDelay;
using gocccl::NoDelay;

// The waits of a row, as its system column names them.
template <typename D> struct DelayName;
template <> struct DelayName<DefaultDelay>
{
  static std::string get() { return "default"; }
};
template <unsigned NS, unsigned L2> struct DelayName<FixedDelay<NS, L2>>
{
  static std::string get() { return "fixed" + std::to_string(NS) + "_" + std::to_string(L2); }
};
template <unsigned L2> struct DelayName<NoDelay<L2>>
{
  static std::string get() { return "nodelay" + std::to_string(L2); }
};

template <int THREADS, int ITEMS, typename D>
std::string system_name()
{
  return "gocccl-" + std::to_string(THREADS) + "x" + std::to_string(ITEMS) + "-" + DelayName<D>::get();
}

// ---- kernels, as emit/cuda.go instantiates them (the policy's tag last) ----

template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) init1_kernel(void* d_state, long long state_bytes, long long tiles, long long* d_count)
{
  ::gocccl::select_init<THREADS, ITEMS, T>(d_state, state_bytes, tiles, d_count);
}
template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) init2_kernel(void* d_state, long long state_bytes, long long tiles, long long* d_count)
{
  ::gocccl::select_init_pair2<THREADS, ITEMS, T>(d_state, state_bytes, tiles, d_count);
}
template <int THREADS, int ITEMS, typename T, typename D>
__global__ void __launch_bounds__(THREADS) select_sweep(const T* d_in, T* d_out, long long* d_count, long long n, void* d_state,
                                                        long long state_bytes, unsigned epoch)
{
  ::gocccl::select_if<THREADS, ITEMS, T, Keep<T>>(d_in, d_out, d_count, n, d_state, state_bytes, epoch, D());
}
template <int THREADS, int ITEMS, typename T, typename D>
__global__ void __launch_bounds__(THREADS) partition_sweep(const T* d_in, T* d_out, long long* d_count, long long n, void* d_state,
                                                           long long state_bytes, unsigned epoch)
{
  ::gocccl::partition_if<THREADS, ITEMS, T, Keep<T>>(d_in, d_out, d_count, n, d_state, state_bytes, epoch, D());
}
template <int THREADS, int ITEMS, typename T, typename D>
__global__ void __launch_bounds__(THREADS) unique_sweep(const T* d_in, T* d_out, long long* d_count, long long n, void* d_state,
                                                        long long state_bytes, unsigned epoch)
{
  ::gocccl::unique<THREADS, ITEMS, T, Equal>(d_in, d_out, d_count, n, d_state, state_bytes, epoch, D());
}
template <int THREADS, int ITEMS, typename T, typename D>
__global__ void __launch_bounds__(THREADS) three_sweep(const T* d_in, T* d_a, T* d_b, T* d_c, long long* d_count, long long n,
                                                       void* d_state, long long state_bytes, unsigned epoch)
{
  ::gocccl::three_way_partition<THREADS, ITEMS, T, First<T>, Second<T>>(d_in, d_a, d_b, d_c, d_count, n, d_state, state_bytes,
                                                                        epoch, D());
}
template <int THREADS, int ITEMS, typename T, typename D>
__global__ void __launch_bounds__(THREADS) ubk_sweep(const T* d_keys, const T* d_values, T* d_keys_out, T* d_values_out,
                                                     long long* d_count, long long n, void* d_state, long long state_bytes,
                                                     unsigned epoch)
{
  ::gocccl::unique_by_key<THREADS, ITEMS, T, T, Equal>(d_keys, d_values, d_keys_out, d_values_out, d_count, n, d_state,
                                                       state_bytes, epoch, D());
}

// ---- inputs and host results ----

template <typename T>
struct Data
{
  long long n = 0;
  std::vector<T> sel, part, uniq, uvals, first, second, other;
  bench::Rotation<T>* xs = nullptr; // random items
  bench::Rotation<T>* rs = nullptr; // runs of 7
};

template <typename T>
bool same(const std::vector<T>& got, const std::vector<T>& want)
{
  return got.size() >= want.size() && std::memcmp(got.data(), want.data(), want.size() * sizeof(T)) == 0;
}

// ---- gocccl rows ----

// one times launch(i, state) after checking its first call; carry is the
// scan value the tile states hold, init2 picks select_init_pair2.
template <int THREADS, int ITEMS, typename T, typename Carry, bool INIT2, typename Launch, typename Check>
void one(const std::string& system, const char* alg, long long n, long long bytes, bench::DeviceBuffer<long long>& count,
         Launch&& launch, Check&& check)
{
  const long long tile = THREADS * ITEMS, tiles = (n + tile - 1) / tile;
  bench::EpochRegion state(tiles, bench::EpochRegion::bytes_for<Carry>(tiles));
  state.init_once(THREADS, [&](unsigned grid, void* p, long long b, long long t) {
    if (INIT2)
      init2_kernel<THREADS, ITEMS, T><<<grid, THREADS>>>(p, b, t, count.get());
    else
      init1_kernel<THREADS, ITEMS, T><<<grid, THREADS>>>(p, b, t, count.get());
  });
  auto fn = [&](int i) { launch(i, static_cast<unsigned>(tiles), state.ptr(), state.bytes(), state.next()); };
  count.poison();
  fn(0);
  BENCH_CK(cudaDeviceSynchronize());
  BENCH_CK(cudaGetLastError());
  const std::string bad = check(count.to_host());
  if (!bad.empty())
    bench::fail(system.c_str(), alg, bench::type_name<T>(), n, bytes, bad);
  else
    bench::row(system.c_str(), alg, bench::type_name<T>(), n, bench::time_us(fn), bytes, "");
}

std::string want_count(long long got, size_t want, const char* what)
{
  if (got == static_cast<long long>(want)) return "";
  return std::string(what) + " " + std::to_string(got) + ", want " + std::to_string(want);
}

template <int THREADS, int ITEMS, typename T, typename D>
void select_row(const Data<T>& d)
{
  const long long n = d.n;
  bench::DeviceBuffer<T> out(static_cast<size_t>(n));
  bench::DeviceBuffer<long long> count(1);
  out.poison();
  one<THREADS, ITEMS, T, long long, false>(
    system_name<THREADS, ITEMS, D>(), "select", n, static_cast<long long>(sizeof(T)) * (n + d.sel.size()) + 8, count,
    [&](int i, unsigned grid, void* p, long long b, unsigned e) {
      select_sweep<THREADS, ITEMS, T, D><<<grid, THREADS>>>(d.xs->get(i), out.get(), count.get(), n, p, b, e);
    },
    [&](const std::vector<long long>& c) {
      std::string bad = want_count(c[0], d.sel.size(), "count");
      if (bad.empty() && !same(out.to_host(), d.sel)) bad = "selected items differ";
      return bad;
    });
}

template <int THREADS, int ITEMS, typename T, typename D>
void partition_row(const Data<T>& d)
{
  const long long n = d.n;
  bench::DeviceBuffer<T> out(static_cast<size_t>(n));
  bench::DeviceBuffer<long long> count(1);
  out.poison();
  one<THREADS, ITEMS, T, long long, false>(
    system_name<THREADS, ITEMS, D>(), "partition", n, 2 * static_cast<long long>(sizeof(T)) * n + 8, count,
    [&](int i, unsigned grid, void* p, long long b, unsigned e) {
      partition_sweep<THREADS, ITEMS, T, D><<<grid, THREADS>>>(d.xs->get(i), out.get(), count.get(), n, p, b, e);
    },
    [&](const std::vector<long long>& c) {
      std::string bad = want_count(c[0], d.sel.size(), "count");
      if (bad.empty() && !same(out.to_host(), d.part)) bad = "partitioned items differ";
      return bad;
    });
}

template <int THREADS, int ITEMS, typename T, typename D>
void unique_row(const Data<T>& d)
{
  const long long n = d.n;
  bench::DeviceBuffer<T> out(static_cast<size_t>(n));
  bench::DeviceBuffer<long long> count(1);
  out.poison();
  one<THREADS, ITEMS, T, long long, false>(
    system_name<THREADS, ITEMS, D>(), "unique", n, static_cast<long long>(sizeof(T)) * (n + d.uniq.size()) + 8, count,
    [&](int i, unsigned grid, void* p, long long b, unsigned e) {
      unique_sweep<THREADS, ITEMS, T, D><<<grid, THREADS>>>(d.rs->get(i), out.get(), count.get(), n, p, b, e);
    },
    [&](const std::vector<long long>& c) {
      std::string bad = want_count(c[0], d.uniq.size(), "count");
      if (bad.empty() && !same(out.to_host(), d.uniq)) bad = "unique items differ";
      return bad;
    });
}

template <int THREADS, int ITEMS, typename T, typename D>
void three_row(const Data<T>& d)
{
  namespace sel = ::gocccl::detail::select;
  const long long n = d.n;
  bench::DeviceBuffer<T> a(static_cast<size_t>(n)), b(static_cast<size_t>(n)), c(static_cast<size_t>(n));
  bench::DeviceBuffer<long long> count(2);
  a.poison(), b.poison(), c.poison();
  // The runtime's carry below 2^32 items: the two counts packed in one word.
  one<THREADS, ITEMS, T, sel::PackedCounts::S, true>(
    system_name<THREADS, ITEMS, D>(), "three_way_partition", n, 2 * static_cast<long long>(sizeof(T)) * n + 16, count,
    [&](int i, unsigned grid, void* p, long long bytes, unsigned e) {
      three_sweep<THREADS, ITEMS, T, D><<<grid, THREADS>>>(d.xs->get(i), a.get(), b.get(), c.get(), count.get(), n, p, bytes, e);
    },
    [&](const std::vector<long long>& got) {
      std::string bad = want_count(got[0], d.first.size(), "first count");
      if (bad.empty()) bad = want_count(got[1], d.second.size(), "second count");
      if (bad.empty() && (!same(a.to_host(), d.first) || !same(b.to_host(), d.second) || !same(c.to_host(), d.other)))
        bad = "partitioned items differ";
      return bad;
    });
}

template <int THREADS, int ITEMS, typename T, typename D>
void ubk_row(const Data<T>& d)
{
  const long long n = d.n;
  bench::DeviceBuffer<T> ko(static_cast<size_t>(n)), vo(static_cast<size_t>(n));
  bench::DeviceBuffer<long long> count(1);
  ko.poison(), vo.poison();
  one<THREADS, ITEMS, T, long long, false>(
    system_name<THREADS, ITEMS, D>(), "unique_by_key", n, 2 * static_cast<long long>(sizeof(T)) * (n + d.uniq.size()) + 8,
    count,
    [&](int i, unsigned grid, void* p, long long b, unsigned e) {
      ubk_sweep<THREADS, ITEMS, T, D><<<grid, THREADS>>>(d.rs->get(i), d.xs->get(i), ko.get(), vo.get(), count.get(), n, p, b, e);
    },
    [&](const std::vector<long long>& c) {
      std::string bad = want_count(c[0], d.uniq.size(), "count");
      if (bad.empty() && (!same(ko.to_host(), d.uniq) || !same(vo.to_host(), d.uvals))) bad = "keys or values differ";
      return bad;
    });
}

// ---- CUB's rows ----

template <typename T, typename Call, typename Check>
void cub_row(const char* alg, long long n, long long bytes, Call&& call, Check&& check)
{
  size_t temp_bytes = 0;
  BENCH_CK(call(nullptr, temp_bytes, 0));
  bench::DeviceBuffer<unsigned char> temp(std::max<size_t>(temp_bytes, 1));
  auto fn = [&](int i) {
    size_t t = temp_bytes;
    BENCH_CK(call(temp.get(), t, i));
  };
  fn(0);
  BENCH_CK(cudaDeviceSynchronize());
  BENCH_CK(cudaGetLastError());
  const std::string bad = check();
  if (!bad.empty())
    bench::fail("cub", alg, bench::type_name<T>(), n, bytes, bad);
  else
    bench::row("cub", alg, bench::type_name<T>(), n, bench::time_us(fn), bytes, "");
}

template <typename T>
void cub_rows(const char* alg, const Data<T>& d)
{
  const long long n = d.n, s = sizeof(T);
  const int ni = static_cast<int>(n);
  bench::DeviceBuffer<T> a(static_cast<size_t>(n)), b(static_cast<size_t>(n)), c(static_cast<size_t>(n));
  bench::DeviceBuffer<int> count(2);
  a.poison(), b.poison(), c.poison(), count.poison();
  const std::string name = alg;
  if (name == "select")
    cub_row<T>(alg, n, s * (n + d.sel.size()) + 4,
               [&](void* t, size_t& tb, int i) { return cub::DeviceSelect::If(t, tb, d.xs->get(i), a.get(), count.get(), ni, Keep<T>()); },
               [&] {
                 std::string bad = want_count(count.to_host()[0], d.sel.size(), "count");
                 if (bad.empty() && !same(a.to_host(), d.sel)) bad = "selected items differ";
                 return bad;
               });
  else if (name == "partition")
    cub_row<T>(alg, n, 2 * s * n + 4,
               [&](void* t, size_t& tb, int i) { return cub::DevicePartition::If(t, tb, d.xs->get(i), a.get(), count.get(), ni, Keep<T>()); },
               [&] {
                 std::string bad = want_count(count.to_host()[0], d.sel.size(), "count");
                 if (bad.empty() && !same(a.to_host(), d.part)) bad = "partitioned items differ";
                 return bad;
               });
  else if (name == "unique")
    cub_row<T>(alg, n, s * (n + d.uniq.size()) + 4,
               [&](void* t, size_t& tb, int i) { return cub::DeviceSelect::Unique(t, tb, d.rs->get(i), a.get(), count.get(), ni); },
               [&] {
                 std::string bad = want_count(count.to_host()[0], d.uniq.size(), "count");
                 if (bad.empty() && !same(a.to_host(), d.uniq)) bad = "unique items differ";
                 return bad;
               });
  else if (name == "three_way_partition")
    cub_row<T>(alg, n, 2 * s * n + 8,
               [&](void* t, size_t& tb, int i) {
                 return cub::DevicePartition::If(t, tb, d.xs->get(i), a.get(), b.get(), c.get(), count.get(), ni, First<T>(),
                                                 Second<T>());
               },
               [&] {
                 const std::vector<int> got = count.to_host();
                 std::string bad = want_count(got[0], d.first.size(), "first count");
                 if (bad.empty()) bad = want_count(got[1], d.second.size(), "second count");
                 if (bad.empty() && (!same(a.to_host(), d.first) || !same(b.to_host(), d.second) || !same(c.to_host(), d.other)))
                   bad = "partitioned items differ";
                 return bad;
               });
  else
    cub_row<T>(alg, n, 2 * s * (n + d.uniq.size()) + 4,
               [&](void* t, size_t& tb, int i) {
                 return cub::DeviceSelect::UniqueByKey(t, tb, d.rs->get(i), d.xs->get(i), a.get(), b.get(), count.get(), ni);
               },
               [&] {
                 std::string bad = want_count(count.to_host()[0], d.uniq.size(), "count");
                 if (bad.empty() && (!same(a.to_host(), d.uniq) || !same(b.to_host(), d.uvals))) bad = "keys or values differ";
                 return bad;
               });
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
    std::vector<T> runs(static_cast<size_t>(n)), rej;
    for (long long i = 0; i < n; ++i) runs[i] = group[i / 7];
    for (T v : x)
    {
      (Keep<T>{}(v) ? d.sel : rej).push_back(v);
      (First<T>{}(v) ? d.first : Second<T>{}(v) ? d.second : d.other).push_back(v);
    }
    d.part = d.sel;
    d.part.insert(d.part.end(), rej.rbegin(), rej.rend());
    for (long long i = 0; i < n; ++i)
      if (i == 0 || std::memcmp(&runs[i], &runs[i - 1], sizeof(T)) != 0)
      {
        d.uniq.push_back(runs[i]);
        d.uvals.push_back(x[i]);
      }
    bench::Rotation<T> xs(x), rs(runs);
    d.xs = &xs;
    d.rs = &rs;

    // internal/algo/select.go's sm_90 4-byte tiles: compactPolicy 384 x 17
    // (CUB's select_if tuning, FixedDelay<76, 1150>), threeWayPolicy 256 x 23
    // (CUB's three-way tuning for 64-bit offsets, NoDelay<910>),
    // uniqueByKeyPolicy 512 x 14 (CUB's 4/4 unique_by_key tuning,
    // NoDelay<1045>).
    if (bench::wants("select"))
    {
      cub_rows("select", d);
      select_row<384, 17, T, DefaultDelay>(d);
      select_row<384, 17, T, FixedDelay<76, 1150>>(d);
    }
    if (bench::wants("partition"))
    {
      cub_rows("partition", d);
      partition_row<384, 17, T, DefaultDelay>(d);
      partition_row<384, 17, T, FixedDelay<76, 1150>>(d);
      partition_row<384, 17, T, FixedDelay<536, 1055>>(d); // CUB's partition waits on our tile
      partition_row<256, 14, T, FixedDelay<536, 1055>>(d); // CUB's sm_90 partition tuning
    }
    if (bench::wants("unique"))
    {
      cub_rows("unique", d);
      unique_row<384, 17, T, DefaultDelay>(d);
      unique_row<384, 17, T, FixedDelay<76, 1150>>(d);
    }
    if (bench::wants("three_way_partition"))
    {
      cub_rows("three_way_partition", d);
      three_row<256, 23, T, DefaultDelay>(d);
      three_row<256, 23, T, NoDelay<910>>(d);
    }
    if (bench::wants("unique_by_key"))
    {
      cub_rows("unique_by_key", d);
      ubk_row<512, 14, T, DefaultDelay>(d);
      ubk_row<512, 14, T, NoDelay<1045>>(d);
    }
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "compact_delay_tune");
  run_type<uint32_t>(1);
  run_type<float>(2);
  return bench::finish();
}
