package devcheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// RequireNoAllocs runs a library call once (loading its module and sizing
// its scratch), then runs times more under testing.AllocsPerRun, and fails
// the test when the call returns an error or allocates on the Go heap; name
// says which call in the messages.
func RequireNoAllocs(t testing.TB, runs int, name string, call func() error) {
	t.Helper()
	require.NoError(t, call(), name)
	var failed error
	allocs := testing.AllocsPerRun(runs, func() {
		if err := call(); err != nil && failed == nil {
			failed = err
		}
	})
	require.NoError(t, failed, name)
	t.Logf("%s: %.1f allocations per call", name, allocs)
	assert.Zero(t, allocs, "%s allocates on the Go heap per call", name)
}
