package difftest

func init() {
	addCases(
		unary("BitsOnesCount", BitsOnesCount),
		unary("BitsLeadingZeros", BitsLeadingZeros),
		unary("BitsTrailingZeros", BitsTrailingZeros),
		unary("BitsLen", BitsLen),
		binary("BitsRotate64", BitsRotate64),
		binary("BitsRotate32", BitsRotate32),
		binary("BitsRotate8", BitsRotate8),
		unary("BitsReverse", BitsReverse),
		unary("BitsReverseBytes", BitsReverseBytes),
		binary("BitsAdd64", BitsAdd64),
		binary("BitsSub64", BitsSub64),
		binary("BitsMul64", BitsMul64),
		binary("BitsAddMul32", BitsAddMul32),
	)
}
