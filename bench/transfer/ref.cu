// ref.cu: cudaMemcpyAsync between cudaMallocHost memory and the device, the
// link's best, in bench's row format, beside bench/transfer's gocccl rows.
// Build: nvcc -O2 -o transfer-ref ref.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                               \
	do {                                                                                       \
		cudaError_t e_ = (x);                                                                  \
		if (e_ != cudaSuccess) {                                                               \
			std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
			std::exit(1);                                                                      \
		}                                                                                      \
	} while (0)

int main() {
	const size_t sizes[] = {size_t(1) << 28, size_t(1) << 30};
	const int reps = 20;
	cudaStream_t st;
	CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
	cudaEvent_t a, b;
	CHECK(cudaEventCreate(&a));
	CHECK(cudaEventCreate(&b));
	for (size_t n : sizes) {
		void *h, *d;
		CHECK(cudaMallocHost(&h, n));
		CHECK(cudaMalloc(&d, n));
		for (int dir = 0; dir < 2; dir++) {
			std::vector<float> ms;
			for (int i = 0; i < reps + 2; i++) {
				CHECK(cudaEventRecord(a, st));
				if (dir == 0) {
					CHECK(cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, st));
				} else {
					CHECK(cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, st));
				}
				CHECK(cudaEventRecord(b, st));
				CHECK(cudaEventSynchronize(b));
				float t;
				CHECK(cudaEventElapsedTime(&t, a, b));
				if (i >= 2) ms.push_back(t);
			}
			std::sort(ms.begin(), ms.end());
			float med = ms[ms.size() / 2];
			std::printf("cuda\t%s\tuint8\t%zu\t%.1f\t%zu\t%.1f GB/s\n", dir == 0 ? "htod_pinned" : "dtoh_pinned", n,
				med * 1e3, n, n / (med * 1e-3) / 1e9);
		}
		CHECK(cudaFreeHost(h));
		CHECK(cudaFree(d));
	}
	return 0;
}
