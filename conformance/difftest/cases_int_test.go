package difftest

func init() {
	addCases(
		binary("AddWrapInt8", AddWrapInt8),
		binary("SubMulInt16", SubMulInt16),
		unary("NegInt32", NegInt32),
		binary("MulXorInt64", MulXorInt64),
		binary("MulInt", MulInt),
		binary("BitOpsUint8", BitOpsUint8),
		binary("PromoteUint8", PromoteUint8),
		binary("PromoteUint16", PromoteUint16),
		unary("ComplementUint32", ComplementUint32),
		unary("UnaryOpsInt16", UnaryOpsInt16),
		binary("CompareInt64", CompareInt64),
		binary("CompareUint", CompareUint),
		binary("LogicBool", LogicBool),
		unary("AssignOpsUint", AssignOpsUint),
		unary("AssignOpsInt8", AssignOpsInt8),
		binary("UintptrMix", UintptrMix),
		binary("MixedWidth", MixedWidth),
		reduce("AddInt8", AddInt8),
		reduce("MulWrapInt64", MulWrapInt64),
		reduce("XorUint32", XorUint32),
		reduce("OrUint16", OrUint16),
	)
}
