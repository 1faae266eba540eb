package difftest

// See cases_transcendental_test.go for how the bounds were chosen.
func init() {
	addCases(
		unary("MathFrexp", MathFrexp),
		binary("MathLdexp", MathLdexp),
		unary("MathModf", MathModf),
		binary("MathDim", MathDim),
		binary("MathRemainder", MathRemainder),
		unary("MathExp2", MathExp2, ulps(2)),   // measured 1
		unary("MathExpm1", MathExpm1, ulps(2)), // measured 1
		unary("MathLog2", MathLog2, ulps(0)),
		unary("MathLog10", MathLog10, ulps(0)),
		unary("MathLog1p", MathLog1p, ulps(3)),  // measured 2
		unary("MathTan", MathTan, ulps(2)),      // fails on the GPU
		unary("MathAsin", MathAsin, ulps(2)),    // fails on the GPU: 25 measured, unbounded near ±1
		unary("MathAcos", MathAcos, ulps(2)),    // fails on the GPU: 67108864 measured
		unary("MathAtan", MathAtan, ulps(3)),    // measured 2
		binary("MathAtan2", MathAtan2, ulps(3)), // measured 2
		unary("MathSinh", MathSinh, ulps(0)),
		unary("MathCosh", MathCosh, ulps(0)),
		unary("MathAsinh", MathAsinh, ulps(3)), // measured 2
		unary("MathAcosh", MathAcosh, ulps(2)), // measured 1
		unary("MathAtanh", MathAtanh, ulps(2)), // measured 1
		unary("MathCbrt", MathCbrt, ulps(2)),   // measured 1
		binary("MathHypot", MathHypot, ulps(0)),
		unary("MathErf", MathErf, ulps(2)),   // measured 1
		unary("MathErfc", MathErfc, ulps(6)), // measured 5
		unary("MathSinF32", MathSinF32, ulps(1)),
	)
}
