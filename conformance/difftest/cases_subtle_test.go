package difftest

func init() {
	addCases(
		binary("OverflowCheckUint8", OverflowCheckUint8),
		unary("SwitchFloatTag", SwitchFloatTag),
		unary("RangeIntTyped", RangeIntTyped),
		unary("RangeArrayCopy", RangeArrayCopy),
		unary("TupleIndex", TupleIndex),
		unary("Fib", Fib),
		unary("Int64ToFloat32Tricky", Int64ToFloat32Tricky),
		unary("Uint64ToFloat32Tricky", Uint64ToFloat32Tricky),
		unary("DivByMinusOne", DivByMinusOne),
		binary("KeywordNames", KeywordNames),
		unary("NegUint32", NegUint32),
		unary("LenCap", LenCap),
		unary("NestedLiteral", NestedLiteral),
		binary("StructArrayEq", StructArrayEq),
		unary("RangeNestedArray", RangeNestedArray),
		unary("ShadowConst", ShadowConst),
		unary("LabeledContinueRange", LabeledContinueRange),
	)
}
