// nan_test.cu checks the NaN selection of gosem.cuh against vectors that
// emit/nan_test.go records from Go on amd64 (vectors.txt). Run by
// TestNaNVectors, or by hand:
//
//   nvcc -std=c++17 -x cu -I kernels/include -o /tmp/nan_test emit/testdata/nan/nan_test.cu
//   /tmp/nan_test emit/testdata/nan/vectors.txt
//
// Host arithmetic on x86-64 already returns amd64's NaNs, so each vector is
// checked twice: through the helper (fadd, conv, FMA, ...), and through its
// selection function given the GPU's canonical NaN (0x7FFFFFFF) as the IEEE
// result, which is what the device code sees.
#include <gocccl/gosem.cuh>

#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace go = ::gocccl::go;
namespace detail = ::gocccl::go::detail;

static const float kCanon32 = detail::from32(0x7FFFFFFFu);
static const double kCanon64 = detail::from64(0x7FFFFFFFFFFFFFFFull);

static int failures = 0;

static void check(bool ok, const char* line, const char* what) {
  if (!ok) {
    if (++failures <= 30) {
      std::printf("FAIL %s: %s\n", what, line);
    }
  }
}

template <typename T>
static T gpuResult(T r, T canon) {
  return r != r ? canon : r;  // the GPU's NaN in place of amd64's
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: nan_test vectors.txt\n");
    return 2;
  }
  FILE* f = std::fopen(argv[1], "r");
  if (f == nullptr) {
    std::perror(argv[1]);
    return 2;
  }
  char line[512];
  int n = 0;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    line[std::strcspn(line, "\n")] = 0;
    if (line[0] == '#' || line[0] == 0) {
      continue;
    }
    char op[16];
    uint64_t a = 0, b = 0, c = 0, r = 0;
    if (std::sscanf(line, "%15s %" SCNx64 " %" SCNx64 " %" SCNx64 " = %" SCNx64, op, &a, &b, &c, &r) == 5) {
      // fma x y z = r
      const double x = detail::from64(a), y = detail::from64(b), z = detail::from64(c);
      const double want = detail::from64(r);
      check(detail::bits64(go::math::FMA(x, y, z)) == r, line, "math::FMA");
      const double g = gpuResult(::fma(x, y, z), kCanon64);
      check(detail::bits64(g != g ? detail::nan3(x, y, z) : g) == r, line, "nan3");
      (void)want;
    } else if (std::sscanf(line, "%15s %" SCNx64 " %" SCNx64 " = %" SCNx64, op, &a, &b, &r) == 4) {
      const bool is32 = std::strstr(op, "32") != nullptr;
      if (is32) {
        const float x = detail::from32(static_cast<uint32_t>(a)), y = detail::from32(static_cast<uint32_t>(b));
        float h = 0, ieee = 0;
        if (!std::strcmp(op, "add32")) {
          h = go::fadd<float>(x, y), ieee = x + y;
        } else if (!std::strcmp(op, "sub32")) {
          h = go::fsub<float>(x, y), ieee = x - y;
        } else if (!std::strcmp(op, "mul32")) {
          h = go::fmul<float>(x, y), ieee = x * y;
        } else {
          h = go::fquo<float>(x, y), ieee = x / y;
        }
        check(detail::bits32(h) == r, line, "helper");
        check(detail::bits32(detail::fix<float>(gpuResult(ieee, kCanon32), x, y)) == r, line, "fix");
      } else {
        const double x = detail::from64(a), y = detail::from64(b);
        double h = 0, ieee = 0;
        if (!std::strcmp(op, "add64")) {
          h = go::fadd<double>(x, y), ieee = x + y;
        } else if (!std::strcmp(op, "sub64")) {
          h = go::fsub<double>(x, y), ieee = x - y;
        } else if (!std::strcmp(op, "mul64")) {
          h = go::fmul<double>(x, y), ieee = x * y;
        } else {
          h = go::fquo<double>(x, y), ieee = x / y;
        }
        check(detail::bits64(h) == r, line, "helper");
        check(detail::bits64(detail::fix<double>(gpuResult(ieee, kCanon64), x, y)) == r, line, "fix");
      }
    } else if (std::sscanf(line, "%15s %" SCNx64 " = %" SCNx64, op, &a, &r) == 3) {
      if (!std::strcmp(op, "f32to64")) {
        const float x = detail::from32(static_cast<uint32_t>(a));
        check(detail::bits64(go::conv<double>(x)) == r, line, "conv<double>");
        if (x != x) {
          check(detail::bits64(detail::nan_f32_to_f64(x)) == r, line, "nan_f32_to_f64");
        }
      } else if (!std::strcmp(op, "f64to32")) {
        const double x = detail::from64(a);
        check(detail::bits32(go::conv<float>(x)) == r, line, "conv<float>");
        if (x != x) {
          check(detail::bits32(detail::nan_f64_to_f32(x)) == r, line, "nan_f64_to_f32");
        }
      } else if (!std::strcmp(op, "sqrt64")) {
        check(detail::bits64(go::math::Sqrt(detail::from64(a))) == r, line, "math::Sqrt");
      } else {
        check(false, line, "unknown operation");
      }
    } else {
      check(false, line, "unreadable line");
    }
    ++n;
  }
  std::fclose(f);
  if (n == 0) {
    std::printf("FAIL: no vectors in %s\n", argv[1]);
    return 1;
  }
  std::printf("%d NaN vectors, %d failures\n", n, failures);
  return failures == 0 ? 0 : 1;
}
