// Command report turns the TSVs of a benchmark run into RESULTS.md and one
// SVG plot per algorithm.
//
//	report -in DIR [-env FILE] [-summary FILE] [-out DIR] [-plots results]
//
// It reads every *.tsv in the input folder except env.tsv (rows
// "system algorithm type n median_us bytes_moved [note]", see bench/README.md),
// env.tsv ("key value" lines: date, gpu, driver, cuda, cub_version,
// package versions) and summary.md, a hand-written Markdown summary of the
// run that RESULTS.md carries as it is, right after the environment table
// (a missing file gives no summary). It writes OUT/RESULTS.md and
// OUT/PLOTS/<algorithm>.svg. The output depends only on the inputs: the same
// files give the same bytes.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
)

func main() {
	in := flag.String("in", ".", "folder of the run's TSV files")
	envFile := flag.String("env", "", "env.tsv (default: IN/env.tsv)")
	summaryFile := flag.String("summary", "", "hand-written Markdown summary (default: IN/summary.md; none if missing)")
	out := flag.String("out", ".", "folder for RESULTS.md")
	plots := flag.String("plots", "results", "folder for the SVGs, relative to -out")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("report: ")
	if *envFile == "" {
		*envFile = filepath.Join(*in, "env.tsv")
	}
	if *summaryFile == "" {
		*summaryFile = filepath.Join(*in, "summary.md")
	}
	if err := run(*in, *envFile, *summaryFile, *out, *plots); err != nil {
		log.Fatal(err)
	}
}

func run(in, envFile, summaryFile, out, plots string) error {
	rep, err := Load(in, envFile)
	if err != nil {
		return err
	}
	if rep.Summary, err = LoadSummary(summaryFile); err != nil {
		return err
	}
	files, err := Render(rep, plots)
	if err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		path := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "report: %d algorithms, wrote %s\n", len(rep.Algorithms), filepath.Join(out, "RESULTS.md"))
	return nil
}

// Load reads the TSVs of folder in, in name order, and the env file (a
// missing env file gives an empty header).
func Load(in, envFile string) (*Report, error) {
	names, err := filepath.Glob(filepath.Join(in, "*.tsv"))
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	var rows []Row
	for _, name := range names {
		if filepath.Base(name) == "env.tsv" || name == envFile {
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		rs, err := ParseRows(f, name)
		f.Close()
		if err != nil {
			return nil, err
		}
		rows = append(rows, rs...)
	}
	env := Env{Values: map[string]string{}}
	if f, err := os.Open(envFile); err == nil {
		env, err = ParseEnv(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", envFile, err)
		}
	} else if !os.IsNotExist(err) {
		return nil, err
	}
	return Build(env, rows), nil
}

// LoadSummary reads the hand-written summary; a missing file is no summary.
func LoadSummary(file string) (string, error) {
	data, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// Render returns the output files by path relative to the output folder.
func Render(rep *Report, plots string) (map[string][]byte, error) {
	files := map[string][]byte{}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, rep, filepath.ToSlash(plots)); err != nil {
		return nil, err
	}
	files["RESULTS.md"] = md.Bytes()
	for _, a := range rep.Algorithms {
		var svg bytes.Buffer
		if err := WriteSVG(&svg, rep, a); err != nil {
			return nil, err
		}
		files[filepath.Join(plots, fileName(a.Name)+".svg")] = svg.Bytes()
	}
	return files, nil
}
