// Package hundred holds a hundred instances in one generated package, for
// bench/firstcall: a program's first call loads the package's module, so its
// cost with many instances is what a large program pays.
package hundred

//go:generate go run mkinstances.go
//go:generate gocccl-gen
