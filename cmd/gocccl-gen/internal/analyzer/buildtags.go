package analyzer

import (
	"bytes"
	"fmt"
	"os/exec"
	"slices"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// buildTags returns the tags to load packages with: model.AnalyzeTag, the
// tags GOFLAGS sets, then tags, each once. A -tags flag on the go command's
// command line replaces the one in GOFLAGS instead of adding to it, so the
// GOFLAGS tags must be passed again along with ours.
func buildTags(dir string, tags []string) ([]string, error) {
	goflags, err := goEnvGOFLAGS(dir)
	if err != nil {
		return nil, err
	}
	all := append([]string{model.AnalyzeTag}, goflagsTags(goflags)...)
	for _, t := range tags {
		all = append(all, splitTags(t)...)
	}
	var merged []string
	for _, t := range all {
		if !slices.Contains(merged, t) {
			merged = append(merged, t)
		}
	}
	return merged, nil
}

// goEnvGOFLAGS returns GOFLAGS as the go command run in dir sees it: from
// the environment or, when that does not set it, from the go env file
// (go env -w).
func goEnvGOFLAGS(dir string) (string, error) {
	cmd := exec.Command("go", "env", "GOFLAGS")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOFLAGS: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// goflagsTags returns the build tags a GOFLAGS value sets with -tags=a,b,
// -tags a,b or the same with "--". As for the go command, the last -tags
// wins.
func goflagsTags(goflags string) []string {
	var tags []string
	fields := splitQuoted(goflags)
	for i := 0; i < len(fields); i++ {
		flag, ok := strings.CutPrefix(fields[i], "-")
		if !ok {
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(flag, "-"), "=")
		if name != "tags" {
			continue
		}
		if !hasValue {
			if i+1 == len(fields) {
				break
			}
			i++
			value = fields[i]
		}
		tags = splitTags(value)
	}
	return tags
}

// splitTags splits the value of a -tags flag: a comma-separated list, or
// the space-separated form the go command still accepts.
func splitTags(value string) []string {
	return strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
}

// splitQuoted splits s into fields separated by white space, as the go
// command splits GOFLAGS: a field may be enclosed in single or double
// quotes, which are removed, and holds no escapes.
func splitQuoted(s string) []string {
	var fields []string
	for {
		s = strings.TrimLeft(s, " \t\n\r")
		if s == "" {
			return fields
		}
		if q := s[0]; q == '\'' || q == '"' {
			if end := strings.IndexByte(s[1:], q); end >= 0 {
				fields = append(fields, s[1:1+end])
				s = s[2+end:]
				continue
			}
		}
		end := strings.IndexAny(s, " \t\n\r")
		if end < 0 {
			end = len(s)
		}
		fields = append(fields, s[:end])
		s = s[end:]
	}
}
