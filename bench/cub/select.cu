// select.cu: CUB's compactions side by side with the other systems' rows,
// one TSV row each (bench.cuh's format):
//
//   cub  select               cub::DeviceSelect::If          keep about half
//   cub  partition            cub::DevicePartition::If       selected first, the rest reversed
//   cub  three_way_partition  cub::DevicePartition::If       two predicates, about a third each
//   cub  unique               cub::DeviceSelect::Unique      runs of 7 equal items
//   cub  unique_by_key        cub::DeviceSelect::UniqueByKey runs of 7 keys, values of the type
//   cub  run_length_encode    cub::DeviceRunLengthEncode::Encode, runs of 7, int lengths
//
// for uint32, float32, uint64 and float64. Predicates: integers keep odd
// values (three-way: x % 3 == 0, then x % 3 == 1), floats keep x < 0.5
// (three-way: x < 1/3, then x < 2/3); inputs are bench::random_items (runs: one random item per
// group of 7). gocccl's rows for these algorithms come from the Go API
// (bench/gpubench/select.go); the C++ file has no gocccl-kernels rows yet.
// Temp storage is allocated beforehand; outputs are poisoned before the
// checked run; every output and count is checked in full against the host.
// bytes_moved: inputs read once, outputs written once.
//
// Usage: select [--runs R] [--sizes 10,16,20,24,28] [--seed S]

#include "bench.cuh"
#include "select_ops.cuh"

#include <cub/device/device_partition.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_select.cuh>

#include <string>
#include <vector>

template <typename T>
bool same(const std::vector<T>& got, const std::vector<T>& want, size_t count)
{
  return got.size() >= count && want.size() >= count && std::memcmp(got.data(), want.data(), count * sizeof(T)) == 0;
}

template <typename T>
void run_type(uint64_t salt)
{
  const char* type = bench::type_name<T>();
  for (long long n : bench::sizes())
  {
    const int ni = static_cast<int>(n);
    const std::vector<T> x = bench::random_items<T>(n, salt);
    const std::vector<T> group = bench::random_items<T>((n + 6) / 7, salt + 100);
    std::vector<T> runs(static_cast<size_t>(n));
    for (long long i = 0; i < n; ++i) runs[i] = group[i / 7];

    // Host results.
    std::vector<T> sel, rej, first, second, other, uniq, uvals;
    std::vector<int> lens;
    for (T v : x)
    {
      (Keep<T>{}(v) ? sel : rej).push_back(v);
      (First<T>{}(v) ? first : Second<T>{}(v) ? second : other).push_back(v);
    }
    std::vector<T> part = sel;
    part.insert(part.end(), rej.rbegin(), rej.rend());
    for (long long i = 0; i < n; ++i)
    {
      if (i == 0 || std::memcmp(&runs[i], &runs[i - 1], sizeof(T)) != 0)
      {
        uniq.push_back(runs[i]);
        uvals.push_back(x[i]);
        lens.push_back(0);
      }
      ++lens.back();
    }
    const long long nsel = static_cast<long long>(sel.size()), nruns = static_cast<long long>(uniq.size());
    const long long s = sizeof(T);

    bench::Rotation<T> xs(x);
    bench::Rotation<T> rs(runs);
    bench::DeviceBuffer<T> out(static_cast<size_t>(n)), out2(static_cast<size_t>(n)), out3(static_cast<size_t>(n)),
      vout(static_cast<size_t>(n));
    bench::DeviceBuffer<int> lengths(static_cast<size_t>(n));
    bench::DeviceBuffer<int> count(2);

    size_t temp_bytes = 0, b = 0;
    BENCH_CK(cub::DeviceSelect::If(nullptr, b, xs.get(0), out.get(), count.get(), ni, Keep<T>()));
    temp_bytes = std::max(temp_bytes, b);
    BENCH_CK(cub::DevicePartition::If(nullptr, b, xs.get(0), out.get(), count.get(), ni, Keep<T>()));
    temp_bytes = std::max(temp_bytes, b);
    BENCH_CK(cub::DevicePartition::If(nullptr, b, xs.get(0), out.get(), out2.get(), out3.get(), count.get(), ni,
                                      First<T>(), Second<T>()));
    temp_bytes = std::max(temp_bytes, b);
    BENCH_CK(cub::DeviceSelect::Unique(nullptr, b, rs.get(0), out.get(), count.get(), ni));
    temp_bytes = std::max(temp_bytes, b);
    BENCH_CK(cub::DeviceSelect::UniqueByKey(nullptr, b, rs.get(0), xs.get(0), out.get(), vout.get(), count.get(), ni));
    temp_bytes = std::max(temp_bytes, b);
    BENCH_CK(cub::DeviceRunLengthEncode::Encode(nullptr, b, rs.get(0), out.get(), lengths.get(), count.get(), ni));
    temp_bytes = std::max(temp_bytes, b);
    bench::DeviceBuffer<unsigned char> temp(temp_bytes);

    auto case_ = [&](const char* alg, long long bytes, const char* note, auto&& fn, auto&& check) {
      out.poison();
      out2.poison();
      out3.poison();
      vout.poison();
      lengths.poison();
      count.poison();
      fn(0);
      BENCH_CK(cudaDeviceSynchronize());
      const std::vector<int> c = count.to_host();
      const std::string bad = check(c);
      if (!bad.empty()) bench::fail("cub", alg, type, n, bytes, bad);
      else bench::row("cub", alg, type, n, bench::time_us(fn), bytes, note);
    };
    auto want_count = [](int got, long long want) -> std::string {
      if (got == want) return "";
      return "count " + std::to_string(got) + ", want " + std::to_string(want);
    };

    case_("select", s * (n + nsel) + 4, "",
          [&](int i) {
            size_t t = temp_bytes;
            BENCH_CK(cub::DeviceSelect::If(temp.get(), t, xs.get(i), out.get(), count.get(), ni, Keep<T>()));
          },
          [&](const std::vector<int>& c) {
            std::string bad = want_count(c[0], nsel);
            if (bad.empty() && !same(out.to_host(), sel, sel.size())) bad = "selected items differ";
            return bad;
          });
    case_("partition", 2 * s * n + 4, "",
          [&](int i) {
            size_t t = temp_bytes;
            BENCH_CK(cub::DevicePartition::If(temp.get(), t, xs.get(i), out.get(), count.get(), ni, Keep<T>()));
          },
          [&](const std::vector<int>& c) {
            std::string bad = want_count(c[0], nsel);
            if (bad.empty() && !same(out.to_host(), part, part.size())) bad = "partitioned items differ";
            return bad;
          });
    case_("three_way_partition", 2 * s * n + 8, "",
          [&](int i) {
            size_t t = temp_bytes;
            BENCH_CK(cub::DevicePartition::If(temp.get(), t, xs.get(i), out.get(), out2.get(), out3.get(), count.get(),
                                              ni, First<T>(), Second<T>()));
          },
          [&](const std::vector<int>& c) {
            std::string bad = want_count(c[0], static_cast<long long>(first.size()));
            if (bad.empty()) bad = want_count(c[1], static_cast<long long>(second.size()));
            if (bad.empty() && (!same(out.to_host(), first, first.size()) || !same(out2.to_host(), second, second.size()) ||
                                !same(out3.to_host(), other, other.size())))
              bad = "partitioned items differ";
            return bad;
          });
    case_("unique", s * (n + nruns) + 4, "runs of 7",
          [&](int i) {
            size_t t = temp_bytes;
            BENCH_CK(cub::DeviceSelect::Unique(temp.get(), t, rs.get(i), out.get(), count.get(), ni));
          },
          [&](const std::vector<int>& c) {
            std::string bad = want_count(c[0], nruns);
            if (bad.empty() && !same(out.to_host(), uniq, uniq.size())) bad = "unique items differ";
            return bad;
          });
    case_("unique_by_key", 2 * s * (n + nruns) + 4, "runs of 7 keys, values of the type",
          [&](int i) {
            size_t t = temp_bytes;
            BENCH_CK(cub::DeviceSelect::UniqueByKey(temp.get(), t, rs.get(i), xs.get(i), out.get(), vout.get(),
                                                    count.get(), ni));
          },
          [&](const std::vector<int>& c) {
            std::string bad = want_count(c[0], nruns);
            if (bad.empty() && (!same(out.to_host(), uniq, uniq.size()) || !same(vout.to_host(), uvals, uvals.size())))
              bad = "unique keys or values differ";
            return bad;
          });
    case_("run_length_encode", s * (n + nruns) + 4 * nruns + 4, "runs of 7, int32 lengths",
          [&](int i) {
            size_t t = temp_bytes;
            BENCH_CK(cub::DeviceRunLengthEncode::Encode(temp.get(), t, rs.get(i), out.get(), lengths.get(), count.get(),
                                                        ni));
          },
          [&](const std::vector<int>& c) {
            std::string bad = want_count(c[0], nruns);
            if (bad.empty() && (!same(out.to_host(), uniq, uniq.size()) || !same(lengths.to_host(), lens, lens.size())))
              bad = "run keys or lengths differ";
            return bad;
          });
  }
}

int main(int argc, char** argv)
{
  bench::init(argc, argv, "select");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
  run_type<uint32_t>(1);
  run_type<float>(2);
  run_type<uint64_t>(3);
  run_type<double>(4);
  return bench::finish();
}
