// radix_tune_u32k.cu: the uint32 keys sweep of the radix tuning harness.
#include "radix_tune.cuh"

void tune::sweep_u32_keys()
{
  sweep<uint32_t, false,                                                      //
        Config<256, 16>, Config<256, 24>,                                     // the old policy; more items
        Config<384, 16>, Config<384, 19>, Config<384, 20>,                    // 384x20: the policy (CUB's)
        Config<384, 20, 3>, Config<384, 24>, Config<384, 28>,                 //
        Config<512, 16>, Config<512, 19>, Config<512, 12, 2>>(101);
}
