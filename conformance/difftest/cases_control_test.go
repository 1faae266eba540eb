package difftest

func init() {
	addCases(
		unary("IfInitChain", IfInitChain),
		binary("IfNested", IfNested),
		unary("LabeledSwitch", LabeledSwitch),
		unary("ContinueInSwitch", ContinueInSwitch),
		unary("SwitchTag", SwitchTag),
		unary("SwitchNoTag", SwitchNoTag),
		unary("SwitchInit", SwitchInit),
		unary("SwitchDefaultMiddle", SwitchDefaultMiddle),
		binary("SwitchNonConst", SwitchNonConst),
		unary("ForThreeClause", ForThreeClause),
		unary("ForCond", ForCond),
		unary("ForInfinite", ForInfinite),
		binary("ForLabels", ForLabels),
		unary("ForSwitchBreak", ForSwitchBreak),
		unary("RangeInt", RangeInt),
		unary("ForComputed", ForComputed),
		unary("ForNoInit", ForNoInit),
	)
}
