package difftest

func init() {
	addCases(
		unary("EmbedSum", EmbedSum),
		binary("BlankEq", BlankEq),
		unary("ConvStruct", ConvStruct),
		unary("ArrBool", ArrBool),
		unary("PaddedStep", PaddedStep),
		unary("PaddedSum", PaddedSum),
		binary("Vec3Add", Vec3Add),
		binary("Vec3Eq", Vec3Eq),
		unary("ParticleStep", ParticleStep),
		unary("MakePair", MakePair),
		unary("Swizzle", Swizzle),
		reduce("CombinePair", CombinePair),
		unary("ArrSum", ArrSum),
		unary("ArrReverse", ArrReverse),
		// Indices out of range panic in Go.
		binary("ArrIndex", ArrIndex, where(func(a [8]float32, i int) bool { return i >= 0 && i < 8 })),
		unary("ArrRange", ArrRange),
		unary("ArrLiteral", ArrLiteral),
		binary("ArrEq", ArrEq),
		unary("ArrCopy", ArrCopy),
		reduce("ArrMax", ArrMax),
		unary("Trace", Trace),
		unary("Transpose", Transpose),
		binary("HistoAdd", HistoAdd),
		unary("ArrOfStruct", ArrOfStruct),
	)
}
