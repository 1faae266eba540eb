package analyzer

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArchDirective checks the targets and position the accepted
// //gocccl:arch cases record in the model.
func TestArchDirective(t *testing.T) {
	pkgs := loadAccepted(t, []string{"accept_arch_single", "accept_arch_files", "basic"})
	single := pkgs["accept_arch_single"]
	assert.Equal(t, []string{"sm_80", "sm_90", "compute_90"}, single.Targets)
	pos := single.Fset.Position(single.TargetsPos)
	assert.Equal(t, "arch.go:5:1", filepath.Base(pos.Filename)+":"+strconv.Itoa(pos.Line)+":"+strconv.Itoa(pos.Column))

	files := pkgs["accept_arch_files"]
	assert.Equal(t, []string{"sm_75", "sm_86", "compute_86"}, files.Targets)
	pos = files.Fset.Position(files.TargetsPos)
	assert.Equal(t, "a.go", filepath.Base(pos.Filename), "the first directive in file name order")

	assert.Nil(t, pkgs["basic"].Targets, "no directive, no targets")
	assert.False(t, pkgs["basic"].TargetsPos.IsValid())
}

// TestArchDirectiveColumns checks that a bad target is reported at its own
// column.
func TestArchDirectiveColumns(t *testing.T) {
	errs := loadRejected(t)
	for _, tc := range []struct{ pos, message string }{
		{"reject_arch_targets/targets.go:4:21", `bad target "sm90"`},
		{"reject_arch_targets/targets.go:4:26", `bad target "compute_9x"`},
		{"reject_arch_conflict/b.go:3:1", `conflicts with`},
		{"reject_arch_placement/placement.go:8:1", `applies to the whole package`},
	} {
		found := false
		for _, d := range errs {
			rel := filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(d.Pos.Filename)), filepath.Base(d.Pos.Filename)))
			if rel+":"+strconv.Itoa(d.Pos.Line)+":"+strconv.Itoa(d.Pos.Column) == tc.pos && strings.Contains(d.Message, tc.message) {
				found = true
			}
		}
		assert.True(t, found, "no diagnostic %q at %s", tc.message, tc.pos)
	}
}

func TestSplitTargets(t *testing.T) {
	ws := splitTargets(100, " sm_80,sm_90 ,\tcompute_90 // note, sm_70")
	var got []string
	for _, w := range ws {
		got = append(got, w.name+"@"+strconv.Itoa(int(w.pos)))
	}
	require.Equal(t, []string{"sm_80@101", "sm_90@107", "compute_90@115"}, got)
}
