//go:build !amd64 || amd64.v3

package difftest

// goFusesMulAdd says whether the Go compiler may fuse x*y + z into an FMA
// for this target: on arm64, ppc64, s390x, riscv64 and amd64 v3 it may.
const goFusesMulAdd = true
