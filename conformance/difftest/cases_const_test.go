package difftest

func init() {
	addCases(
		unary("ConstTyped", ConstTyped),
		unary("ConstScale", ConstScale),
		unary("ConstUntypedBig", ConstUntypedBig),
		unary("ConstThird", ConstThird),
		unary("ConstTie32", ConstTie32),
		unary("ConstNegZero", ConstNegZero),
		unary("ConstLocal", ConstLocal),
		unary("ConstMath", ConstMath),
		unary("ConstLimits", ConstLimits),
		unary("ConstFloatExpr", ConstFloatExpr),
	)
}
