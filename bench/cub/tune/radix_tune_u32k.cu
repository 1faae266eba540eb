// radix_tune_u32k.cu: the uint32 keys sweep of the radix tuning harness:
// the policy's tile (384 x 20) with the first version's match (match.any, as
// generated before, and with minblocks 3, the best of the 2026-12-01 sweep)
// against the ballot match (the default: CUB's) at 80 registers (minblocks
// 1: 2 blocks/SM) and 56 (minblocks 3: the generator's policy), the
// atomic-or match, and CUB's own shape for 64-bit offsets (384 x 19; the
// harness calls CUB with a long long n, so 56 registers, 3 blocks/SM).
#include "radix_tune.cuh"

void tune::sweep_u32_keys()
{
  sweep<uint32_t, false,                                                                        //
        Config<384, 20, 1, 29, RANK_MATCH_NATIVE>, Config<384, 20, 3, 29, RANK_MATCH_NATIVE>,   // old
        Config<384, 20, 1, 29, RANK_MATCH_BALLOT>, Config<384, 20, 3, 29, RANK_MATCH_BALLOT>,   // new
        Config<384, 20, 3, 29, RANK_MATCH_ATOMIC_OR>, Config<384, 19, 3, 29, RANK_MATCH_BALLOT>>(101);
}
