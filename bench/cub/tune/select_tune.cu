// select_tune.cu: gocccl's select_if (kernels/include/gocccl/select.cuh) at
// several tile shapes beside cub::DeviceSelect::If, in one run, to choose the
// sm_90 policy. Rows in bench.cuh's format; the system column names the
// shape ("gocccl-128x16") or "cub". Every shape's output and count are
// checked against the host before it is timed. gocccl's rows are one launch
// a call: select_if over epoch tile states (epoch_region.cuh), the init
// kernel run once per shape before the checked call, as the Go runtime runs
// it once per stream region; CUB's rows are its init and sweep.
//
// Build on the GPU machine, from the repository root:
//   nvcc -std=c++17 -O3 -arch=sm_90 -Ikernels/include -Ibench/cub \
//     -o /tmp/select_tune bench/cub/tune/select_tune.cu
//   /tmp/select_tune --sizes 20,24,28
#include "bench.cuh"
#include "epoch_region.cuh"
#include "select_ops.cuh"

#include <gocccl/select.cuh>

#include <cub/device/device_select.cuh>

#include <string>
#include <vector>

template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) init_kernel(void* d_state, long long state_bytes, long long tiles, long long* d_count)
{
  ::gocccl::select_init<THREADS, ITEMS, T, Keep<T>>(d_state, state_bytes, tiles, d_count);
}

template <int THREADS, int ITEMS, typename T>
__global__ void __launch_bounds__(THREADS) sweep_kernel(const T* d_in, T* d_out, long long* d_count, long long n, void* d_state, long long state_bytes,
                                                        unsigned epoch)
{
  ::gocccl::select_if<THREADS, ITEMS, T, Keep<T>>(d_in, d_out, d_count, n, d_state, state_bytes, epoch);
}

template <int THREADS, int ITEMS, typename T>
void shape(const bench::Rotation<T>& xs, const std::vector<T>& want, long long n)
{
  const std::string system = "gocccl-" + std::to_string(THREADS) + "x" + std::to_string(ITEMS);
  const long long tile = THREADS * ITEMS, tiles = (n + tile - 1) / tile;
  bench::EpochRegion state(tiles, bench::EpochRegion::bytes_for<long long>(tiles)); // select.cuh's carry: one count
  bench::DeviceBuffer<T> out(static_cast<size_t>(n));
  bench::DeviceBuffer<long long> count(1);
  state.init_once(THREADS, [&](unsigned grid, void* d, long long bytes, long long t) {
    init_kernel<THREADS, ITEMS, T><<<grid, THREADS>>>(d, bytes, t, count.get());
  });
  auto fn = [&](int i) {
    if (n == 0)
      init_kernel<THREADS, ITEMS, T><<<1, THREADS>>>(nullptr, 0, 0, count.get()); // the count alone
    else
      sweep_kernel<THREADS, ITEMS, T><<<static_cast<unsigned>(tiles), THREADS>>>(
        xs.get(i), out.get(), count.get(), n, state.ptr(), state.bytes(), state.next());
  };
  out.poison();
  count.poison();
  fn(0);
  BENCH_CK(cudaDeviceSynchronize());
  BENCH_CK(cudaGetLastError());
  const long long got = count.to_host()[0];
  const std::vector<T> o = out.to_host();
  const char* type = bench::type_name<T>();
  const long long bytes = static_cast<long long>(sizeof(T)) * (n + static_cast<long long>(want.size()));
  if (got != static_cast<long long>(want.size()) || std::memcmp(o.data(), want.data(), want.size() * sizeof(T)) != 0)
    bench::fail(system.c_str(), "select", type, n, bytes, "count " + std::to_string(got) + ", want " + std::to_string(want.size()) + " or items differ");
  else
    bench::row(system.c_str(), "select", type, n, bench::time_us(fn), bytes, "");
}

template <typename T>
void run_type(uint64_t salt)
{
  for (long long n : bench::sizes())
  {
    const std::vector<T> x = bench::random_items<T>(n, salt);
    std::vector<T> want;
    for (T v : x)
      if (Keep<T>{}(v)) want.push_back(v);
    bench::Rotation<T> xs(x);
    {
      const int ni = static_cast<int>(n);
      bench::DeviceBuffer<T> out(static_cast<size_t>(n));
      bench::DeviceBuffer<int> count(1);
      size_t temp_bytes = 0;
      BENCH_CK(cub::DeviceSelect::If(nullptr, temp_bytes, xs.get(0), out.get(), count.get(), ni, Keep<T>()));
      bench::DeviceBuffer<unsigned char> temp(temp_bytes);
      auto fn = [&](int i) {
        size_t t = temp_bytes;
        BENCH_CK(cub::DeviceSelect::If(temp.get(), t, xs.get(i), out.get(), count.get(), ni, Keep<T>()));
      };
      out.poison();
      fn(0);
      BENCH_CK(cudaDeviceSynchronize());
      const long long bytes = static_cast<long long>(sizeof(T)) * (n + static_cast<long long>(want.size()));
      if (count.to_host()[0] != static_cast<int>(want.size()))
        bench::fail("cub", "select", bench::type_name<T>(), n, bytes, "count");
      else
        bench::row("cub", "select", bench::type_name<T>(), n, bench::time_us(fn), bytes, "");
    }
    shape<128, 16, T>(xs, want, n); // the policy of 2026-12-01
    shape<256, 16, T>(xs, want, n);
    shape<256, 22, T>(xs, want, n);
    shape<384, 12, T>(xs, want, n);
    shape<384, 17, T>(xs, want, n); // CUB 3.0's sm_90 tuning for 4-byte items
    shape<512, 12, T>(xs, want, n);
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "select_tune");
  run_type<uint32_t>(1);
  run_type<float>(2);
  return bench::finish();
}
