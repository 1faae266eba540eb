package group

import (
	"fmt"
	"sync"
)

// A communicator exchanges bytes between the ranks of a group. Every rank
// calls each collective once, in the same order, from its own goroutine
// (Group.each); a collective returns when every rank has called it.
type communicator interface {
	// allGather returns every rank's send, in rank order, to every rank.
	// The slices returned are the communicator's: read, do not keep.
	allGather(rank int, send []byte) ([][]byte, error)
}

// hostComm is the in-process communicator: the ranks meet at a barrier,
// each leaves its bytes in a shared table, and each reads the table after
// the barrier. It needs no device memory, so it serves groups of CPU
// devices (and GPU devices whose partials come back to the host).
type hostComm struct {
	mu      sync.Mutex
	cond    *sync.Cond
	size    int
	arrived int
	round   uint64 // counts the collectives completed
	readers int    // ranks still reading the table of the last round
	table   [][]byte
}

func newHostComm(size int) *hostComm {
	c := &hostComm{size: size, table: make([][]byte, size)}
	c.cond = sync.NewCond(&c.mu)
	return c
}

func (c *hostComm) allGather(rank int, send []byte) ([][]byte, error) {
	if rank < 0 || rank >= c.size {
		return nil, fmt.Errorf("gocccl: group: rank %d outside a group of %d", rank, c.size)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	// Wait until the last round's table has been read by every rank.
	for c.readers > 0 {
		c.cond.Wait()
	}
	c.table[rank] = append([]byte(nil), send...)
	c.arrived++
	round := c.round
	if c.arrived == c.size {
		c.arrived = 0
		c.round++
		c.readers = c.size
		c.cond.Broadcast()
	}
	for c.round == round {
		c.cond.Wait()
	}
	out := make([][]byte, c.size)
	copy(out, c.table)
	c.readers--
	if c.readers == 0 {
		c.cond.Broadcast()
	}
	return out, nil
}
