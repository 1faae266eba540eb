package algo

import "fmt"

// The N×M transforms: out_k[i] = the k-th result of op(a[i], b[i], …) for
// N inputs and M outputs (cub::DeviceTransform::Transform with a tuple of
// inputs; kernels/include/gocccl/transform_nm.cuh). One table gives the
// family: every N in 1…MaxTransformInputs and M in 1…MaxTransformOutputs but
// 1×1 and 2×1, which are UnaryTransform and BinaryTransform. An instance
// with one output is runtime.Transform<N> (Transform3, Transform4); one
// with several is runtime.Transform<N>x<M> (Transform1x2 … Transform4x3),
// its operator a //gocccl:op function of M results. The inputs' type
// parameters are A, B, C, D; the outputs' R for one, R1, R2, R3 for
// several.

// MaxTransformInputs and MaxTransformOutputs bound the N×M transforms.
const (
	MaxTransformInputs  = 4
	MaxTransformOutputs = 3
)

// transformNM holds the descriptions of the N×M transforms by [N-1][M-1];
// nil where UnaryTransform and BinaryTransform stand.
var transformNM = func() (t [MaxTransformInputs][MaxTransformOutputs]*Algorithm) {
	for n := 1; n <= MaxTransformInputs; n++ {
		for m := 1; m <= MaxTransformOutputs; m++ {
			if m == 1 && n <= 2 {
				continue
			}
			t[n-1][m-1] = register(transformNMDescription(n, m))
		}
	}
	return t
}()

// TransformNM returns the description of the transform of n inputs and m
// outputs: UnaryTransform for 1×1, BinaryTransform for 2×1, nil outside
// the family.
func TransformNM(n, m int) *Algorithm {
	switch {
	case n < 1 || n > MaxTransformInputs || m < 1 || m > MaxTransformOutputs:
		return nil
	case n == 1 && m == 1:
		return UnaryTransform
	case n == 2 && m == 1:
		return BinaryTransform
	}
	return transformNM[n-1][m-1]
}

// TransformNMName is the runtime constructor of the transform of n inputs
// and m outputs: "Transform3" for one output, "Transform3x2" for several.
func TransformNMName(n, m int) string {
	if m == 1 {
		return fmt.Sprintf("Transform%d", n)
	}
	return fmt.Sprintf("Transform%dx%d", n, m)
}

// TransformNMTypes returns the type parameter names of the inputs and of
// the outputs of the transform of n inputs and m outputs.
func TransformNMTypes(n, m int) (ins, outs []string) {
	ins = []string{"A", "B", "C", "D"}[:n]
	if m == 1 {
		return ins, []string{"R"}
	}
	return ins, []string{"R1", "R2", "R3"}[:m]
}

// TransformNMParams returns the kernel parameter names of the inputs and
// of the outputs: d_a, d_b, …; d_out, or d_out1, d_out2, ….
func TransformNMParams(n, m int) (ins, outs []string) {
	ins = []string{"d_a", "d_b", "d_c", "d_d"}[:n]
	if m == 1 {
		return ins, []string{"d_out"}
	}
	return ins, []string{"d_out1", "d_out2", "d_out3"}[:m]
}

func transformNMDescription(n, m int) *Algorithm {
	ins, outs := TransformNMTypes(n, m)
	inNames, outNames := TransformNMParams(n, m)
	var params []Param
	for i, t := range ins {
		params = append(params, Param{Name: inNames[i], Kind: In, Type: t})
	}
	for i, t := range outs {
		params = append(params, Param{Name: outNames[i], Kind: Out, Type: t})
	}
	params = append(params, Param{Name: "n", Kind: Size})
	stem := fmt.Sprintf("transform%dx%d", n, m)
	return &Algorithm{
		Name:       TransformNMName(n, m),
		Stem:       stem,
		Header:     "transform_nm.cuh",
		TypeParams: append(append([]string(nil), ins...), outs...),
		Ops:        []Operator{{Role: "operator", Params: ins, Results: outs}},
		Kernels:    []Kernel{{Template: "::gocccl::" + stem, Params: params}},
		Policy:     transformPolicy,
	}
}
