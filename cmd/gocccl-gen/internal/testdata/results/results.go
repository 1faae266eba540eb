// Package results holds operators with several results.
package results

//gocccl:op
func DivMod(a, b int32) (q, r int32) {
	if b == 0 {
		return 0, a
	}
	q, r = a/b, a%b
	return
}

//gocccl:op
func Pair(a int32) (int32, float32) { return a, float32(a) }

//gocccl:op
func Forward(a, b int32) (int32, int32) { return DivMod(a, b) }

//gocccl:op
func Add(a, b int32) int32 { return a + b }

//gocccl:op
func Use(a, b int32) int32 {
	q, r := DivMod(a, b)
	var x, y = Pair(q)
	_, r = DivMod(r, 3)
	return Add(DivMod(a, b)) + q + r + x + int32(y)
}
