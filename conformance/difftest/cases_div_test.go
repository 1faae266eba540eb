package difftest

// Division by zero panics in Go: those inputs are kept out here, and
// TestGPUSemantics checks the GPU's defined results for them.
func init() {
	addCases(
		binary("DivInt8", DivInt8, where(func(a, b int8) bool { return b != 0 })),
		binary("RemInt16", RemInt16, where(func(a, b int16) bool { return b != 0 })),
		binary("DivInt32", DivInt32, where(func(a, b int32) bool { return b != 0 })),
		binary("RemInt32", RemInt32, where(func(a, b int32) bool { return b != 0 })),
		binary("DivRemInt64", DivRemInt64, where(func(a, b int64) bool { return b != 0 })),
		binary("DivUint64", DivUint64, where(func(a, b uint64) bool { return b != 0 })),
		binary("DivUint8", DivUint8, where(func(a, b uint8) bool { return b != 0 })),
		unary("DivConst", DivConst),
		unary("DivPow2", DivPow2),
		binary("DivAssign", DivAssign, where(func(a, b int) bool { return b != 0 })),
	)
}
