package emit

import (
	"fmt"
	"regexp"
	"strings"
)

// A package's kernels are compiled once to PTX and then into one image per
// part: the kernels of one instance (instances that share a kernel share a
// part). The runtime loads only the part of the instance a call runs, so a
// program's first call loads one instance's code, not its package's: the
// driver's module load takes about a millisecond a megabyte on the H200
// (bench/NOTES.md, 2026-12-02), and a package of a hundred instances holds
// three. ptxas compiles every entry on its own, so a part's code is the code
// the whole package's cubin holds for those kernels, byte for byte.

// entryLine matches the first line of a kernel's definition in PTX: its
// linkage, ".entry" and the name up to the parameter list.
var entryLine = regexp.MustCompile(`^(?:\.(?:visible|weak)\s+)?\.entry\s+([A-Za-z_$][A-Za-z0-9_$]*)\s*\(`)

// ptxEntry is one kernel's definition: lines [begin, end) of the module.
type ptxEntry struct {
	name       string
	begin, end int
}

// splitPTX returns one PTX module per part, each holding every declaration
// of ptx (its header, globals, functions) and the entries that part lists,
// in the order ptx defines them. An entry no part lists is left out; a
// listed entry ptx does not define is an error.
func splitPTX(ptx []byte, parts [][]string) ([][]byte, error) {
	lines := strings.SplitAfter(string(ptx), "\n")
	entries, err := ptxEntries(lines)
	if err != nil {
		return nil, err
	}
	byName := make(map[string]ptxEntry, len(entries))
	for _, e := range entries {
		byName[e.name] = e
	}
	inEntry := make([]bool, len(lines))
	for _, e := range entries {
		for i := e.begin; i < e.end; i++ {
			inEntry[i] = true
		}
	}
	out := make([][]byte, len(parts))
	for p, names := range parts {
		want := make(map[string]bool, len(names))
		for _, n := range names {
			if _, ok := byName[n]; !ok {
				return nil, fmt.Errorf("PTX: no kernel %s", n)
			}
			want[n] = true
		}
		var kept []string
		next := 0 // the next entry
		for i := 0; i < len(lines); {
			if !inEntry[i] {
				if !isGloblComment(lines, i, entries, next) || want[entries[next].name] {
					kept = append(kept, lines[i])
				}
				i++
				continue
			}
			e := entries[next]
			if want[e.name] {
				kept = append(kept, lines[e.begin:e.end]...)
			}
			i, next = e.end, next+1
		}
		out[p] = []byte(strings.Join(unreferencedDropped(kept), ""))
	}
	return out, nil
}

// globalLine matches a module-scope variable declared on one line: CCCL's
// customization-point objects (cuda::std::ranges::swap and its kin), one
// byte each, which every module declares and few kernels use.
var globalLine = regexp.MustCompile(`^\.(?:global|const)\s.*?([A-Za-z_$][A-Za-z0-9_$]*)(?:\[\d*\])?(?:\s*=.*)?;\s*$`)

// unreferencedDropped returns lines without the module-scope variables that
// no other line names: ptxas would give each a symbol, a string and a
// relocation in every part (4 KB of a Reduce's 47 KB cubin), and no code
// reads them. A name that is part of another is kept, which only keeps more;
// a line that declares several is kept whole.
func unreferencedDropped(lines []string) []string {
	text := strings.Join(lines, "")
	out := lines[:0:0]
	for _, l := range lines {
		decl, _, _ := strings.Cut(l, "=")
		if m := globalLine.FindStringSubmatch(l); m != nil && !strings.Contains(decl, ",") && strings.Count(text, m[1]) == strings.Count(l, m[1]) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// isGloblComment reports whether lines[i] is the "// .globl NAME" comment
// that nvcc writes just before entries[next].
func isGloblComment(lines []string, i int, entries []ptxEntry, next int) bool {
	if next >= len(entries) {
		return false
	}
	f := strings.Fields(lines[i])
	return len(f) == 3 && f[0] == "//" && f[1] == ".globl" && f[2] == entries[next].name
}

// ptxEntries finds every entry of a PTX module: from its .entry line to the
// closing brace of its body. Braces in comments (// and /* */) do not count;
// declarations between entries must balance theirs (an initializer's), so
// that a body that ends early is an error, not a part of every module.
func ptxEntries(lines []string) ([]ptxEntry, error) {
	var entries []ptxEntry
	inComment := false // inside a /* */ comment
	outside := 0       // brace depth of the declarations between entries
	for i := 0; i < len(lines); i++ {
		m := entryLine.FindStringSubmatch(lines[i])
		if m == nil || inComment {
			code := ptxCode(lines[i], &inComment)
			if outside += strings.Count(code, "{") - strings.Count(code, "}"); outside < 0 {
				return nil, fmt.Errorf("PTX: unbalanced braces at line %d", i+1)
			}
			continue
		}
		if outside != 0 {
			return nil, fmt.Errorf("PTX: kernel %s at line %d begins inside braces", m[1], i+1)
		}
		depth, opened := 0, false
		j := i
		for ; j < len(lines); j++ {
			code := ptxCode(lines[j], &inComment)
			if !opened && strings.Contains(code, ";") && !strings.Contains(code, "{") {
				return nil, fmt.Errorf("PTX: kernel %s at line %d is declared, not defined", m[1], i+1)
			}
			depth += strings.Count(code, "{") - strings.Count(code, "}")
			if strings.Contains(code, "{") {
				opened = true
			}
			if opened && depth == 0 {
				break
			}
			if depth < 0 {
				return nil, fmt.Errorf("PTX: unbalanced braces in kernel %s at line %d", m[1], j+1)
			}
		}
		if j == len(lines) {
			return nil, fmt.Errorf("PTX: kernel %s at line %d has no end", m[1], i+1)
		}
		entries = append(entries, ptxEntry{name: m[1], begin: i, end: j + 1})
		i = j
	}
	if outside != 0 || inComment {
		return nil, fmt.Errorf("PTX: unbalanced braces or an open comment at the end")
	}
	return entries, nil
}

// ptxCode returns line without its comments; inComment carries an open /*
// comment from one line to the next.
func ptxCode(line string, inComment *bool) string {
	var b strings.Builder
	for len(line) > 0 {
		if *inComment {
			end := strings.Index(line, "*/")
			if end < 0 {
				return b.String()
			}
			line, *inComment = line[end+2:], false
			continue
		}
		lc, bc := strings.Index(line, "//"), strings.Index(line, "/*")
		switch {
		case lc >= 0 && (bc < 0 || lc < bc):
			b.WriteString(line[:lc])
			return b.String()
		case bc >= 0:
			b.WriteString(line[:bc])
			line, *inComment = line[bc+2:], true
		default:
			b.WriteString(line)
			return b.String()
		}
	}
	return b.String()
}
