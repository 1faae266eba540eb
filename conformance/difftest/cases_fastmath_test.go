package difftest

import "math"

// moderate maps x into [1, 65): positive normal numbers of moderate size,
// where a contracted or reassociated sum of products of a few terms stays
// within a few ulps of Go's result. Values already there are kept.
func moderate[F float32 | float64](x F) F {
	if x >= 1 && x < 65 {
		return x
	}
	return 1 + F(math.Float64bits(float64(x))%4096)/64
}

func moderateVec3(v Vec3) Vec3 { return Vec3{moderate(v.X), moderate(v.Y), moderate(v.Z)} }

func init() {
	addCases(
		binary("FastDot", FastDot, ulps(4), mapInputs(func(a, b Vec3) (Vec3, Vec3) {
			return moderateVec3(a), moderateVec3(b)
		})),
		unary("FastPoly", FastPoly, ulps(4), mapInputs(moderate[float64])),
	)
}
