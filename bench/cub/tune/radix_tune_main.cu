// radix_tune: the radix sort tuning harness (see radix_tune.sh): correctness
// checks first, then the sweeps of uint32 keys, uint64 keys and uint32 pairs
// beside cub::DeviceRadixSort, TSV rows as bench.cuh prints them, and a
// summary of each configuration (geometric mean of its time over CUB's).
//
// Usage: radix_tune [--no-check] [--quick-check] [--no-sweep] [--big] [--mid]
//                   [--order] [bench.cuh's --runs R --sizes 20,24,28 --seed S]
// --mid runs the mid-size sweep (radix_tune_mid.cu) instead of the three
// others, at 2^14, 2^16, 2^18 and 2^20 unless --sizes says otherwise;
// --order the order sweep (radix_tune_order.cu: the policies, ascending and
// descending) at 2^24 and 2^28 unless --sizes says otherwise. The header
// line "# GOCCCL_EXPERIMENT_RADIX_ORDER" says which onesweep kernels the
// binary holds (0: the run-time order flip, today's; 1: the order compiled in).
#include "radix_tune.cuh"

#include <cmath>
#include <map>

int main(int argc, char** argv)
{
  bool check = true, sweep = true, big = false, quick = false, mid = false, order = false;
  std::vector<char*> rest{argv[0]};
  bool sizes_given = false;
  for (int i = 1; i < argc; ++i)
  {
    if (!std::strcmp(argv[i], "--no-check")) check = false;
    else if (!std::strcmp(argv[i], "--no-sweep")) sweep = false;
    else if (!std::strcmp(argv[i], "--big")) big = true;
    else if (!std::strcmp(argv[i], "--quick-check")) quick = true;
    else if (!std::strcmp(argv[i], "--mid")) mid = true;
    else if (!std::strcmp(argv[i], "--order")) order = true;
    else
    {
      if (!std::strcmp(argv[i], "--sizes")) sizes_given = true;
      rest.push_back(argv[i]);
    }
  }
  char sizes_flag[] = "--sizes", sizes_default[] = "20,24,28", sizes_mid[] = "14,16,18,20", sizes_order[] = "24,28";
  if (!sizes_given)
  {
    rest.push_back(sizes_flag);
    rest.push_back(mid ? sizes_mid : order ? sizes_order : sizes_default);
  }
  bench::init(static_cast<int>(rest.size()), rest.data(), "radix_tune");
  std::printf("# CUB_VERSION %d\n", CUB_VERSION);
#ifdef GOCCCL_EXPERIMENT_RADIX_ORDER
  std::printf("# GOCCCL_EXPERIMENT_RADIX_ORDER 1\n");
#else
  std::printf("# GOCCCL_EXPERIMENT_RADIX_ORDER 0\n");
#endif
  if (check) tune::run_checks(big, quick);
  if (sweep)
  {
    if (mid)
    {
      tune::sweep_mid();
    }
    else if (order)
    {
      tune::sweep_order();
    }
    else
    {
      tune::sweep_u32_keys();
      tune::sweep_u64_keys();
      tune::sweep_u32_pairs();
    }
    // Summary: per type and configuration, time / cub's at each size and
    // their geometric mean; the best configuration of each type first.
    std::map<std::string, std::map<std::string, std::vector<const tune::Result*>>> by;
    for (const auto& r : tune::results()) by[r.type][r.config].push_back(&r);
    std::printf("# summary\ttype\tconfig\tgeomean_vs_cub\tper_size(n:us:ratio)\n");
    for (auto& [type, cfgs] : by)
    {
      std::vector<std::pair<double, std::string>> rows;
      for (auto& [cfg, rs] : cfgs)
      {
        double lg = 0;
        std::string per;
        for (const auto* r : rs)
        {
          lg += std::log(r->us / r->cub_us);
          char b[96];
          std::snprintf(b, sizeof b, " 2^%d:%.1f:%.3f", int(std::log2(double(r->n))), r->us, r->us / r->cub_us);
          per += b;
        }
        rows.push_back({std::exp(lg / rs.size()), cfg + "\t" + per});
      }
      std::sort(rows.begin(), rows.end());
      for (auto& [g, s] : rows) std::printf("# summary\t%s\t%.3f\t%s\n", type.c_str(), g, s.c_str());
    }
  }
  return bench::finish();
}
