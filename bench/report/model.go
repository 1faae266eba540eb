package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Reference is the system every ratio is taken against.
const Reference = "cub"

// CopyAlgorithm names the device-to-device copy rows; CeilingSystem is the
// system whose best copy throughput is the ceiling (cudaMemcpyAsync from
// C++), any copy row counting when it has none.
const (
	CopyAlgorithm = "copy"
	CeilingSystem = "cuda"
)

// Host-side measurements are rows whose system is "SYSTEM:MEASURE", such as
// "gocccl:first_call" (the first call in a process, module load or JIT
// compile included) or "gocccl:per_call" (wall clock per call issued back to
// back); they are reported in their own table, not in the algorithm tables.
const measureSep = ":"

// systemOrder fixes the column order of known systems; others follow by name.
var systemOrder = []string{"gocccl", "gocccl-fastmath", "gocccl-kernels", "cub", "cuda", "cuda.compute", "cupy", "torch"}

// typeOrder fixes the row order of known element types; others follow by name.
var typeOrder = []string{"int8", "uint8", "int16", "uint16", "int32", "uint32", "float32", "int64", "uint64", "float64"}

func rank(order []string, s string) int {
	if i := slices.Index(order, s); i >= 0 {
		return i
	}
	return len(order)
}

func compareSystems(a, b string) int {
	return cmp.Or(cmp.Compare(rank(systemOrder, a), rank(systemOrder, b)), strings.Compare(a, b))
}

func compareTypes(a, b string) int {
	return cmp.Or(cmp.Compare(rank(typeOrder, a), rank(typeOrder, b)), strings.Compare(a, b))
}

// compareAlgorithms puts the copy first, then the rest by name.
func compareAlgorithms(a, b string) int {
	first := func(s string) int {
		if s == CopyAlgorithm {
			return 0
		}
		return 1
	}
	return cmp.Or(cmp.Compare(first(a), first(b)), strings.Compare(a, b))
}

// Point is one table row's coordinates.
type Point struct {
	Type string
	N    int64
}

// Algorithm holds the rows of one algorithm, indexed for tables and plots.
type Algorithm struct {
	Name    string
	Systems []string // in column order
	Points  []Point  // by type, then n
	Types   []string // in row order
	cells   map[key]Row
}

// Cell returns the row of system at p.
func (a *Algorithm) Cell(system string, p Point) (Row, bool) {
	r, ok := a.cells[key{system, a.Name, p.Type, p.N}]
	return r, ok
}

// Ratio is the time of system at p over the reference's, or NaN.
func (a *Algorithm) Ratio(system string, p Point) float64 {
	r, ok := a.Cell(system, p)
	ref, okRef := a.Cell(Reference, p)
	if !ok || !okRef || r.Skipped || ref.Skipped || ref.Micros <= 0 {
		return math.NaN()
	}
	return r.Micros / ref.Micros
}

// Report is everything RESULTS.md shows.
type Report struct {
	Env        Env
	Algorithms []*Algorithm
	Calls      []Row   // host-side measurements, sorted by algorithm, type, system, n
	Ceiling    float64 // GB/s of the best copy, NaN without one
	CeilingRow Row
	Duplicates []Row  // rows dropped because an earlier file had their key
	Summary    string // hand-written Markdown (summary.md), written after the environment table
}

// Build groups rows by algorithm. The first row of a key wins.
func Build(env Env, rows []Row) *Report {
	rep := &Report{Env: env, Ceiling: math.NaN()}
	seen := map[key]bool{}
	byAlg := map[string]*Algorithm{}
	for _, r := range rows {
		if seen[r.key()] {
			rep.Duplicates = append(rep.Duplicates, r)
			continue
		}
		seen[r.key()] = true
		if strings.Contains(r.System, measureSep) {
			rep.Calls = append(rep.Calls, r)
			continue
		}
		a := byAlg[r.Algorithm]
		if a == nil {
			a = &Algorithm{Name: r.Algorithm, cells: map[key]Row{}}
			byAlg[r.Algorithm] = a
			rep.Algorithms = append(rep.Algorithms, a)
		}
		a.cells[r.key()] = r
		if !slices.Contains(a.Systems, r.System) {
			a.Systems = append(a.Systems, r.System)
		}
		if p := (Point{r.Type, r.N}); !slices.Contains(a.Points, p) {
			a.Points = append(a.Points, p)
		}
		if !slices.Contains(a.Types, r.Type) {
			a.Types = append(a.Types, r.Type)
		}
	}
	slices.SortFunc(rep.Algorithms, func(x, y *Algorithm) int { return compareAlgorithms(x.Name, y.Name) })
	for _, a := range rep.Algorithms {
		slices.SortFunc(a.Systems, compareSystems)
		slices.SortFunc(a.Types, compareTypes)
		slices.SortFunc(a.Points, func(x, y Point) int {
			return cmp.Or(compareTypes(x.Type, y.Type), cmp.Compare(x.N, y.N))
		})
	}
	slices.SortFunc(rep.Calls, func(x, y Row) int {
		xs, xm, _ := strings.Cut(x.System, measureSep)
		ys, ym, _ := strings.Cut(y.System, measureSep)
		return cmp.Or(strings.Compare(x.Algorithm, y.Algorithm), strings.Compare(xm, ym), compareTypes(x.Type, y.Type),
			compareSystems(xs, ys), cmp.Compare(x.N, y.N))
	})
	rep.findCeiling()
	return rep
}

// findCeiling picks the copy row with the highest throughput, preferring
// CeilingSystem's rows.
func (rep *Report) findCeiling() {
	var copyAlg *Algorithm
	for _, a := range rep.Algorithms {
		if a.Name == CopyAlgorithm {
			copyAlg = a
		}
	}
	if copyAlg == nil {
		return
	}
	systems := []string{CeilingSystem}
	if !slices.Contains(copyAlg.Systems, CeilingSystem) {
		systems = copyAlg.Systems
	}
	for _, s := range systems {
		for _, p := range copyAlg.Points {
			r, ok := copyAlg.Cell(s, p)
			if g := r.GBps(); ok && !math.IsNaN(g) && (math.IsNaN(rep.Ceiling) || g > rep.Ceiling) {
				rep.Ceiling, rep.CeilingRow = g, r
			}
		}
	}
}

// sizeLabel writes n as 2^k when it is a power of two.
func sizeLabel(n int64) string {
	if n > 0 && n&(n-1) == 0 {
		k := 0
		for m := n; m > 1; m >>= 1 {
			k++
		}
		return fmt.Sprintf("2^%d", k)
	}
	return fmt.Sprint(n)
}
