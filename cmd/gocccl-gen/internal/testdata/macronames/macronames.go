// Package macronames uses Go names that the C and CUDA headers define as
// macros: the generated code renames them so that nvcc never expands them.
package macronames

// BUFSIZ is a struct whose type and field names are macros in <stdio.h>
// and <math.h>.
type BUFSIZ struct {
	M_PI     float64
	RAND_MAX int32
	errno    int32
}

//gocccl:op
func EDOM(x float64) BUFSIZ {
	M_PI := x * 2
	cudaStreamDefault := int32(M_PI)
	EXIT_FAILURE := cudaStreamDefault + 1
	return BUFSIZ{M_PI: M_PI, RAND_MAX: EXIT_FAILURE, errno: 3}
}

//gocccl:op
func RAND_MAX(b BUFSIZ) int32 { return b.RAND_MAX + b.errno + EDOM(b.M_PI).RAND_MAX }
