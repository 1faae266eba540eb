// radix_tune_u32p.cu: the uint32 keys + uint32 values sweep of the radix
// tuning harness.
#include "radix_tune.cuh"

void tune::sweep_u32_pairs()
{
  sweep<uint32_t, true,                                                       //
        Config<256, 16>, Config<384, 14>, Config<384, 16>, Config<384, 17>,   // 256x16: the old policy
        Config<384, 18>, Config<384, 20>, Config<384, 23>,                    // 384x18: the policy
        Config<384, 18, 3>, Config<512, 12>, Config<512, 15>, Config<512, 17>>(103);
}
