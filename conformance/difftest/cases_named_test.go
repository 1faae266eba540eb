package difftest

func init() {
	addCases(
		unary("CToF", CToF),
		unary("NextID", NextID),
		binary("IsOk", IsOk),
		unary("QuadSum", QuadSum),
		unary("Retag", Retag),
	)
}
