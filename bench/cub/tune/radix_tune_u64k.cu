// radix_tune_u64k.cu: the uint64 keys sweep of the radix tuning harness.
#include "radix_tune.cuh"

void tune::sweep_u64_keys()
{
  sweep<uint64_t, false,                                                      //
        Config<256, 12>, Config<256, 16>, Config<256, 22>,                    // 256x12: the old policy
        Config<384, 10>, Config<384, 12>, Config<384, 15>,                    // 384x15: the policy (CUB's)
        Config<384, 15, 3>, Config<512, 8>, Config<512, 11>, Config<768, 7>>(102);
}
