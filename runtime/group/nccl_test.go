package group

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/gocccl/gocccl/internal/nccl"
	"github.com/gocccl/gocccl/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNewNCCLNeedsGPUs: CPU devices are refused with a message that says
// what to use instead.
func TestNewNCCLNeedsGPUs(t *testing.T) {
	d, err := runtime.Open(runtime.CPU)
	require.NoError(t, err)
	defer d.Close()
	_, err = NewNCCL(d)
	assert.ErrorContains(t, err, "NCCL needs GPUs")
	_, err = NewNCCL()
	assert.ErrorContains(t, err, "no device")
	g, err := New(d)
	require.NoError(t, err)
	assert.NoError(t, g.Close(), "closing a host group does nothing")
}

// ncclGPUs opens every GPU of this machine, or skips without NCCL or GPUs.
func ncclGPUs(t *testing.T) []*runtime.Device {
	t.Helper()
	if _, err := nccl.Load(); err != nil {
		t.Skip("no NCCL: " + err.Error())
	}
	var devs []*runtime.Device
	for i := 0; ; i++ {
		d, err := runtime.OpenGPU(i)
		if err != nil {
			break
		}
		t.Cleanup(func() { d.Close() })
		devs = append(devs, d)
	}
	if len(devs) == 0 {
		t.Skip("no GPU")
	}
	return devs
}

// ncclGroup opens every GPU of this machine as one NCCL group, or skips.
func ncclGroup(t *testing.T) *Group {
	t.Helper()
	devs := ncclGPUs(t)
	g, err := NewNCCL(devs...)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, g.Close()) })
	return g
}

// TestNCCLCommunicator: the NCCL communicator's all-gather and all-to-all
// deliver what the host communicator does, over every GPU present (one
// rank on a one-GPU machine), for empty, uneven and large messages.
func TestNCCLCommunicator(t *testing.T) {
	g := ncclGroup(t)
	size := g.Size()
	host := newHostComm(size)
	msg := func(r, j, n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(31*r + 7*j + i)
		}
		return b
	}
	for _, n := range []int{0, 1, 1000, 1<<20 + 3} {
		var got, want [][][]byte
		var gotA, wantA [][][]byte
		for _, c := range []communicator{g.comm, host} {
			gathered := make([][][]byte, size)
			exchanged := make([][][]byte, size)
			err := g.each(func(r int) error {
				var err error
				if gathered[r], err = c.allGather(r, msg(r, 0, n+r)); err != nil {
					return err
				}
				sends := make([][]byte, size)
				for j := range sends {
					sends[j] = msg(r, j, (n+r*j)%(n+2))
				}
				exchanged[r], err = c.allToAll(r, sends)
				return err
			})
			require.NoError(t, err, "n=%d", n)
			if c == host {
				want, wantA = gathered, exchanged
			} else {
				got, gotA = gathered, exchanged
			}
		}
		for r := range size {
			for j := range size {
				assert.True(t, bytes.Equal(want[r][j], got[r][j]), fmt.Sprintf("n=%d all-gather rank %d from %d", n, r, j))
				assert.True(t, bytes.Equal(wantA[r][j], gotA[r][j]), fmt.Sprintf("n=%d all-to-all rank %d from %d", n, r, j))
			}
		}
	}
	t.Logf("NCCL group of %d GPU(s): all-gather and all-to-all equal the host communicator's", size)
}

// TestNCCLJoin: the multi-process form over NCCL, one goroutine standing
// for each process, a rank per GPU present (one on a one-GPU machine):
// ncclCommInitRank from an id of NewID, parts of uneven lengths scattered
// and gathered back whole by every rank through the communicator.
func TestNCCLJoin(t *testing.T) {
	devs := ncclGPUs(t)
	size := len(devs)
	id, err := NewID(runtime.GPU)
	require.NoError(t, err)
	back, err := ParseID(id.String())
	require.NoError(t, err)
	require.Equal(t, id, back)
	parts := make([][]int64, size)
	var whole []int64
	for r := range parts {
		for i := range 1000*r + 7 {
			parts[r] = append(parts[r], int64(r)<<32|int64(i))
		}
		whole = append(whole, parts[r]...)
	}
	got := make([][]int64, size)
	errs := make([]error, size)
	done := make(chan int, size)
	for r := range size {
		go func() {
			defer func() { done <- r }()
			g, err := Join(devs[r], back, r, size)
			if err != nil {
				errs[r] = err
				return
			}
			defer g.Close()
			s, err := ScatterPart(g, parts[r])
			if err != nil {
				errs[r] = err
				return
			}
			defer s.Free()
			got[r], errs[r] = s.Gather()
		}()
	}
	for range size {
		<-done
	}
	for r := range size {
		require.NoError(t, errs[r], "rank %d", r)
		assert.Equal(t, whole, got[r], "rank %d gathered every part", r)
	}
	t.Logf("NCCL group of %d joined rank(s): parts scattered and gathered", size)
}
