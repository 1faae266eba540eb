// radix_tune_u64k.cu: the uint64 keys sweep of the radix tuning harness:
// 384 x 15 (CUB's tile) with the old match (match.any) and the new (ballot),
// at minblocks 1 (80 registers) and 3 (56: the generator's policy).
#include "radix_tune.cuh"

void tune::sweep_u64_keys()
{
  sweep<uint64_t, false,                                                                        //
        Config<384, 15, 1, 29, RANK_MATCH_NATIVE>, Config<384, 15, 3, 29, RANK_MATCH_NATIVE>,   // old
        Config<384, 15, 1, 29, RANK_MATCH_BALLOT>, Config<384, 15, 3, 29, RANK_MATCH_BALLOT>>(102);
}
