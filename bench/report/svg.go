package main

import (
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strings"
)

// palette gives each system of systemOrder its colour; others cycle through extra.
var palette = map[string]string{
	"gocccl":         "#d62728",
	"gocccl-kernels": "#ff9896",
	"cub":            "#1f77b4",
	"cuda":           "#7f7f7f",
	"cuda.compute":   "#2ca02c",
	"cupy":           "#9467bd",
	"torch":          "#ff7f0e",
}

var extra = []string{"#8c564b", "#e377c2", "#bcbd22", "#17becf", "#393b79", "#637939"}

func colour(systems []string, s string) string {
	if c, ok := palette[s]; ok {
		return c
	}
	i := 0
	for _, o := range systems {
		if o == s {
			break
		}
		if _, ok := palette[o]; !ok {
			i++
		}
	}
	return extra[i%len(extra)]
}

// Plot geometry, in SVG user units.
const (
	panelW, panelH = 340.0, 260.0
	marginL        = 58.0
	marginR        = 14.0
	marginT        = 40.0
	marginB        = 44.0
	legendRow      = 18.0
)

// WriteSVG draws one algorithm: a panel per element type with throughput
// (GB/s, log scale) against n (log2 scale), one line per system, and the copy
// ceiling as a dashed line.
func WriteSVG(w io.Writer, rep *Report, a *Algorithm) error {
	xmin, xmax := math.Inf(1), math.Inf(-1)
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, p := range a.Points {
		x := math.Log2(float64(max(p.N, 1)))
		xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
		for _, s := range a.Systems {
			if r, ok := a.Cell(s, p); ok {
				if g := r.GBps(); !math.IsNaN(g) && g > 0 {
					ymin, ymax = math.Min(ymin, g), math.Max(ymax, g)
				}
			}
		}
	}
	if !math.IsNaN(rep.Ceiling) && rep.Ceiling > 0 {
		ymax = math.Max(ymax, rep.Ceiling)
		ymin = math.Min(ymin, rep.Ceiling)
	}
	if math.IsInf(ymin, 0) {
		ymin, ymax = 1, 10
	}
	if math.IsInf(xmin, 0) {
		xmin, xmax = 0, 1
	}
	if xmax == xmin {
		xmin, xmax = xmin-1, xmax+1
	}
	lo, hi := math.Floor(math.Log10(ymin)), math.Ceil(math.Log10(ymax))
	if hi == lo {
		hi++
	}
	panels := max(len(a.Types), 1)
	width := marginL + float64(panels)*panelW + marginR
	legendRows := (len(a.Systems) + 3) / 4
	height := panelH + legendRow*float64(legendRows+1) + 8
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%s" height="%s" viewBox="0 0 %s %s" font-family="sans-serif" font-size="11">`+"\n",
		f(width), f(height), f(width), f(height))
	fmt.Fprintf(&b, `<rect width="%s" height="%s" fill="white"/>`+"\n", f(width), f(height))
	fmt.Fprintf(&b, `<text x="%s" y="16" font-size="14" font-weight="bold">%s: throughput (GB/s, minimal bytes) against n</text>`+"\n",
		f(marginL), esc(a.Name))
	for i, t := range a.Types {
		x0 := marginL + float64(i)*panelW
		drawPanel(&b, rep, a, t, x0, xmin, xmax, lo, hi)
	}
	// Legend.
	y := panelH + legendRow
	for i, s := range a.Systems {
		lx := marginL + float64(i%4)*170
		ly := y + float64(i/4)*legendRow
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/>`+"\n",
			f(lx), f(ly-4), f(lx+22), f(ly-4), colour(a.Systems, s))
		fmt.Fprintf(&b, `<text x="%s" y="%s">%s</text>`+"\n", f(lx+28), f(ly), esc(s))
	}
	if !math.IsNaN(rep.Ceiling) {
		ly := y + float64(legendRows)*legendRow
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black" stroke-dasharray="4 3"/>`+"\n",
			f(marginL), f(ly-4), f(marginL+22), f(ly-4))
		fmt.Fprintf(&b, `<text x="%s" y="%s">copy ceiling %s GB/s</text>`+"\n", f(marginL+28), f(ly), num(rep.Ceiling))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func drawPanel(b *strings.Builder, rep *Report, a *Algorithm, typ string, x0, xmin, xmax, lo, hi float64) {
	left, right := x0, x0+panelW-marginR-20
	top, bottom := marginT, panelH-marginB
	px := func(x float64) float64 { return left + (x-xmin)/(xmax-xmin)*(right-left) }
	py := func(g float64) float64 { return bottom - (math.Log10(g)-lo)/(hi-lo)*(bottom-top) }
	fmt.Fprintf(b, `<g><text x="%s" y="%s" font-weight="bold">%s</text>`+"\n", f(left), f(top-8), esc(typ))
	fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="#444"/>`+"\n",
		f(left), f(top), f(right-left), f(bottom-top))
	for d := lo; d <= hi; d++ {
		y := py(math.Pow(10, d))
		fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#ddd"/>`+"\n", f(left), f(y), f(right), f(y))
		if x0 == marginL {
			fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="end">%s</text>`+"\n", f(left-4), f(y+4), decade(d))
		}
	}
	var ns []int64
	for _, p := range a.Points {
		if !slices.Contains(ns, p.N) {
			ns = append(ns, p.N)
		}
	}
	slices.Sort(ns)
	for _, n := range ns {
		x := px(math.Log2(float64(max(n, 1))))
		fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="#eee"/>`+"\n", f(x), f(top), f(x), f(bottom))
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle">%s</text>`+"\n", f(x), f(bottom+14), sizeLabel(n))
	}
	fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle">n</text>`+"\n", f((left+right)/2), f(bottom+30))
	if x0 == marginL {
		fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="middle" transform="rotate(-90 %s %s)">GB/s</text>`+"\n",
			f(left-42), f((top+bottom)/2), f(left-42), f((top+bottom)/2))
	}
	if c := rep.Ceiling; !math.IsNaN(c) && c > 0 {
		y := py(c)
		fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="black" stroke-dasharray="4 3"/>`+"\n", f(left), f(y), f(right), f(y))
	}
	for _, s := range a.Systems {
		var pts []string
		for _, n := range ns {
			r, ok := a.Cell(s, Point{typ, n})
			g := r.GBps()
			if !ok || math.IsNaN(g) || g <= 0 {
				continue
			}
			pts = append(pts, f(px(math.Log2(float64(n))))+","+f(py(g)))
		}
		if len(pts) == 0 {
			continue
		}
		c := colour(a.Systems, s)
		fmt.Fprintf(b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"><title>%s</title></polyline>`+"\n",
			c, strings.Join(pts, " "), esc(s+" "+typ))
		for _, p := range pts {
			x, y, _ := strings.Cut(p, ",")
			fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="2.5" fill="%s"/>`+"\n", x, y, c)
		}
	}
	b.WriteString("</g>\n")
}

// decade labels 10^d compactly.
func decade(d float64) string {
	v := math.Pow(10, d)
	if d >= 0 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%g", v)
}

// f formats a coordinate with one decimal, deterministically.
func f(v float64) string { return fmt.Sprintf("%.1f", v) }

func esc(s string) string { return html.EscapeString(s) }
