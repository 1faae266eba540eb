package analyzer

import (
	"fmt"
	"strings"
)

// namer gives the variables of one operator Go names that are unique within
// it: the first variable called x keeps its name, variables that shadow it
// become x_1, x_2, … (skipping names taken by any variable already named).
// The emitter relies on the uniqueness, not on the names being usable in
// another language: it derives its own names from these.
type namer struct {
	used map[string]bool // names given so far
}

func newNamer() *namer {
	return &namer{used: make(map[string]bool)}
}

// name returns a fresh name for a Go variable called goName.
func (n *namer) name(goName string) string {
	sep := "_"
	if strings.HasSuffix(goName, "_") {
		sep = ""
	}
	name := goName
	for i := 1; n.used[name]; i++ {
		name = fmt.Sprintf("%s%s%d", goName, sep, i)
	}
	n.used[name] = true
	return name
}
