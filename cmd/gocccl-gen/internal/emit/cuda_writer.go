package emit

import (
	"bytes"
	"fmt"
	"strings"
)

// cWriter accumulates C++ source line by line, with indentation, and keeps
// the table from output line to the Go position that produced it.
type cWriter struct {
	buf    bytes.Buffer
	line   int    // number of lines written so far
	indent int    // current indentation level (two spaces each)
	at     string // Go position of what is being written, "" for none
	lines  map[int]string
}

// p writes one line (format and args as for fmt.Sprintf) at the current
// indentation, recording the current Go position for it. An empty format
// writes an empty line.
func (w *cWriter) p(format string, args ...any) {
	s := format
	if len(args) > 0 {
		s = fmt.Sprintf(format, args...)
	}
	for _, l := range strings.Split(s, "\n") {
		w.line++
		if l != "" {
			w.buf.WriteString(strings.Repeat("  ", w.indent))
			w.buf.WriteString(l)
		}
		w.buf.WriteByte('\n')
		if w.at != "" {
			if w.lines == nil {
				w.lines = make(map[int]string)
			}
			w.lines[w.line] = w.at
		}
	}
}

// in increases the indentation; out decreases it.
func (w *cWriter) in()  { w.indent++ }
func (w *cWriter) out() { w.indent-- }

// setPos sets the Go position recorded for the lines written next and
// returns the previous one, for restoring.
func (w *cWriter) setPos(pos string) (prev string) {
	prev, w.at = w.at, pos
	return prev
}
