package difftest

// Bounds in ulps from Go's results. gomath.cuh ports the code Go runs on
// amd64 for every function of math (Exp and Log from its assembly, the
// others from its pure-Go source: Sin, Cos and Tan with Go's Cody-Waite and
// Payne-Hanek reductions, Asin, Acos, Atan, Atan2, Exp2, Expm1, Log1p,
// Cbrt, Erf, Erfc, and the functions Go builds on them), so every bound is
// 0: the GPU's results must be Go's bit for bit. cmd/gocccl-gen/internal/emit/cuda_gomath_test.go checks
// the same ports on the host.
func init() {
	addCases(
		unary("MathExp", MathExp, ulps(0)),
		unary("MathLog", MathLog, ulps(0)),
		binary("MathPow", MathPow, ulps(0)),
		unary("MathSin", MathSin, ulps(0)),
		unary("MathCos", MathCos, ulps(0)),
		unary("MathTanh", MathTanh, ulps(0)),
		unary("MathExpF32", MathExpF32, ulps(0)),
		unary("MathLogF32", MathLogF32, ulps(0)),
	)
}
