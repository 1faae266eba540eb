//go:build difftest_pending

package difftest

// The bounds are provisional: TestULPReport measures the differences on the
// GPU and docs/OPERATORS.md states the measured ones.
func init() {
	addCases(
		unary("MathExp", MathExp, ulps(2)),
		unary("MathLog", MathLog, ulps(2)),
		binary("MathPow", MathPow, ulps(4)),
		unary("MathSin", MathSin, ulps(2)),
		unary("MathCos", MathCos, ulps(2)),
		unary("MathTanh", MathTanh, ulps(2)),
		unary("MathExpF32", MathExpF32, ulps(1)),
		unary("MathLogF32", MathLogF32, ulps(1)),
	)
}
