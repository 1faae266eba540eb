package analyzer

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rejectRulePrefix names the test cases with one rule of the subset each:
// their "// want" comments pin the lines (TestDiagnostics), their golden
// files the exact columns and messages (TestRejectRules), and the table of
// docs/OPERATORS.md lists them (TestRejectRulesDocumented).
const rejectRulePrefix = "reject_rule_"

// rejectRuleCases returns the reject_rule_* case directories, sorted.
func rejectRuleCases(t *testing.T) []string {
	t.Helper()
	_, diag := testCases(t)
	var cases []string
	for _, c := range diag {
		if strings.HasPrefix(c, rejectRulePrefix) {
			cases = append(cases, c)
		}
	}
	slices.Sort(cases)
	return cases
}

// rejectRuleDiagnostics returns the diagnostics of each reject_rule_* case
// as "file.go:line:col: message" lines, the file name relative to the case.
func rejectRuleDiagnostics(t *testing.T) map[string][]string {
	t.Helper()
	byCase := make(map[string][]string)
	for _, d := range loadRejected(t) {
		c := filepath.Base(filepath.Dir(d.Pos.Filename))
		if !strings.HasPrefix(c, rejectRulePrefix) {
			continue
		}
		byCase[c] = append(byCase[c], filepath.Base(d.Pos.Filename)+":"+
			strconv.Itoa(d.Pos.Line)+":"+strconv.Itoa(d.Pos.Column)+": "+d.Message)
	}
	return byCase
}

// TestRejectRules compares the diagnostics of each reject_rule_* case, with
// their exact columns, with testdata/<case>.golden (go test -update
// rewrites them).
func TestRejectRules(t *testing.T) {
	cases := rejectRuleCases(t)
	require.NotEmpty(t, cases)
	byCase := rejectRuleDiagnostics(t)
	for _, c := range cases {
		t.Run(c, func(t *testing.T) {
			got := strings.Join(byCase[c], "\n") + "\n"
			file := filepath.Join("testdata", c+".golden")
			if *update {
				require.NoError(t, os.WriteFile(file, []byte(got), 0o644))
				return
			}
			want, err := os.ReadFile(file)
			require.NoError(t, err, "run go test ./analyzer -run TestRejectRules -update to create it")
			assert.Equal(t, string(want), got)
		})
	}
	goldens, err := filepath.Glob(filepath.Join("testdata", rejectRulePrefix+"*.golden"))
	require.NoError(t, err)
	for _, g := range goldens {
		c := strings.TrimSuffix(filepath.Base(g), ".golden")
		assert.Contains(t, cases, c, "%s has no case directory", g)
	}
}

// docRule is one row of the table "What an operator may not use".
type docRule struct {
	construct string
	message   *regexp.Regexp // the start of a message; … matches anything
	caseDir   string
}

var backticked = regexp.MustCompile("`([^`]*)`")

// documentedRules parses the table of the section "What an operator may
// not use" of docs/OPERATORS.md.
func documentedRules(t *testing.T) []docRule {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "docs", "OPERATORS.md"))
	require.NoError(t, err)
	const heading = "## What an operator may not use\n"
	_, section, ok := strings.Cut(string(doc), heading)
	require.True(t, ok, "docs/OPERATORS.md has no section %q", strings.TrimSpace(heading))
	if i := strings.Index(section, "\n## "); i >= 0 {
		section = section[:i]
	}
	var rules []docRule
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| ---") || strings.HasPrefix(line, "| construct ") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		require.Len(t, cells, 4, "row %q: want construct | message | do instead | case", line)
		msg := backticked.FindStringSubmatch(cells[1])
		require.NotNil(t, msg, "row %q: the message is not in backquotes", line)
		dir := backticked.FindStringSubmatch(cells[3])
		require.NotNil(t, dir, "row %q: the case is not in backquotes", line)
		parts := strings.Split(msg[1], "…")
		for i, p := range parts {
			parts[i] = regexp.QuoteMeta(p)
		}
		rules = append(rules, docRule{
			construct: cells[0],
			message:   regexp.MustCompile("^" + strings.Join(parts, ".*")),
			caseDir:   dir[1],
		})
	}
	require.NotEmpty(t, rules, "no rules in the table of %q", strings.TrimSpace(heading))
	return rules
}

// TestRejectRulesDocumented checks that every rule the documentation lists
// has its case, whose diagnostics include the documented message, and that
// every reject_rule_* case is documented.
func TestRejectRulesDocumented(t *testing.T) {
	rules := documentedRules(t)
	cases := rejectRuleCases(t)
	byCase := rejectRuleDiagnostics(t)
	documented := make(map[string]bool)
	for _, r := range rules {
		documented[r.caseDir] = true
		if !assert.Contains(t, cases, r.caseDir, "rule %q: no case directory", r.construct) {
			continue
		}
		found := slices.ContainsFunc(byCase[r.caseDir], func(line string) bool {
			_, msg, _ := strings.Cut(line, ": ")
			return r.message.MatchString(msg)
		})
		assert.True(t, found, "rule %q: no diagnostic of %s starts with %q; it has:\n%s",
			r.construct, r.caseDir, r.message, strings.Join(byCase[r.caseDir], "\n"))
	}
	for _, c := range cases {
		assert.True(t, documented[c], "case %s is not in the table of docs/OPERATORS.md", c)
	}
}
