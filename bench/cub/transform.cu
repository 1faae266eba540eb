// transform.cu: element-wise transforms of several inputs with CUB 3.0's
// device-level call, one TSV row each (bench.cuh's format), as
// bench/gpubench/transform_nm.go:
//
//   cub  transform3    cub::DeviceTransform::Transform over a
//                      cuda::std::tuple of three float32 inputs, a*x + b
//                      into one output; bytes read + written (16 an item)
//   cub  transform3x2  the same three inputs, a blend and its complement:
//                      the operator returns a cuda::std::tuple of two
//                      float32, written through a zip iterator of the two
//                      outputs (DeviceTransform has no multi-output form;
//                      the zip output takes it off its pointer-only paths);
//                      20 bytes an item
//
// Checks before timing: every output against a host loop, within a float32
// rounding (nvcc contracts a*x + b into an FMA; gocccl keeps Go's roundings).
//
// Usage: transform [--runs R] [--sizes 10,16,20,24,28] [--seed S]

#include "bench.cuh"

#include <cub/version.cuh>

#if CUB_VERSION >= 300000
#include <cub/device/device_transform.cuh>

#include <thrust/iterator/zip_iterator.h>

#include <cuda/std/tuple>
#endif

#include <cmath>
#include <string>
#include <vector>

#if CUB_VERSION >= 300000

struct Axpb
{
  __host__ __device__ float operator()(float a, float x, float b) const { return a * x + b; }
};

struct Lerp2
{
  __host__ __device__ ::cuda::std::tuple<float, float> operator()(float a, float b, float w) const
  {
    return {a + (b - a) * w, b + (a - b) * w};
  }
};

// close reports whether got is want within a few float32 roundings of
// values near 1 (the inputs are in [0, 1)).
inline bool close(float got, float want) { return std::fabs(got - want) <= 1e-5f * (1 + std::fabs(want)); }

void run_transform3()
{
  for (long long n : bench::sizes())
  {
    const std::vector<float> ha = bench::random_items<float>(n, 21), hx = bench::random_items<float>(n, 22),
                             hb = bench::random_items<float>(n, 23);
    bench::Rotation<float> a(ha), x(hx), b(hb);
    bench::DeviceBuffer<float> out(static_cast<size_t>(n));
    const long long bytes = n * 16;
    auto run = [&](int i) {
      BENCH_CK(cub::DeviceTransform::Transform(::cuda::std::make_tuple(a.get(i), x.get(i), b.get(i)), out.get(), n, Axpb{}));
    };
    out.poison();
    run(0);
    BENCH_CK(cudaDeviceSynchronize());
    const std::vector<float> got = out.to_host();
    long long bad = -1;
    for (long long i = 0; i < n && bad < 0; ++i)
    {
      const size_t k = static_cast<size_t>(i);
      if (!close(got[k], Axpb{}(ha[k], hx[k], hb[k]))) bad = i;
    }
    if (bad >= 0) bench::fail("cub", "transform3", "float32", n, bytes, "item " + std::to_string(bad) + " differs");
    else bench::row("cub", "transform3", "float32", n, bench::time_us(run), bytes, "DeviceTransform::Transform, tuple of 3 inputs, a*x+b");
  }
}

void run_transform3x2()
{
  for (long long n : bench::sizes())
  {
    const std::vector<float> ha = bench::random_items<float>(n, 31), hb = bench::random_items<float>(n, 32),
                             hw = bench::random_items<float>(n, 33);
    bench::Rotation<float> a(ha), b(hb), w(hw);
    bench::DeviceBuffer<float> out1(static_cast<size_t>(n)), out2(static_cast<size_t>(n));
    const long long bytes = n * 20;
    auto outs = thrust::make_zip_iterator(out1.get(), out2.get());
    auto run = [&](int i) {
      BENCH_CK(cub::DeviceTransform::Transform(::cuda::std::make_tuple(a.get(i), b.get(i), w.get(i)), outs, n, Lerp2{}));
    };
    out1.poison();
    out2.poison();
    run(0);
    BENCH_CK(cudaDeviceSynchronize());
    const std::vector<float> g1 = out1.to_host(), g2 = out2.to_host();
    long long bad = -1;
    for (long long i = 0; i < n && bad < 0; ++i)
    {
      const size_t k = static_cast<size_t>(i);
      const auto want = Lerp2{}(ha[k], hb[k], hw[k]);
      if (!close(g1[k], ::cuda::std::get<0>(want)) || !close(g2[k], ::cuda::std::get<1>(want))) bad = i;
    }
    if (bad >= 0) bench::fail("cub", "transform3x2", "float32", n, bytes, "item " + std::to_string(bad) + " differs");
    else bench::row("cub", "transform3x2", "float32", n, bench::time_us(run), bytes,
                    "DeviceTransform::Transform, tuple of 3 inputs, tuple result through a zip of 2 outputs");
  }
}

#endif // CUB_VERSION >= 300000

int main(int argc, char** argv)
{
  bench::init(argc, argv, "transform");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
#if CUB_VERSION >= 300000
  run_transform3();
  run_transform3x2();
#else
  bench::skip("cub", "transform3", "float32", 0, 0, "DeviceTransform over a tuple of inputs needs CUB 3.0 or later");
#endif
  return bench::finish();
}
