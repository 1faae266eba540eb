package difftest

import "math"

func init() {
	addCases(
		unary("MathAbs", MathAbs),
		unary("MathSqrt", MathSqrt),
		unary("MathSqrtF32", MathSqrtF32),
		unary("MathFloor", MathFloor),
		unary("MathCeil", MathCeil),
		unary("MathTrunc", MathTrunc),
		unary("MathRound", MathRound),
		unary("MathRoundToEven", MathRoundToEven),
		unary("MathRoundF32", MathRoundF32),
		binary("MathCopysign", MathCopysign),
		binary("MathFMA", MathFMA),
		binary("MathMod", MathMod),
		binary("MathMin", MathMin),
		binary("MathMax", MathMax),
		unary("MathInfNaN", MathInfNaN),
		unary("MathClassify", MathClassify),
		// The bits of a NaN are compared exactly here: the operator only
		// passes them through.
		unary("MathBits64", MathBits64),
		unary("MathBits32", MathBits32),
		unary("MathFromBits64", MathFromBits64),
		unary("MathFromBits32", MathFromBits32),
	)
	_ = math.Pi
}
