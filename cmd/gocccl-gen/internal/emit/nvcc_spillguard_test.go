package emit

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/internal/algo"
)

// The reports in testdata/ptxas are ptxas -v of the same two kernels (the
// register-hungry reduce_single_pass of testdata/spill (the model's _sweep kernel) at 256 × 64 int64
// items under __launch_bounds__(256, 8), and reduce_final) by nvcc 13 for
// sm_90 and by nvcc 11.8 for sm_80.
func TestParsePtxasReport(t *testing.T) {
	for file, want := range map[string]map[string]kernelUse{
		"sm_90_nvcc13.txt": {
			"gocccl_reduce_Max_final":  {},
			"gocccl_reduce_Max_single": {Stack: 1016, SpillStores: 1160, SpillLoads: 1168},
		},
		"sm_80_nvcc118.txt": {
			"gocccl_reduce_Max_final":  {},
			"gocccl_reduce_Max_single": {Stack: 776, SpillStores: 872, SpillLoads: 880},
		},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", "ptxas", file))
		require.NoError(t, err)
		assert.Equal(t, want, parsePtxasReport(string(b)), file)
	}
	assert.Empty(t, parsePtxasReport(""))
	// A spill line without its "Function properties" line names nothing.
	assert.Empty(t, parsePtxasReport("    8 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"))
}

// boundedPTX has three kernels as nvcc writes them: two bounded, one not.
const boundedPTX = `.version 9.0
.target sm_90
.address_size 64

	// .globl	gocccl_a_sweep
.visible .entry gocccl_a_sweep(
	.param .u64 gocccl_a_sweep_param_0
)
.maxntid 256, 1, 1
.minnctapersm 5
{
	ret;
}
	// .globl	gocccl_a_init
.visible .entry gocccl_a_init(
	.param .u64 gocccl_a_init_param_0
)
.maxntid 128, 1, 1
{
	ret;
}
	// .globl	gocccl_b_sweep
.visible .entry gocccl_b_sweep(
	.param .u64 gocccl_b_sweep_param_0
)
.maxntid 256, 1, 1
.minnctapersm 3
{
	// .minnctapersm 9 in a comment of the body is not a directive
	ret;
}
`

func TestPTXBounds(t *testing.T) {
	bounds, err := ptxBounds([]byte(boundedPTX))
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"gocccl_a_sweep": 5, "gocccl_b_sweep": 3}, bounds)

	out, err := withBounds([]byte(boundedPTX), map[string]int{"gocccl_a_sweep": 4, "gocccl_b_sweep": 0})
	require.NoError(t, err)
	bounds, err = ptxBounds(out)
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"gocccl_a_sweep": 4}, bounds)
	want := strings.Replace(boundedPTX, ".minnctapersm 5\n", ".minnctapersm 4\n", 1)
	want = strings.Replace(want, ".minnctapersm 3\n", "", 1)
	assert.Equal(t, want, string(out), "only the two directives change")

	same, err := withBounds([]byte(boundedPTX), map[string]int{"gocccl_a_sweep": 5})
	require.NoError(t, err)
	assert.Equal(t, boundedPTX, string(same))
	spaced := strings.Replace(boundedPTX, ".minnctapersm 5\n", "\t.minnctapersm  5\n", 1)
	same, err = withBounds([]byte(spaced), map[string]int{"gocccl_a_sweep": 5, "gocccl_b_sweep": 3})
	require.NoError(t, err)
	assert.Equal(t, spaced, string(same), "a bound that stays is left as written")

	_, err = withBounds([]byte(boundedPTX), map[string]int{"gocccl_a_init": 2})
	assert.ErrorContains(t, err, "gocccl_a_init has no .minnctapersm")
	_, err = withBounds([]byte(boundedPTX), map[string]int{"gocccl_c": 2})
	assert.ErrorContains(t, err, "1 bounded kernels found")
}

func TestLooserBound(t *testing.T) {
	for from, want := range map[int]int{8: 7, 3: 2, 2: 0, 1: 0} {
		assert.Equal(t, want, looserBound(from), "after %d", from)
	}
}

// fakePtxas compiles PTX text into a fake image and a ptxas report in which
// each kernel spills spills[kernel][bound] bytes (stores and loads halved),
// the bound read from the text; it counts its runs.
type fakePtxas struct {
	spills map[string]map[int]int
	runs   int
	plain  int
}

func (f *fakePtxas) compile(text []byte) ([]byte, string, error) {
	f.runs++
	bounds, err := ptxBounds(text)
	if err != nil {
		return nil, "", err
	}
	var log strings.Builder
	for k, byBound := range f.spills {
		s := byBound[bounds[k]]
		log.WriteString("ptxas info    : Function properties for " + k + "\n")
		log.WriteString("    0 bytes stack frame, " + strconv.Itoa(s/2) + " bytes spill stores, " + strconv.Itoa(s-s/2) + " bytes spill loads\n")
	}
	return append([]byte("image of "), text...), log.String(), nil
}

func (f *fakePtxas) compilePlain(text []byte) ([]byte, error) {
	f.plain++
	return append([]byte("plain image of "), text...), nil
}

func TestGuardSpills(t *testing.T) {
	t.Run("relaxes only the kernel that spills", func(t *testing.T) {
		f := &fakePtxas{spills: map[string]map[int]int{
			"gocccl_a_sweep": {5: 900, 4: 600, 3: 100},
			"gocccl_b_sweep": {3: 512}, // at the limit: kept
		}}
		image, text, relaxed, err := guardSpills(Target{Arch: 90}, []byte(boundedPTX), f.compile, f.compilePlain)
		require.NoError(t, err)
		assert.Equal(t, []Relaxed{{Kernel: "gocccl_a_sweep", MinBlocks: 5, Compiled: 3, Spilled: 900, SpilledCompiled: 100}}, relaxed)
		bounds, err := ptxBounds(text)
		require.NoError(t, err)
		assert.Equal(t, map[string]int{"gocccl_a_sweep": 3, "gocccl_b_sweep": 3}, bounds)
		assert.Equal(t, "image of "+string(text), string(image), "the image is the last compile's, of the returned text")
		assert.Equal(t, 3, f.runs)
		assert.Zero(t, f.plain)
	})
	t.Run("drops a bound after 2", func(t *testing.T) {
		f := &fakePtxas{spills: map[string]map[int]int{
			"gocccl_b_sweep": {3: 2000, 2: 1000, 0: 700},
		}}
		_, text, relaxed, err := guardSpills(Target{Arch: 90}, []byte(boundedPTX), f.compile, f.compilePlain)
		require.NoError(t, err)
		assert.Equal(t, []Relaxed{{Kernel: "gocccl_b_sweep", MinBlocks: 3, Compiled: 0, Spilled: 2000, SpilledCompiled: 700}}, relaxed,
			"still over the limit without a bound: compiled without one")
		assert.NotContains(t, string(text), ".minnctapersm 3")
		assert.Contains(t, string(text), ".minnctapersm 5")
		assert.Equal(t, 3, f.runs)
	})
	t.Run("PTX it cannot read is an error naming the target, before any compile", func(t *testing.T) {
		f := &fakePtxas{}
		_, _, _, err := guardSpills(Target{Arch: 90}, []byte(strings.TrimSuffix(boundedPTX, "}\n")), f.compile, f.compilePlain)
		assert.ErrorContains(t, err, "spill guard for sm_90: PTX: kernel gocccl_b_sweep")
		assert.Zero(t, f.runs+f.plain)
	})
	t.Run("a part without bounds is compiled once, plainly", func(t *testing.T) {
		f := &fakePtxas{}
		unbounded := strings.NewReplacer(".minnctapersm 5\n", "", ".minnctapersm 3\n", "").Replace(boundedPTX)
		image, text, relaxed, err := guardSpills(Target{Arch: 90}, []byte(unbounded), f.compile, f.compilePlain)
		require.NoError(t, err)
		assert.Nil(t, relaxed)
		assert.Equal(t, unbounded, string(text))
		assert.Equal(t, "plain image of "+unbounded, string(image))
		assert.Equal(t, 0, f.runs)
		assert.Equal(t, 1, f.plain)
	})
}

// TestSpillGuardRealNVCC compiles the reduce model against testdata/spill's
// register-hungry reduce_single_pass with a policy of 8 blocks of 256 an SM
// (32 registers a thread): the int64 instance's 64 items spill far more
// than MaxSpillBytes there, the 4-byte instances' single item does not.
// The guard must relax exactly that kernel, ship PTX with the bound it
// chose, and ship SASS compiled from that PTX.
func TestSpillGuardRealNVCC(t *testing.T) {
	tc := realNVCC(t)
	sass, ptx := Target{Arch: 90}, Target{Arch: 90, PTX: true}
	if !tc.Supports(sass) || !tc.Supports(ptx) {
		t.Skipf("nvcc %s compiles neither sm_90 nor compute_90", tc.Version)
	}
	defer func(f func(*algo.Algorithm, int64, int) Policy) { policyFor = f }(policyFor)
	policyFor = func(alg *algo.Algorithm, size int64, a int) Policy {
		items := 1
		if size == 8 {
			items = 64
		}
		return Policy{Arch: a, BlockThreads: 256, ItemsPerThread: items, MinBlocks: 8}
	}
	headers := stubHeaders(t)
	hungry, err := os.ReadFile(filepath.Join("testdata", "spill", "include", "gocccl", "reduce.cuh"))
	require.NoError(t, err)
	for i := range headers {
		if headers[i].Name == "include/gocccl/reduce.cuh" {
			headers[i].Data = hungry
		}
	}
	pkg := reducePkg()
	src, err := cudaSource(pkg, []Target{sass, ptx})
	require.NoError(t, err)
	parts, partOf := instanceParts(pkg)
	out, err := tc.compile(context.Background(), src, headers, []Target{sass, ptx}, parts, 0)
	require.NoError(t, err)

	maxSweep := "gocccl_reduce_Max_sweep"
	for _, tg := range []Target{sass, ptx} {
		require.Len(t, out[tg].relaxed, 1, "%s: %v", tg, out[tg].relaxed)
		r := out[tg].relaxed[0]
		assert.Equal(t, maxSweep, r.Kernel, tg)
		assert.Equal(t, 8, r.MinBlocks)
		assert.Less(t, r.Compiled, 8)
		assert.Greater(t, r.Spilled, MaxSpillBytes)
		if r.Compiled > 0 {
			assert.LessOrEqual(t, r.SpilledCompiled, MaxSpillBytes, "a bound is kept only where it spills no more than the limit")
		}
	}
	assert.Equal(t, out[sass].relaxed, out[ptx].relaxed, "SASS and PTX of one architecture share the guard's choice")
	t.Logf("nvcc %s: %v", tc.Version, out[sass].relaxed)

	// The shipped PTX carries the chosen bound; every other kernel keeps the
	// policy's.
	offs := PartOffsets(out[ptx].parts)
	partText := func(i int) []byte {
		p := out[ptx].parts[i]
		return out[ptx].data[offs[i] : offs[i]+p.Size-1] // without the NUL
	}
	maxPart := partOf[2] // reducePkg's third instance: Max over int64
	for i := range parts {
		bounds, err := ptxBounds(partText(i))
		require.NoError(t, err)
		for k, n := range bounds {
			if k == maxSweep {
				assert.Equal(t, out[ptx].relaxed[0].Compiled, n)
				continue
			}
			assert.Equal(t, 8, n, k)
		}
		if i == maxPart && out[ptx].relaxed[0].Compiled == 0 {
			assert.NotContains(t, bounds, maxSweep)
		}
	}

	// The shipped SASS of that part is what nvcc makes of the shipped PTX.
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.ptx"), partText(maxPart), 0o644))
	args := append(append(Flags(), pathFlags()...), append(TargetFlags(sass), "-Xptxas", "-v", "-o", "p.cubin", "p.ptx")...)
	cmd := exec.Command(tc.Path, args...)
	cmd.Dir = dir
	log, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", log)
	want, err := os.ReadFile(filepath.Join(dir, "p.cubin"))
	require.NoError(t, err)
	soffs := PartOffsets(out[sass].parts)
	got := out[sass].data[soffs[maxPart] : soffs[maxPart]+out[sass].parts[maxPart].Size]
	assert.Equal(t, want, got)
}

// TestRelaxedKeptByCheckAndReuse: the manifest's record of relaxed kernels
// belongs to its images, so check finds a package with one up to date, and
// Generate's reuse of the images keeps it.
func TestRelaxedKeptByCheckAndReuse(t *testing.T) {
	nvcc, _ := fakeNVCC(t, true)
	dir := t.TempDir()
	pkg := reducePkg()
	pkg.Dir = dir
	ctx := context.Background()
	out, err := Generate(ctx, pkg, Options{NVCC: nvcc, Targets: []Target{{Arch: 90}}})
	require.NoError(t, err)
	require.NoError(t, out.Write(dir))

	path := filepath.Join(dir, ManifestFile)
	m, err := ReadManifest(path)
	require.NoError(t, err)
	relaxed := []Relaxed{{Kernel: "gocccl_reduce_Max_sweep", MinBlocks: 8, Compiled: 2, Spilled: 2256, SpilledCompiled: 48}}
	for i := range m.Files {
		if m.Files[i].Name == "gocccl_gen_sm_90.cubin" {
			m.Files[i].Relaxed = relaxed
		}
	}
	b, err := m.Marshal()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))
	assert.Contains(t, string(b), `"compiledMinBlocks": 2`)

	stale, err := Check(pkg, dir, Options{})
	require.NoError(t, err)
	assert.Empty(t, stale)

	reused, err := Generate(ctx, pkg, Options{NVCC: filepath.Join(t.TempDir(), "no-nvcc")})
	require.NoError(t, err)
	require.True(t, reused.Reused)
	assert.Equal(t, relaxed, reused.Manifest.FileRelaxed("gocccl_gen_sm_90.cubin"))
	assert.Equal(t, b, fileData(reused, ManifestFile), "the manifest is written back as it was")
}
