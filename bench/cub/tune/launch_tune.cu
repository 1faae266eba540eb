// launch_tune.cu: the host cost of one kernel launch in each form the Go
// runtime could use, beside the CUDA runtime's <<<>>> that CUB's calls use.
// Every form launches the same one-block kernel with reduce's tile
// arguments (input, count, output, init). Per form: the median wall time of
// one launch call over 20 000 calls (synchronised every 64 so the queue never
// fills), and the event-timed time of one launch between two events on an
// idle stream (median of 2 000), which is what gpubench reports at 2^10;
// after_sync_us, the wall time of a launch right after a synchronise.
//
//   nvcc -std=c++17 -O3 -arch=sm_90 -o /tmp/launch_tune bench/cub/tune/launch_tune.cu -lcuda
//   /tmp/launch_tune
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { auto r_ = (x); if (r_ != 0) { std::fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, (int)r_); std::exit(1); } } while (0)

__global__ void tile_kernel(const float* in, long long n, float* out, float init) {
  __shared__ float s[256];
  float v = init;
  for (long long i = threadIdx.x; i < n; i += blockDim.x) v += in[i];
  s[threadIdx.x] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0;
    for (int i = 0; i < 256; ++i) t += s[i];
    *out = t;
  }
}

struct Params {
  const float* in;
  long long n;
  float* out;
  float init;
};

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  CK(cudaSetDevice(0));
  CK(cudaFree(0));
  CUcontext ctx;
  CK(cuCtxGetCurrent(&ctx));
  CUfunction f;
  CK(cudaGetFuncBySymbol((cudaFunction_t*)&f, (const void*)tile_kernel));
  float *in, *out;
  CK(cudaMalloc(&in, 1024 * sizeof(float)));
  CK(cudaMalloc(&out, sizeof(float)));
  // Small integers, so that every order of the float sum is exact.
  std::vector<float> host(1024);
  float want = 256.0f; // init 1 in each of the 256 threads
  for (int i = 0; i < 1024; ++i) {
    host[i] = float(i % 7 - 3);
    want += host[i];
  }
  CK(cudaMemcpy(in, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemset(out, 0xAB, sizeof(float))); // poison
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  Params p{in, 1024, out, 1.0f};
  // The kernel's parameters end at init: the buffer is that long, as the Go
  // runtime packs it (the driver rejects a buffer of another size, 701).
  size_t psize = offsetof(Params, init) + sizeof(float);
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &p, CU_LAUNCH_PARAM_BUFFER_SIZE, &psize, CU_LAUNCH_PARAM_END};
  void* params[] = {&p.in, &p.n, &p.out, &p.init};

  auto forms = std::vector<std::pair<const char*, int>>{
      {"runtime <<<>>>", 0}, {"cuLaunchKernel kernelParams", 1}, {"cuLaunchKernel extra", 2},
      {"cuCtxSetCurrent + extra (gocccl today)", 3}, {"cuCtxGetCurrent check + extra", 4},
      {"cuCtxSetCurrent + kernelParams", 5}, {"cuCtxGetCurrent check + kernelParams", 6}};
  auto launch = [&](int form) {
    CUcontext c;
    switch (form) {
      case 0: tile_kernel<<<1, 256, 0, st>>>(p.in, p.n, p.out, p.init); CK(cudaGetLastError()); break;
      case 1: CK(cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, st, params, nullptr)); break;
      case 2: CK(cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, st, nullptr, extra)); break;
      case 3: CK(cuCtxSetCurrent(ctx)); CK(cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, st, nullptr, extra)); break;
      case 4: CK(cuCtxGetCurrent(&c)); if (c != ctx) CK(cuCtxSetCurrent(ctx));
              CK(cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, st, nullptr, extra)); break;
      case 5: CK(cuCtxSetCurrent(ctx)); CK(cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, st, params, nullptr)); break;
      case 6: CK(cuCtxGetCurrent(&c)); if (c != ctx) CK(cuCtxSetCurrent(ctx));
              CK(cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, 0, st, params, nullptr)); break;
    }
  };
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int rep = 0; rep < 2; ++rep)
    for (auto& [name, form] : forms) {
      for (int i = 0; i < 1000; ++i) launch(form);
      CK(cudaStreamSynchronize(st));
      std::vector<double> host;
      for (int i = 0; i < 20000; ++i) {
        auto t0 = std::chrono::steady_clock::now();
        launch(form);
        auto t1 = std::chrono::steady_clock::now();
        host.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
        if (i % 64 == 63) CK(cudaStreamSynchronize(st));
      }
      CK(cudaStreamSynchronize(st));
      std::vector<double> after;
      for (int i = 0; i < 5000; ++i) {
        CK(cudaStreamSynchronize(st));
        auto t0 = std::chrono::steady_clock::now();
        launch(form);
        auto t1 = std::chrono::steady_clock::now();
        after.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
      }
      CK(cudaStreamSynchronize(st));
      std::vector<double> dev;
      for (int i = 0; i < 2000; ++i) {
        CK(cudaEventRecord(e0, st));
        launch(form);
        CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        float ms;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        dev.push_back(ms * 1e3);
      }
      std::printf("launch\t%-42s\thost_us %.3f\tafter_sync_us %.3f\tevent_us %.3f\n", name, median(host), median(after), median(dev));
    }
  float r;
  CK(cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost));
  if (r != want) { std::fprintf(stderr, "FAILED: result %g, want %g\n", r, want); return 1; }
  std::printf("check ok\n");
  return 0;
}
