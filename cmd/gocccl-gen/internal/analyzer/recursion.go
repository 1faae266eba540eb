package analyzer

import (
	"go/token"
	"slices"
	"strings"
)

// checkRecursion reports every cycle in the call graph of the operators:
// GPU code has no call stack to recurse on. Each strongly connected component
// with a cycle gets one diagnostic, at the first call of the cycle through
// its first operator in source order.
func (a *analysis) checkRecursion() {
	index := make(map[*opDecl]int, len(a.opList))
	for i, od := range a.opList {
		index[od] = i
	}
	for _, scc := range stronglyConnected(a.opList, index) {
		in := make(map[*opDecl]bool, len(scc))
		for _, od := range scc {
			in[od] = true
		}
		first := scc[0]
		for _, od := range scc[1:] {
			if index[od] < index[first] {
				first = od
			}
		}
		cycle, pos := findCycle(first, in)
		if cycle == nil {
			continue // a single operator that does not call itself
		}
		names := make([]string, len(cycle))
		for i, od := range cycle {
			names[i] = od.op.Name
		}
		a.errorf(pos, "recursion is not allowed in operators: %s; GPU code has no call stack: rewrite it with a loop", strings.Join(names, " → "))
	}
}

// findCycle returns the shortest cycle from start back to start through
// operators in scc, as the list of operators (start at both ends), and the
// position of its first call. It returns nil when there is none.
func findCycle(start *opDecl, scc map[*opDecl]bool) ([]*opDecl, token.Pos) {
	type step struct {
		prev *opDecl
		pos  token.Pos
	}
	via := map[*opDecl]step{}
	queue := []*opDecl{start}
	for len(queue) > 0 {
		od := queue[0]
		queue = queue[1:]
		for _, c := range od.calls {
			if !scc[c.callee] {
				continue
			}
			if c.callee == start {
				cycle := []*opDecl{start}
				pos := c.pos
				for cur := od; cur != start; cur = via[cur].prev {
					cycle = append(cycle, cur)
					pos = via[cur].pos
				}
				cycle = append(cycle, start)
				slices.Reverse(cycle)
				return cycle, pos
			}
			if _, seen := via[c.callee]; !seen {
				via[c.callee] = step{prev: od, pos: c.pos}
				queue = append(queue, c.callee)
			}
		}
	}
	return nil, token.NoPos
}

// stronglyConnected returns the strongly connected components of the call
// graph (Tarjan's algorithm), visiting operators and calls in source order so
// that the result is deterministic.
func stronglyConnected(ops []*opDecl, index map[*opDecl]int) [][]*opDecl {
	var (
		next    int
		order   = make(map[*opDecl]int)
		low     = make(map[*opDecl]int)
		onStack = make(map[*opDecl]bool)
		stack   []*opDecl
		out     [][]*opDecl
		visit   func(*opDecl)
	)
	visit = func(v *opDecl) {
		order[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, c := range v.calls {
			w := c.callee
			if _, known := index[w]; !known {
				continue
			}
			if _, seen := order[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], order[w])
			}
		}
		if low[v] == order[v] {
			var scc []*opDecl
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				scc = append(scc, w)
				if w == v {
					break
				}
			}
			out = append(out, scc)
		}
	}
	for _, od := range ops {
		if _, seen := order[od]; !seen {
			visit(od)
		}
	}
	return out
}
