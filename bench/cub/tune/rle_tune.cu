// rle_tune.cu: gocccl's rle_encode (kernels/include/gocccl/select.cuh) at
// several tile shapes, look-back waits and register caps beside
// cub::DeviceRunLengthEncode::Encode, in one run, to choose RunLengthEncode's
// sm_90 policy (internal/algo/rle.go; CUB's Encode is its reduce-by-key over
// constant 1s, tuned at 192 x 14 for 4-byte keys and lengths). The input is
// bench/cub/select.cu's: runs of 7 equal items. CUB's rows come with int32
// lengths (the bench's reference) and with int64 lengths, as gocccl writes
// them. Rows in bench.cuh's format; the system column names the shape
// ("gocccl-128x16") or "cub". Every output and count is checked against the
// host before the shape is timed.
//
// Build on the GPU machine, from the repository root:
//   nvcc -std=c++17 -O3 -arch=sm_90 -Ikernels/include -Ibench/cub \
//     -o /tmp/rle_tune bench/cub/tune/rle_tune.cu
//   /tmp/rle_tune --sizes 16,20,24,28
#include "bench.cuh"
#include "epoch_region.cuh"
#include "select_ops.cuh"

#include <gocccl/iterator.cuh>
#include <gocccl/reduce_by_key.cuh>
#include <gocccl/select.cuh>

#include <cub/device/device_run_length_encode.cuh>

#include <string>
#include <type_traits>
#include <vector>

template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) init_kernel(void* d_state, long long state_bytes, long long tiles, long long* d_count)
{
  ::gocccl::select_init_pair<THREADS, ITEMS, T>(d_state, state_bytes, tiles, d_count);
}
template <int THREADS, int ITEMS, typename T, typename L, typename D, int MINB>
__global__ void __launch_bounds__(THREADS, MINB) rle_kernel(const T* d_in, T* d_unique, L* d_lengths, long long* d_count,
                                                            long long n, void* d_state, long long state_bytes,
                                                            unsigned epoch)
{
  ::gocccl::rle_encode<THREADS, ITEMS, T, Equal>(d_in, d_unique, d_lengths, d_count, n, d_state, state_bytes, epoch, D());
}

// RunLengthEncode as CUB does it: gocccl's reduce_by_key over constant ones
// (no value loads), summing int lengths. Rows "gocccl-rbk-TxI".
struct PlusInt
{
  __device__ __forceinline__ int operator()(int a, int b) const { return a + b; }
};
template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) rbk_init_kernel(void* d_state, long long state_bytes, long long tiles)
{
  ::gocccl::reduce_by_key_init<THREADS, ITEMS, T, int, Equal, PlusInt>(d_state, state_bytes, tiles);
}
template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) rbk_rle_kernel(const T* d_in, T* d_unique, int* d_lengths, int64_t* d_count,
                                                          long long n, void* d_state, long long state_bytes,
                                                          unsigned epoch)
{
  ::gocccl::reduce_by_key<THREADS, ITEMS, T, int, Equal, PlusInt>(d_in, ::gocccl::it::Constant<int>{1}, d_unique, d_lengths,
                                                                  d_count, n, d_state, state_bytes, epoch);
}

template <typename T>
struct Data
{
  long long n;
  std::vector<T> uniq;
  std::vector<long long> lens;
  bench::Rotation<T>* in;
};

template <typename T, typename L>
bool same(const std::vector<T>& got, const std::vector<L>& want)
{
  if (got.size() < want.size()) return false;
  for (size_t i = 0; i < want.size(); ++i)
    if (static_cast<long long>(got[i]) != static_cast<long long>(want[i])) return false;
  return true;
}

template <typename T>
long long bytes_of(const Data<T>& d, int length_bytes)
{
  const long long runs = static_cast<long long>(d.uniq.size());
  return static_cast<long long>(sizeof(T)) * (d.n + runs) + length_bytes * (runs + 1);
}

// One shape, dispatched as runtime.RunLengthEncodeOp does in the steady state
// (one launch a call over epoch tile states, their init once before the
// checked call; one tile: no states),
// writing lengths of type L (runtime.RunLengthEncode writes int64; int32 rows,
// "-int32", tell what the length type costs beside CUB's int32 rows), with the
// look-back's waits D ("-fixed": CUB's sm_90 Encode tuning's, FixedDelay<284,
// 480>) and at least MINB blocks an SM ("-minbN", __launch_bounds__'s second
// argument).
template <int THREADS, int ITEMS, typename T, typename L = long long, typename D = ::gocccl::DefaultDelay, int MINB = 1>
void shape(const Data<T>& d)
{
  const bool fixed = !std::is_same<D, ::gocccl::DefaultDelay>::value;
  const std::string system = "gocccl-" + std::to_string(THREADS) + "x" + std::to_string(ITEMS) +
                             (fixed ? "-fixed" : "") + (sizeof(L) == 4 ? "-int32" : "") +
                             (MINB > 1 ? "-minb" + std::to_string(MINB) : "");
  const char* type = bench::type_name<T>();
  const long long n = d.n, tile = THREADS * ITEMS, tiles = (n + tile - 1) / tile;
  bench::DeviceBuffer<T> unique(static_cast<size_t>(n));
  bench::DeviceBuffer<L> lengths(static_cast<size_t>(n));
  bench::DeviceBuffer<long long> count(1);
  // rle_encode's carry: packed below 2^32 items, a pair of 64-bit values from there.
  namespace s = ::gocccl::detail::select;
  bench::EpochRegion state(tiles, tiles * tile < (1LL << 32) ? bench::EpochRegion::bytes_for<s::PackedCountPos::S>(tiles)
                                                             : bench::EpochRegion::bytes_for<s::WideCountPos::S>(tiles));
  state.init_once(THREADS, [&](unsigned grid, void* p, long long bytes, long long t) {
    init_kernel<THREADS, ITEMS, T><<<grid, THREADS>>>(p, bytes, t, count.get());
  });
  auto fn = [&](int i) {
    if (tiles == 0)
      init_kernel<THREADS, ITEMS, T><<<1, THREADS>>>(nullptr, 0, 0, count.get()); // the count alone
    else
      rle_kernel<THREADS, ITEMS, T, L, D, MINB><<<static_cast<unsigned>(tiles), THREADS>>>(
        d.in->get(i), unique.get(), lengths.get(), count.get(), n, state.ptr(), state.bytes(), state.next());
  };
  unique.poison(), lengths.poison(), count.poison();
  fn(0);
  BENCH_CK(cudaDeviceSynchronize());
  BENCH_CK(cudaGetLastError());
  if (count.to_host()[0] != static_cast<long long>(d.uniq.size()) || !same(unique.to_host(), d.uniq) ||
      !same(lengths.to_host(), d.lens))
    bench::fail(system.c_str(), "run_length_encode", type, n, bytes_of(d, sizeof(L)), "count, runs or lengths differ");
  else
    bench::row(system.c_str(), "run_length_encode", type, n, bench::time_us(fn), bytes_of(d, sizeof(L)),
               sizeof(L) == 4 ? "int32 lengths" : "int64 lengths");
}

// rbk_shape is dispatched as runtime.ReduceByKeyOp does: epoch tile states
// (the look-back's KeyValuePair<long long, int> is 16 bytes), the region's
// init by the first call, then one launch a call with the next epoch; the
// sweep alone, with no state, for a single tile (n == 0 included).
template <int THREADS, int ITEMS, typename T>
void rbk_shape(const Data<T>& d)
{
  const std::string system = "gocccl-rbk-" + std::to_string(THREADS) + "x" + std::to_string(ITEMS);
  const char* type = bench::type_name<T>();
  const long long n = d.n, tile = THREADS * ITEMS, tiles = std::max((n + tile - 1) / tile, 1LL);
  static_assert(::gocccl::detail::run_epoch_states<int>, "rbk_shape: epoch tile states");
  const long long state_bytes = static_cast<long long>(::gocccl::detail::RunTileState<int>::AllocationSize(tiles));
  const unsigned init_grid = static_cast<unsigned>(std::min((state_bytes / 8 + THREADS - 1) / THREADS, 4096LL));
  bench::DeviceBuffer<T> unique(static_cast<size_t>(n));
  bench::DeviceBuffer<int> lengths(static_cast<size_t>(n));
  bench::DeviceBuffer<int64_t> count(1);
  bench::DeviceBuffer<unsigned char> state(static_cast<size_t>(state_bytes));
  unsigned epoch = 0;
  auto fn = [&](int i) {
    if (tiles > 1 && epoch == 0)
      rbk_init_kernel<THREADS, ITEMS, T><<<init_grid, THREADS>>>(state.get(), state_bytes, tiles);
    rbk_rle_kernel<THREADS, ITEMS, T><<<static_cast<unsigned>(tiles), THREADS>>>(
      d.in->get(i), unique.get(), lengths.get(), count.get(), n, tiles > 1 ? state.get() : nullptr, state_bytes,
      tiles > 1 ? ++epoch : 0);
  };
  unique.poison(), lengths.poison(), count.poison();
  fn(0);
  BENCH_CK(cudaDeviceSynchronize());
  BENCH_CK(cudaGetLastError());
  if (count.to_host()[0] != static_cast<int64_t>(d.uniq.size()) || !same(unique.to_host(), d.uniq) ||
      !same(lengths.to_host(), d.lens))
    bench::fail(system.c_str(), "run_length_encode", type, n, bytes_of(d, 4), "count, runs or lengths differ");
  else
    bench::row(system.c_str(), "run_length_encode", type, n, bench::time_us(fn), bytes_of(d, 4),
               "int32 lengths; reduce_by_key over constant ones");
}

template <typename T, typename L>
void cub_row(const Data<T>& d, const char* system, const char* note)
{
  const char* type = bench::type_name<T>();
  const long long n = d.n;
  bench::DeviceBuffer<T> unique(static_cast<size_t>(n));
  bench::DeviceBuffer<L> lengths(static_cast<size_t>(n));
  bench::DeviceBuffer<int> count(1);
  size_t temp_bytes = 0;
  BENCH_CK(cub::DeviceRunLengthEncode::Encode(nullptr, temp_bytes, d.in->get(0), unique.get(), lengths.get(), count.get(),
                                              static_cast<int>(n)));
  bench::DeviceBuffer<unsigned char> temp(temp_bytes);
  auto fn = [&](int i) {
    size_t t = temp_bytes;
    BENCH_CK(cub::DeviceRunLengthEncode::Encode(temp.get(), t, d.in->get(i), unique.get(), lengths.get(), count.get(),
                                                static_cast<int>(n)));
  };
  unique.poison(), lengths.poison(), count.poison();
  fn(0);
  BENCH_CK(cudaDeviceSynchronize());
  if (count.to_host()[0] != static_cast<int>(d.uniq.size()) || !same(unique.to_host(), d.uniq) ||
      !same(lengths.to_host(), d.lens))
    bench::fail(system, "run_length_encode", type, n, bytes_of(d, sizeof(L)), "count, runs or lengths differ");
  else
    bench::row(system, "run_length_encode", type, n, bench::time_us(fn), bytes_of(d, sizeof(L)), note);
}

template <typename T>
void run_type(uint64_t salt)
{
  for (long long n : bench::sizes())
  {
    Data<T> d;
    d.n = n;
    const std::vector<T> group = bench::random_items<T>((n + 6) / 7, salt);
    std::vector<T> runs(static_cast<size_t>(n));
    for (long long i = 0; i < n; ++i) runs[i] = group[i / 7];
    for (long long i = 0; i < n; ++i)
    {
      if (i == 0 || std::memcmp(&runs[i], &runs[i - 1], sizeof(T)) != 0)
      {
        d.uniq.push_back(runs[i]);
        d.lens.push_back(0);
      }
      ++d.lens.back();
    }
    bench::Rotation<T> in(runs);
    d.in = &in;
    cub_row<T, int>(d, "cub", "int32 lengths");
    cub_row<T, long long>(d, "cub-int64", "int64 lengths");
    using Fixed = ::gocccl::FixedDelay<284, 480>; // CUB's sm_90 Encode tuning, 4-byte keys and lengths
    shape<192, 14, T, long long, Fixed, 5>(d); // rlePolicy since 2026-12-02 (second session)
    shape<192, 14, T, int, Fixed, 5>(d);
    shape<192, 14, T, long long, Fixed, 6>(d);
    shape<192, 14, T, long long, ::gocccl::DefaultDelay, 5>(d);
    shape<256, 13, T, long long, Fixed, 4>(d);
    rbk_shape<256, 18, T>(d); // ReduceByKey's policy
    rbk_shape<128, 6, T>(d);  // CUB's ReduceByKey DefaultPolicy (its tile for a custom operator)
    rbk_shape<192, 14, T>(d); // CUB's Encode tile
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "rle_tune");
  run_type<uint32_t>(1);
  run_type<float>(2);
  return bench::finish();
}
