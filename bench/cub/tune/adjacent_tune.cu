// adjacent_tune.cu: gocccl's adjacent_difference_left
// (kernels/include/gocccl/adjacent_difference.cuh) at several tile shapes
// beside cub::DeviceAdjacentDifference::SubtractLeftCopy and a device-to-device
// copy of the same bytes, in one run, to choose the sm_90 policy
// (internal/algo/adjacent.go: arch.MemBound(size, 16), i.e. 256 threads x
// 16 bytes, chosen from this harness's rows on the H200, 2026-12-04:
// the only shape at copy speed at 2^28; 32 bytes a thread, the policy
// before, took 2-3 % longer there). Rows in bench.cuh's format; the system column names the shape
// ("gocccl-256x8": threads x items) or "cub" / "cuda"; a - b over uint32,
// float32, uint64 and float64. Every shape's output is checked against the
// host (bit for bit) before it is timed. At the policy's shape two more
// pairs of rows: "-min8", compiled with __launch_bounds__(256, 8) (registers
// capped at 32: full occupancy; arch.Policy.MinBlocks), and "-go", the
// operator as gocccl-gen emits Go's a - b (gosem.cuh: for floats, the NaN
// fix-up branch that raises the registers of the Go kernels), without and
// with the cap.
//
// Build on the GPU machine, from the repository root (gocccl-gen's flags):
//   nvcc -std=c++17 -O3 -fmad=false -ftz=false -prec-div=true -prec-sqrt=true \
//     -arch=sm_90 -Xptxas -v -Ikernels/include -Ibench/cub \
//     -o /tmp/adjacent_tune bench/cub/tune/adjacent_tune.cu
//   /tmp/adjacent_tune --sizes 20,24,28
#include "bench.cuh"

#include <gocccl/gosem.cuh>
#include <gocccl/adjacent_difference.cuh>

#include <cub/device/device_adjacent_difference.cuh>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

struct Diff
{
  template <typename T>
  __host__ __device__ __forceinline__ T operator()(const T& a, const T& b) const
  {
    return a - b;
  }
};

// GoDiff is a - b as gocccl-gen emits it for a //gocccl:op.
struct GoDiff
{
  template <typename T>
  __device__ __forceinline__ T operator()(const T& a, const T& b) const
  {
    if constexpr (std::is_floating_point<T>::value)
      return ::gocccl::go::fsub<T>(a, b);
    else
      return a - b;
  }
};

// MIN_BLOCKS 0: __launch_bounds__(THREADS) alone, as gocccl-gen writes a
// policy without MinBlocks (an explicit 1 lets ptxas take more registers).
template <int THREADS, int ITEMS, int MIN_BLOCKS, typename Op, typename T>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS) adj_left(const T* in, T* out, long long n)
{
  gocccl::adjacent_difference_left<THREADS, ITEMS, T, Op>(in, out, n);
}

// check compares out with SubtractLeftCopy of h on the host, bit for bit.
template <typename T>
static bool check(const bench::DeviceBuffer<T>& out, const std::vector<T>& h)
{
  const std::vector<T> got = out.to_host();
  for (size_t i = 0; i < h.size(); ++i)
  {
    const T want = i == 0 ? h[0] : T(h[i] - h[i - 1]);
    if (std::memcmp(&want, &got[i], sizeof(T)) != 0) return false;
  }
  return true;
}

template <int THREADS, int ITEMS, int MIN_BLOCKS = 0, typename Op = Diff, typename T>
static void shape(const bench::Rotation<T>& xs, const std::vector<T>& h, bench::DeviceBuffer<T>& out)
{
  const std::string system = "gocccl-" + std::to_string(THREADS) + "x" + std::to_string(ITEMS) +
                             (std::is_same<Op, GoDiff>::value ? "-go" : "") + (MIN_BLOCKS > 0 ? "-min" + std::to_string(MIN_BLOCKS) : "");
  const long long n = xs.n(), tile = THREADS * ITEMS, bytes = 2 * n * static_cast<long long>(sizeof(T));
  auto fn = [&](int i) {
    adj_left<THREADS, ITEMS, MIN_BLOCKS, Op, T><<<static_cast<unsigned>((n + tile - 1) / tile), THREADS>>>(xs.get(i), out.get(), n);
  };
  out.poison();
  fn(0);
  BENCH_CK(cudaGetLastError());
  BENCH_CK(cudaDeviceSynchronize());
  if (!check(out, h))
  {
    bench::fail(system.c_str(), "adjacent_difference", bench::type_name<T>(), n, bytes, "output differs from the host's");
    return;
  }
  bench::row(system.c_str(), "adjacent_difference", bench::type_name<T>(), n, bench::time_us(fn), bytes,
             std::to_string(ITEMS * int(sizeof(T))) + " bytes a thread");
}

template <typename T>
static void run(long long n, uint64_t salt)
{
  const std::vector<T> h = bench::random_items<T>(n, salt);
  bench::Rotation<T> xs(h);
  bench::DeviceBuffer<T> out(static_cast<size_t>(n));
  const long long bytes = 2 * n * static_cast<long long>(sizeof(T));
  bench::copy_row(xs, h);

  size_t tb = 0;
  BENCH_CK(cub::DeviceAdjacentDifference::SubtractLeftCopy(nullptr, tb, xs.get(0), out.get(), n, Diff()));
  bench::DeviceBuffer<unsigned char> tmp(tb);
  auto cubf = [&](int i) {
    BENCH_CK(cub::DeviceAdjacentDifference::SubtractLeftCopy(tmp.get(), tb, xs.get(i), out.get(), n, Diff()));
  };
  out.poison();
  cubf(0);
  BENCH_CK(cudaDeviceSynchronize());
  if (check(out, h))
    bench::row("cub", "adjacent_difference", bench::type_name<T>(), n, bench::time_us(cubf), bytes, "SubtractLeftCopy");
  else
    bench::fail("cub", "adjacent_difference", bench::type_name<T>(), n, bytes, "output differs from the host's");

  // 16 (the policy at 256 threads), 32 and 64 bytes a thread.
  constexpr int I16 = 16 / int(sizeof(T)), I32 = 32 / int(sizeof(T)), I64 = 64 / int(sizeof(T));
  shape<256, I16>(xs, h, out);
  shape<256, I16, 8>(xs, h, out);
  shape<256, I16, 0, GoDiff>(xs, h, out);
  shape<256, I16, 8, GoDiff>(xs, h, out);
  shape<256, I32>(xs, h, out);
  shape<256, I64>(xs, h, out);
  shape<128, I16>(xs, h, out);
  shape<128, I32>(xs, h, out);
  shape<512, I16>(xs, h, out);
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "adjacent_tune");
  for (long long n : bench::sizes())
  {
    run<uint32_t>(n, 1);
    run<float>(n, 2);
    run<uint64_t>(n, 3);
    run<double>(n, 4);
  }
  return bench::finish();
}
