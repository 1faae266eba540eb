package difftest

func init() {
	addCases(
		binary("NaNAdd32", NaNAdd32),
		binary("NaNSub32", NaNSub32),
		binary("NaNMul32", NaNMul32),
		binary("NaNQuo32", NaNQuo32),
		binary("NaNAdd64", NaNAdd64),
		binary("NaNSub64", NaNSub64),
		binary("NaNMul64", NaNMul64),
		binary("NaNQuo64", NaNQuo64),
		binary("NaNWiden", NaNWiden),
		binary("NaNNarrow", NaNNarrow),
		unary("NaNRoundTrip", NaNRoundTrip),
		binary("NaNInvalid", NaNInvalid),
		binary("NaNNegate", NaNNegate),
		binary("NaNMath", NaNMath),
		binary("NaNStruct", NaNStruct),
	)
}
