package emit

import (
	"fmt"
	"testing"
)

func TestScratch(t *testing.T) {
	for _, p := range []func() interface{}{} { _ = p }
	ts := []Target{{Arch: 75}, {Arch: 80}, {Arch: 90}, {Arch: 90, PTX: true}}
	for _, pkg := range []*struct{}{} { _ = pkg }
	for _, mk := range []string{"reduce", "transform", "semantics"} {
		pkg := map[string]func() any{}[mk]
		_ = pkg
	}
	b, err := CUDASource(semanticsPkg(), ts)
	fmt.Println(string(b), err)
	g, err := GoGlue(reducePkg(), &Manifest{NVCC: "11.8", InputHash: "abc", Targets: ts})
	fmt.Println(string(g), err)
}
