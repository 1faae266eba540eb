package difftest

func init() {
	addCases(
		binary("MinInt8", MinInt8),
		binary("MaxUint64", MaxUint64),
		binary("MinMaxInt", MinMaxInt),
		binary("MinF32", MinF32),
		binary("MaxF64", MaxF64),
		unary("MaxZero", MaxZero),
		unary("Clamp01", Clamp01),
		binary("MinOf3F64", MinOf3F64),
		reduce("MinReduceF64", MinReduceF64),
		reduce("MaxReduceF32", MaxReduceF32),
		reduce("MaxReduceInt32", MaxReduceInt32),
		reduce("MaxMeters", MaxMeters),
	)
}
