// radix_tune_order.cu: the order sweep of the radix tuning harness
// (radix_tune --order, sizes 2^24 and 2^28 unless --sizes says otherwise):
// the generator's policies (uint32 keys 384 x 20, uint64 keys 384 x 15,
// uint32 pairs 384 x 18, all at 3 blocks an SM, the default ballot match),
// ascending and descending, each beside cub::DeviceRadixSort(Descending).
// radix_ab.sh (MODE=order) builds the harness twice, without and with
// -DGOCCCL_EXPERIMENT_RADIX_ORDER (radix_sort.cuh: the onesweep kernel with
// the order compiled in, both orders behind one uniform branch), and reads
// the two runs' rows side by side.
#include "radix_tune.cuh"

void tune::sweep_order()
{
  sweep<uint32_t, false, Config<384, 20, 3>>(301, {false, true});
  sweep<uint64_t, false, Config<384, 15, 3>>(302, {false, true});
  sweep<uint32_t, true, Config<384, 18, 3>>(303, {false, true});
}
