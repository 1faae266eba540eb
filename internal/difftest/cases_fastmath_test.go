package difftest

// moderate reports whether x is positive, normal and in [2^-10, 2^10]:
// there a contracted or reassociated sum of products of three terms stays
// within a few ulps of Go's.
func moderate[F float32 | float64](x F) bool { return x >= 0x1p-10 && x <= 0x1p10 }

func init() {
	addCases(
		binary("FastDot", FastDot, ulps(4), where(func(a, b Vec3) bool {
			return moderate(a.X) && moderate(a.Y) && moderate(a.Z) && moderate(b.X) && moderate(b.Y) && moderate(b.Z)
		})),
		unary("FastPoly", FastPoly, ulps(4), where(moderate[float64])),
	)
}
