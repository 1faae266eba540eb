package difftest

// See cases_transcendental_test.go for how the bounds were chosen.
func init() {
	addCases(
		unary("MathFrexp", MathFrexp),
		binary("MathLdexp", MathLdexp),
		unary("MathModf", MathModf),
		binary("MathDim", MathDim),
		binary("MathRemainder", MathRemainder),
		unary("MathExp2", MathExp2, ulps(0)),
		unary("MathExpm1", MathExpm1, ulps(0)),
		unary("MathLog2", MathLog2, ulps(0)),
		unary("MathLog10", MathLog10, ulps(0)),
		unary("MathLog1p", MathLog1p, ulps(0)),
		unary("MathTan", MathTan, ulps(0)),
		unary("MathAsin", MathAsin, ulps(0)),
		unary("MathAcos", MathAcos, ulps(0)),
		unary("MathAtan", MathAtan, ulps(0)),
		binary("MathAtan2", MathAtan2, ulps(0)),
		unary("MathSinh", MathSinh, ulps(0)),
		unary("MathCosh", MathCosh, ulps(0)),
		unary("MathAsinh", MathAsinh, ulps(0)),
		unary("MathAcosh", MathAcosh, ulps(0)),
		unary("MathAtanh", MathAtanh, ulps(0)),
		unary("MathCbrt", MathCbrt, ulps(0)),
		binary("MathHypot", MathHypot, ulps(0)),
		unary("MathErf", MathErf, ulps(0)),
		unary("MathErfc", MathErfc, ulps(0)),
		unary("MathSinF32", MathSinF32, ulps(0)),
	)
}
