// radix_tune_mid.cu: the mid-size sweep of the radix tuning harness
// (radix_tune --mid, sizes 2^14-2^20 by default): whether onesweep tiles
// smaller than the policy's sort 2^14-2^20 keys faster. At 2^16 the policy's
// 384 x 20 tile gives 9 blocks a pass on 132 SMs: if a pass lasts about one
// block's tile (the hypothesis this sweep tests), smaller tiles spread it
// over more SMs (uint32 keys: 57 µs for the sort through Go, CUB's 66;
// bench/NOTES.md, seventh session). Every configuration keeps the
// policy's match (ballot); 3 blocks an SM of 384 threads, 4 of 256 (the
// kernels need at least 256 threads: a thread a digit).
#include "radix_tune.cuh"

void tune::sweep_mid()
{
  sweep<uint32_t, false,                                       //
        Config<384, 20, 3>, Config<384, 12, 3>, Config<384, 8, 3>, // the policy, then fewer items
        Config<384, 4, 3>, Config<256, 8, 4>, Config<256, 4, 4>,   //
        Config<256, 12, 4>>(201);
  sweep<uint32_t, true,                                        //
        Config<384, 18, 3>, Config<384, 12, 3>, Config<384, 8, 3>, // the pairs policy, then fewer items
        Config<384, 4, 3>, Config<256, 8, 4>, Config<256, 4, 4>,   //
        Config<256, 12, 4>>(202);
}
