package emit

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The spill guard. A policy's MinBlocks (the second argument of
// __launch_bounds__, ".minnctapersm" in PTX) asks ptxas to fit that many
// blocks on a multiprocessor, which caps the registers a thread may use. The
// tuning tables are measured with sums; a heavier operator (a struct's
// combine in a scan by key, a float64 ReduceByKey) can make ptxas spill
// hundreds of bytes a thread under the same cap. So every kernel compiled
// with a bound is compiled with ptxas' report (-Xptxas -v), and a kernel
// that spills more than MaxSpillBytes is compiled again with one block an SM
// fewer, down to 2 and then no bound at all, until it spills no more than
// that or has no bound left. Only the kernel's ".minnctapersm" line changes:
// every other kernel of its part, and every part without a bound, is
// compiled exactly as before. The manifest records each kernel it relaxed
// (FileHash.Relaxed).

// MaxSpillBytes is the most bytes of spill stores and loads (ptxas'
// static counts, a thread) a kernel compiled at its policy's bound may have.
// It is a guard against pathological spills, not a tuning: on the H200 a
// ReduceByKey sweep over float64 with about 400 bytes of spills at 6 blocks
// an SM ran faster than unbounded, and 192 bytes slowed a float64 scan by
// key by 4 % (bench/NOTES.md, 2026-12-04, fifth session); every kernel of
// the benchmarks spills less than this.
const MaxSpillBytes = 512

// Relaxed is a kernel compiled with fewer blocks an SM than its policy asks,
// because at the policy's bound it spilled more than MaxSpillBytes.
type Relaxed struct {
	Kernel    string `json:"kernel"`
	MinBlocks int    `json:"minBlocks"` // the policy's
	// Compiled is the bound the kernel was compiled with: 0 for none.
	Compiled int `json:"compiledMinBlocks"`
	// Spilled is the bytes of spill stores and loads a thread at the
	// policy's bound, SpilledCompiled at the compiled one.
	Spilled         int `json:"spilledBytes"`
	SpilledCompiled int `json:"spilledBytesCompiled"`
}

// String says what was relaxed and why, for gocccl-gen -v.
func (r Relaxed) String() string {
	at := "without a bound"
	if r.Compiled > 0 {
		at = fmt.Sprintf("at %d blocks an SM", r.Compiled)
	}
	return fmt.Sprintf("%s spilled %d bytes a thread at %d blocks an SM; compiled %s (%d bytes)",
		r.Kernel, r.Spilled, r.MinBlocks, at, r.SpilledCompiled)
}

// kernelUse is what ptxas reports of one kernel.
type kernelUse struct {
	Stack, SpillStores, SpillLoads int // bytes a thread
}

// spilled returns the bytes of spill stores and loads.
func (u kernelUse) spilled() int { return u.SpillStores + u.SpillLoads }

var (
	ptxasProperties = regexp.MustCompile(`ptxas info\s*: Function properties for (\S+)`)
	ptxasSpills     = regexp.MustCompile(`(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads`)
)

// parsePtxasReport reads the kernels' stack and spills from the output of
// ptxas -v (CUDA 11.8 and 13 write it alike):
//
//	ptxas info    : Function properties for NAME
//	    24 bytes stack frame, 208 bytes spill stores, 424 bytes spill loads
func parsePtxasReport(log string) map[string]kernelUse {
	uses := make(map[string]kernelUse)
	name := ""
	for _, line := range strings.Split(log, "\n") {
		if m := ptxasProperties.FindStringSubmatch(line); m != nil {
			name = m[1]
			continue
		}
		if m := ptxasSpills.FindStringSubmatch(line); m != nil && name != "" {
			var n [3]int
			for i := range n {
				n[i], _ = strconv.Atoi(m[i+1])
			}
			uses[name] = kernelUse{Stack: n[0], SpillStores: n[1], SpillLoads: n[2]}
		}
		name = ""
	}
	return uses
}

// minBlocksLine matches a kernel's ".minnctapersm N" directive.
var minBlocksLine = regexp.MustCompile(`^\s*\.minnctapersm\s+(\d+)\s*$`)

// ptxBounds returns the ".minnctapersm" of every kernel of ptx that has one.
func ptxBounds(ptx []byte) (map[string]int, error) {
	lines := strings.SplitAfter(string(ptx), "\n")
	entries, err := ptxEntries(lines)
	if err != nil {
		return nil, err
	}
	bounds := make(map[string]int)
	for _, e := range entries {
		if i := boundLine(lines, e); i >= 0 {
			n, _ := strconv.Atoi(minBlocksLine.FindStringSubmatch(strings.TrimRight(lines[i], "\r\n"))[1])
			bounds[e.name] = n
		}
	}
	return bounds, nil
}

// boundLine returns the index of e's ".minnctapersm" line, which nvcc writes
// between the parameter list and the body's opening brace, or -1.
func boundLine(lines []string, e ptxEntry) int {
	for i := e.begin; i < e.end; i++ {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), "{") {
			return -1
		}
		if minBlocksLine.MatchString(strings.TrimRight(lines[i], "\r\n")) {
			return i
		}
	}
	return -1
}

// withBounds returns ptx with the ".minnctapersm" of each kernel in bounds
// set to its value, the line removed where the value is 0. A kernel of
// bounds that has no such line is an error.
func withBounds(ptx []byte, bounds map[string]int) ([]byte, error) {
	lines := strings.SplitAfter(string(ptx), "\n")
	entries, err := ptxEntries(lines)
	if err != nil {
		return nil, err
	}
	done := 0
	for _, e := range entries {
		n, ok := bounds[e.name]
		if !ok {
			continue
		}
		i := boundLine(lines, e)
		if i < 0 {
			return nil, fmt.Errorf("PTX: kernel %s has no .minnctapersm", e.name)
		}
		done++
		if was, _ := strconv.Atoi(minBlocksLine.FindStringSubmatch(strings.TrimRight(lines[i], "\r\n"))[1]); was == n {
			continue // as nvcc wrote it
		}
		lines[i] = ""
		if n > 0 {
			lines[i] = fmt.Sprintf(".minnctapersm %d\n", n)
		}
	}
	if done != len(bounds) {
		return nil, fmt.Errorf("PTX: %d of %d bounded kernels found", done, len(bounds))
	}
	return []byte(strings.Join(lines, "")), nil
}

// looserBound returns the next bound to try after minBlocks: one block
// fewer, and after 2 none (0). A bound of 1 is not the same as none: it
// lets ptxas take every register (bench/NOTES.md, 2026-12-03).
func looserBound(minBlocks int) int {
	if minBlocks <= 2 {
		return 0
	}
	return minBlocks - 1
}

// guardSpills runs the spill guard over one part's PTX for target t (errors
// of its own name t; compile's are nvcc's, which do): compile compiles
// PTX text with ptxas' report and returns the image and the report. It
// returns the last image, the PTX it was compiled from, and the kernels
// whose bound it relaxed, sorted by name. A part without bounded kernels is
// compiled once, by plain (without the report, so that its image is the
// same as without the guard).
func guardSpills(t Target, text []byte, compile func(text []byte) ([]byte, string, error), plain func(text []byte) ([]byte, error)) ([]byte, []byte, []Relaxed, error) {
	policy, err := ptxBounds(text)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("spill guard for %s: %w", t, err)
	}
	if len(policy) == 0 {
		image, err := plain(text)
		return image, text, nil, err
	}
	bounds := make(map[string]int, len(policy))
	for k, n := range policy {
		bounds[k] = n
	}
	first := make(map[string]int) // spills at the policy's bound
	policyText := text
	for {
		image, log, err := compile(text)
		if err != nil {
			return nil, nil, nil, err
		}
		uses := parsePtxasReport(log)
		changed := false
		for k, n := range bounds {
			s := uses[k].spilled()
			if n == policy[k] {
				first[k] = s
			}
			if n > 0 && s > MaxSpillBytes {
				bounds[k] = looserBound(n)
				changed = true
			}
		}
		if !changed {
			var relaxed []Relaxed
			for k, n := range bounds {
				if n != policy[k] {
					relaxed = append(relaxed, Relaxed{Kernel: k, MinBlocks: policy[k], Compiled: n,
						Spilled: first[k], SpilledCompiled: uses[k].spilled()})
				}
			}
			sort.Slice(relaxed, func(i, j int) bool { return relaxed[i].Kernel < relaxed[j].Kernel })
			return image, text, relaxed, nil
		}
		if text, err = withBounds(policyText, bounds); err != nil {
			return nil, nil, nil, fmt.Errorf("spill guard for %s: %w", t, err)
		}
	}
}
