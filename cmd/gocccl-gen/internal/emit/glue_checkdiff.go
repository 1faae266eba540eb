package emit

import "strings"

// inputsDiff says how the inputs recorded in old differ from those of m,
// for check's report: the generator, the flags, the targets, or else the
// CUDA source and headers (which only the input hash records).
func inputsDiff(old, m *Manifest) string {
	if old == nil {
		return "no manifest"
	}
	var diffs []string
	if old.Generator != m.Generator {
		diffs = append(diffs, "generator "+old.Generator+" → "+m.Generator)
	}
	if strings.Join(old.Flags, " ") != strings.Join(m.Flags, " ") {
		diffs = append(diffs, "nvcc flags "+strings.Join(old.Flags, " ")+" → "+strings.Join(m.Flags, " "))
	}
	if targetList(normalizeTargets(old.Targets)) != targetList(m.Targets) {
		diffs = append(diffs, "targets "+targetList(normalizeTargets(old.Targets))+" → "+targetList(m.Targets))
	}
	if len(diffs) == 0 {
		diffs = append(diffs, "operators, instances or kernel headers changed")
	}
	return strings.Join(diffs, "; ")
}
