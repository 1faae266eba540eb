package analyzer

import (
	"go/ast"
	"go/token"
	"strings"
)

// opDirective is the prefix of the one directive gocccl-gen knows.
const opDirective = "//gocccl:op"

// malformedDirective is the message for a spaced or capitalized directive.
const malformedDirective = "malformed directive: did you mean " + opDirective +
	"? (directives are lower case, with no space after \"//\" or \"gocccl:\")"

// knownOptions are the options "//gocccl:op" accepts.
var knownOptions = []string{"fastmath"}

// directive is a well-formed "//gocccl:op [option ...]" comment.
type directive struct {
	comment *ast.Comment
	options []option
}

// option is one word after "//gocccl:op", with its position.
type option struct {
	name string
	pos  token.Pos
}

// parseDirective reports whether c is a well-formed //gocccl:op line and
// returns it. A comment that looks like a misspelt directive gets a
// diagnostic saying what was probably meant.
func (a *analysis) parseDirective(c *ast.Comment) (directive, bool) {
	text := c.Text
	if strings.HasPrefix(text, "/*") {
		inner := strings.TrimLeft(strings.TrimPrefix(text, "/*"), " \t\r\n")
		if strings.HasPrefix(strings.ToLower(inner), "gocccl:") {
			a.errorf(c.Pos(), "gocccl directives must be line comments: write %s on a line of its own", opDirective)
		}
		return directive{}, false
	}
	if rest, ok := strings.CutPrefix(text, "//gocccl:"); ok {
		name := rest
		if i := strings.IndexAny(rest, " \t"); i >= 0 {
			name = rest[:i]
		}
		switch name {
		case "op":
			offset := len(opDirective)
			return directive{comment: c, options: splitOptions(c.Pos()+token.Pos(offset), text[offset:])}, true
		case "arch":
			// A package-level directive: see findArch.
		case "":
			a.errorf(c.Pos(), "%s", malformedDirective)
		default:
			a.errorf(c.Pos(), "unknown directive //gocccl:%s: did you mean %s?", name, suggestDirective(name))
		}
		return directive{}, false
	}
	// A spaced or capitalized form: "// gocccl:op", "//GOCCCL:op",
	// "// gocccl: op" (gofmt adds the space after "//" to the last two).
	words := strings.Fields(strings.Replace(strings.ToLower(strings.TrimPrefix(text, "//")), ":", ": ", 1))
	if len(words) >= 2 && words[0] == "gocccl:" && words[1] == "op" {
		a.errorf(c.Pos(), "%s", malformedDirective)
	}
	return directive{}, false
}

// splitOptions splits the text after "//gocccl:op" (at pos) into words,
// stopping at a trailing "//" comment.
func splitOptions(pos token.Pos, s string) []option {
	var opts []option
	for i := 0; i < len(s); {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		word := s[i:j]
		if strings.HasPrefix(word, "//") {
			break
		}
		opts = append(opts, option{name: word, pos: pos + token.Pos(i)})
		i = j
	}
	return opts
}

// applyOptions checks the options of d and sets them on op.
func (a *analysis) applyOptions(d directive, od *opDecl) {
	seen := make(map[string]bool)
	for _, o := range d.options {
		switch {
		case seen[o.name]:
			a.errorf(o.pos, "duplicate //gocccl:op option %q", o.name)
		case o.name == "fastmath":
			od.op.FastMath = true
		default:
			a.errorf(o.pos, "unknown //gocccl:op option %q (known options: %s)", o.name, strings.Join(knownOptions, ", "))
		}
		seen[o.name] = true
	}
}
