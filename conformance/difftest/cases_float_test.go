package difftest

func init() {
	addCases(
		binary("AddF32", AddF32),
		binary("SubF64", SubF64),
		binary("MulF32", MulF32),
		binary("DivF64", DivF64),
		binary("DivF32", DivF32),
		binary("ChainF32", ChainF32),
		binary("MulAddSeparate", MulAddSeparate),
		unary("NegZero", NegZero),
		unary("NegF64", NegF64),
		// Bits of -x, NaNs included (random bit patterns hold NaNs with
		// payloads of both signs), compared exactly.
		unary("NegBits32", NegBits32),
		unary("NegBits64", NegBits64),
		unary("SubZeroF64", SubZeroF64),
		binary("CompareF64", CompareF64),
		unary("IsNaNSelf", IsNaNSelf),
		unary("ConstMulF32", ConstMulF32),
		unary("AssignOpsF64", AssignOpsF64),
		binary("SubnormalF32", SubnormalF32),
	)
	// a*b + c as written is compared only where Go does not fuse it.
	if !goFusesMulAdd {
		addCases(binary("MulAddPlain", MulAddPlain))
	}
}
