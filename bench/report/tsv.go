package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Row is one line of a benchmark TSV:
//
//	system  algorithm  type  n  median_us  bytes_moved  [note]
//
// A median of "-" marks a skipped measurement (Skipped is set, Micros is
// NaN) and the note says why. Bytes is the minimal traffic of the operation:
// every input byte read once, every output byte written once.
type Row struct {
	System    string
	Algorithm string
	Type      string
	N         int64
	Micros    float64
	Bytes     int64
	Note      string
	Skipped   bool
}

// key identifies a measurement; a later row with the same key is a duplicate.
type key struct {
	system, algorithm, typ string
	n                      int64
}

func (r Row) key() key { return key{r.System, r.Algorithm, r.Type, r.N} }

// GBps is the row's throughput in GB/s (10^9 bytes per second), or NaN.
func (r Row) GBps() float64 {
	if r.Skipped || r.Micros <= 0 {
		return math.NaN()
	}
	return float64(r.Bytes) / (r.Micros * 1e3)
}

// ParseRows reads benchmark rows. Blank lines, lines starting with '#' and a
// header line starting with "system\t" are skipped; name labels errors.
func ParseRows(r io.Reader, name string) ([]Row, error) {
	var rows []Row
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, "system\t") {
			continue
		}
		row, err := parseRow(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return rows, nil
}

func parseRow(text string) (Row, error) {
	f := strings.Split(text, "\t")
	if len(f) < 6 {
		return Row{}, fmt.Errorf("want at least 6 tab-separated fields, got %d in %q", len(f), text)
	}
	for i := range 4 {
		if f[i] == "" {
			return Row{}, fmt.Errorf("field %d is empty in %q", i+1, text)
		}
	}
	r := Row{System: f[0], Algorithm: f[1], Type: f[2]}
	if len(f) > 6 {
		r.Note = strings.Join(f[6:], " ")
	}
	var err error
	if r.N, err = strconv.ParseInt(f[3], 10, 64); err != nil || r.N < 0 {
		return Row{}, fmt.Errorf("bad n %q", f[3])
	}
	switch f[4] {
	case "-", "skip", "nan", "NaN":
		r.Skipped, r.Micros = true, math.NaN()
	default:
		if r.Micros, err = strconv.ParseFloat(f[4], 64); err != nil || r.Micros < 0 || math.IsNaN(r.Micros) {
			return Row{}, fmt.Errorf("bad median_us %q", f[4])
		}
	}
	if f[5] == "-" || f[5] == "" {
		r.Bytes = 0
	} else if r.Bytes, err = strconv.ParseInt(f[5], 10, 64); err != nil || r.Bytes < 0 {
		return Row{}, fmt.Errorf("bad bytes_moved %q", f[5])
	}
	return r, nil
}

// Env is the run's description: key/value pairs in file order, from lines
// "key<TAB>value" ('#' lines are comments). A repeated key keeps its first value.
type Env struct {
	Keys   []string
	Values map[string]string
}

// Get returns the value of key, or "unknown".
func (e Env) Get(key string) string {
	if v, ok := e.Values[key]; ok && v != "" {
		return v
	}
	return "unknown"
}

// ParseEnv reads an env.tsv.
func ParseEnv(r io.Reader) (Env, error) {
	e := Env{Values: map[string]string{}}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		k, v, _ := strings.Cut(text, "\t")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if _, dup := e.Values[k]; dup || k == "" {
			continue
		}
		e.Keys = append(e.Keys, k)
		e.Values[k] = v
	}
	return e, sc.Err()
}
