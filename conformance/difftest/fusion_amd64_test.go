//go:build amd64 && !amd64.v3

package difftest

// goFusesMulAdd says whether the Go compiler may fuse x*y + z into an FMA
// for this target: not on amd64 below GOAMD64=v3.
const goFusesMulAdd = false
