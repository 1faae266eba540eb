package difftest

func init() {
	addCases(
		binary("ShlUint8", ShlUint8),
		binary("ShrInt8", ShrInt8),
		binary("ShlInt32", ShlInt32),
		binary("ShrInt32", ShrInt32),
		binary("ShrInt64", ShrInt64),
		binary("ShlUint64", ShlUint64),
		binary("ShrUint16", ShrUint16),
		// Negative counts panic in Go: TestGPUSemantics covers them.
		binary("ShlSignedCount", ShlSignedCount, where(func(x int16, s int) bool { return s >= 0 })),
		binary("ShrSignedCount", ShrSignedCount, where(func(x int64, s int8) bool { return s >= 0 })),
		unary("ShiftUntypedOne", ShiftUntypedOne),
		unary("ShiftConstCount", ShiftConstCount),
		binary("RotateManual", RotateManual),
		unary("ShiftAssign", ShiftAssign),
	)
}
