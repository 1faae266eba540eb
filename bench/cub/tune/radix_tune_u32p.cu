// radix_tune_u32p.cu: the uint32 keys + uint32 values sweep of the radix
// tuning harness: 384 x 18 with the old match (match.any) and the new
// (ballot); minblocks 1 is what generated code had before (85 registers: one
// block per SM), 2 caps at 80 (two blocks, no spills, as CUB's 80), 3 at 56
// (the generator's policy); and CUB's shape for 64-bit offsets (384 x 17 at
// 80 registers: the harness calls CUB with a long long n).
#include "radix_tune.cuh"

void tune::sweep_u32_pairs()
{
  sweep<uint32_t, true,                                                                         //
        Config<384, 18, 1, 29, RANK_MATCH_NATIVE>, Config<384, 18, 3, 29, RANK_MATCH_NATIVE>,   // old
        Config<384, 18, 1, 29, RANK_MATCH_BALLOT>, Config<384, 18, 2, 29, RANK_MATCH_BALLOT>,   // new
        Config<384, 18, 3, 29, RANK_MATCH_BALLOT>, Config<384, 17, 2, 29, RANK_MATCH_BALLOT>>(103);
}
