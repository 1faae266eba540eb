package difftest

import "github.com/gocccl/gocccl/conformance/difftest/dep"

func init() {
	addCases(
		// b == 0 panics in Go.
		binary("UseDivMod", UseDivMod, where(func(a, b int32) bool { return b != 0 })),
		binary("PassTuple", PassTuple, where(func(a, b int32) bool { return b != 0 })),
		binary("SpreadOf", SpreadOf),
		unary("CallChain", CallChain),
		unary("DepClamp", DepClamp),
		unary("DepMix", DepMix),
		unary("DepScale", DepScale),
		binary("DepSplit", DepSplit),
		// Instances of the operators of package dep, declared here.
		unary("dep.Clamp8", dep.Clamp8),
		binary("dep.Scale", dep.Scale),
		unary("dep.Mix64", dep.Mix64),
	)
}
