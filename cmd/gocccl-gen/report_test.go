package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/emit"
	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// TestReport: -v prints one line per package with its instances, operators,
// targets and where the images came from (nvcc, the cache, or nothing to
// do), then each kernel the spill guard relaxed, and says so when a package
// has no instances.
func TestReport(t *testing.T) {
	pkg := &model.Package{Path: "example.com/p", Instances: make([]*model.Instance, 3), Ops: make([]*model.Op, 2)}
	targets := []emit.Target{{Arch: 80}, {Arch: 90}, {Arch: 90, PTX: true}}
	for _, c := range []struct {
		out  *emit.Output
		want string
	}{
		{&emit.Output{Manifest: &emit.Manifest{Targets: targets}},
			"example.com/p: 3 instances, 2 operators; sm_80,sm_90,compute_90; compiled by nvcc\n"},
		{&emit.Output{Manifest: &emit.Manifest{Targets: targets}, Reused: true},
			"example.com/p: 3 instances, 2 operators; sm_80,sm_90,compute_90; up to date, nvcc not run\n"},
		{&emit.Output{Manifest: &emit.Manifest{Targets: targets}, Cached: targets},
			"example.com/p: 3 instances, 2 operators; sm_80,sm_90,compute_90; all images from the compile cache\n"},
		{&emit.Output{Manifest: &emit.Manifest{Targets: targets}, Cached: targets[:1]},
			"example.com/p: 3 instances, 2 operators; sm_80,sm_90,compute_90; 1 of 3 images from the compile cache\n"},
		{&emit.Output{Manifest: &emit.Manifest{Targets: targets, Files: []emit.FileHash{
			{Name: "gocccl_gen.cu"},
			{Name: "gocccl_gen_sm_90.cubin", Relaxed: []emit.Relaxed{
				{Kernel: "gocccl_scan_by_key_Eq_Then_sweep", MinBlocks: 5, Compiled: 4, Spilled: 632, SpilledCompiled: 152},
				{Kernel: "gocccl_reduce_by_key_Eq_Add_sweep", MinBlocks: 2, Compiled: 0, Spilled: 900, SpilledCompiled: 0},
			}},
		}}},
			"example.com/p: 3 instances, 2 operators; sm_80,sm_90,compute_90; compiled by nvcc\n" +
				"  gocccl_gen_sm_90.cubin: gocccl_scan_by_key_Eq_Then_sweep spilled 632 bytes a thread at 5 blocks an SM; compiled at 4 blocks an SM (152 bytes)\n" +
				"  gocccl_gen_sm_90.cubin: gocccl_reduce_by_key_Eq_Add_sweep spilled 900 bytes a thread at 2 blocks an SM; compiled without a bound (0 bytes)\n"},
	} {
		var b strings.Builder
		report(&b, pkg, c.out)
		assert.Equal(t, c.want, b.String())
	}
	var b strings.Builder
	report(&b, &model.Package{Path: "example.com/q", Ops: make([]*model.Op, 4)}, &emit.Output{})
	assert.Equal(t, "example.com/q: no algorithm instances, nothing to generate (4 operators)\n", b.String())
}
