package algo

// Fill is runtime.Fill[T](): out[i] = value for every i
// (thrust::fill, cub::DeviceFor over a constant; kernels/include/gocccl/fill.cuh).
// It takes no operator, so its instances are declared with their type,
// runtime.Fill[float32]().
var Fill = register(&Algorithm{
	Name:       "Fill",
	Stem:       "fill",
	Header:     "fill.cuh",
	TypeParams: []string{"T"},
	Kernels: []Kernel{{Template: "::gocccl::fill", Params: []Param{
		{Name: "d_out", Kind: Out, Type: "T"}, {Name: "value", Kind: Value, Type: "T"}, {Name: "n", Kind: Size}}}},
	Policy: transformPolicy,
})

// Generate is runtime.Generate(op func(int64) T): out[i] = op(i) for every
// i (thrust::tabulate; kernels/include/gocccl/fill.cuh).
var Generate = register(&Algorithm{
	Name:       "Generate",
	Stem:       "generate",
	Header:     "fill.cuh",
	TypeParams: []string{"T"},
	Ops:        []Operator{{Role: "operator", Params: []string{"int64"}, Results: []string{"T"}}},
	Kernels: []Kernel{{Template: "::gocccl::generate", Params: []Param{
		{Name: "d_out", Kind: Out, Type: "T"}, {Name: "n", Kind: Size}}}},
	Policy: transformPolicy,
})

// TransformIf is runtime.TransformIf(op func(In) Out, pred func(In) bool):
// out[i] = op(in[i]) where pred(in[i]) holds, out[i] left as it is
// elsewhere (thrust::transform_if; kernels/include/gocccl/transform_if.cuh).
var TransformIf = register(&Algorithm{
	Name:       "TransformIf",
	Stem:       "transform_if",
	Header:     "transform_if.cuh",
	TypeParams: []string{"In", "Out"},
	Ops: []Operator{
		{Role: "operator", Params: []string{"In"}, Results: []string{"Out"}},
		{Role: "predicate", Params: []string{"In"}, Results: []string{"bool"}},
	},
	Kernels: []Kernel{{Template: "::gocccl::transform_if", Params: []Param{
		{Name: "d_in", Kind: In, Type: "In"}, {Name: "d_out", Kind: Out, Type: "Out"}, {Name: "n", Kind: Size}}}},
	Policy: transformPolicy,
})
