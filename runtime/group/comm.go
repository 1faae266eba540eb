package group

import (
	"errors"
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
	// allToAll sends sends[j] to rank j and returns what every rank sent
	// to this one, in rank order (NCCL: ncclSend/ncclRecv in a group).
	allToAll(rank int, sends [][]byte) ([][]byte, error)
	// fail tells the communicator that rank failed with err and will not
	// join the collectives the others wait in: they return an error that
	// wraps errPeerFailed instead of waiting for ever.
	fail(rank int, err error)
	// settle is called by every process once its ranks (n of them) have
	// returned from an algorithm: after a failure, a communicator that can
	// recover is ready for the next algorithm once every rank settled.
	settle(n int)
}

// errPeerFailed is wrapped by the errors of ranks whose collective was cut
// short because another rank failed.
var errPeerFailed = errors.New("another rank of the group failed")

// hostComm is the in-process communicator: the ranks meet at a barrier,
// each leaves its bytes in a shared table, and each reads the table after
// the barrier. It needs no device memory, so it serves groups of CPU
// devices (and GPU devices whose partials come back to the host).
type hostComm struct {
	mu      sync.Mutex
	cond    *sync.Cond
	size    int
	arrived int
	round   uint64     // counts the collectives completed
	readers int        // ranks still reading the table of the last round
	table   [][][]byte // table[rank][j]: what rank sent to j (all-gather: j = 0 for everyone)
	err     error      // set by fail: every exchange returns it until the ranks settle
	settled int        // ranks that settled since err was set
}

func (c *hostComm) fail(rank int, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil && !errors.Is(err, errPeerFailed) {
		c.err = fmt.Errorf("%w (rank %d: %v)", errPeerFailed, rank, err)
	}
	c.cond.Broadcast()
}

func (c *hostComm) settle(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		return
	}
	if c.settled += n; c.settled < c.size {
		return
	}
	c.err, c.settled, c.arrived, c.readers = nil, 0, 0, 0
	clear(c.table)
	c.cond.Broadcast()
}

func newHostComm(size int) *hostComm {
	c := &hostComm{size: size, table: make([][][]byte, size)}
	c.cond = sync.NewCond(&c.mu)
	return c
}

func (c *hostComm) allGather(rank int, send []byte) ([][]byte, error) {
	rows, err := c.exchange(rank, [][]byte{send})
	if err != nil {
		return nil, err
	}
	out := make([][]byte, c.size)
	for i, row := range rows {
		out[i] = row[0]
	}
	return out, nil
}

func (c *hostComm) allToAll(rank int, sends [][]byte) ([][]byte, error) {
	if len(sends) != c.size {
		return nil, fmt.Errorf("gocccl: group: rank %d sends %d buffers to a group of %d", rank, len(sends), c.size)
	}
	rows, err := c.exchange(rank, sends)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, c.size)
	for i, row := range rows {
		out[i] = row[rank]
	}
	return out, nil
}

// exchange leaves rank's row in the table, waits until every rank has
// left its own, and returns the table's rows.
func (c *hostComm) exchange(rank int, row [][]byte) ([][][]byte, error) {
	if rank < 0 || rank >= c.size {
		return nil, fmt.Errorf("gocccl: group: rank %d outside a group of %d", rank, c.size)
	}
	mine := make([][]byte, len(row))
	for j, b := range row {
		mine[j] = append([]byte(nil), b...)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	// Wait until the last round's table has been read by every rank.
	for c.readers > 0 && c.err == nil {
		c.cond.Wait()
	}
	if c.err != nil {
		return nil, c.err
	}
	c.table[rank] = mine
	c.arrived++
	round := c.round
	if c.arrived == c.size {
		c.arrived = 0
		c.round++
		c.readers = c.size
		c.cond.Broadcast()
	}
	for c.round == round && c.err == nil {
		c.cond.Wait()
	}
	if c.round == round {
		return nil, c.err
	}
	rows := make([][][]byte, c.size)
	copy(rows, c.table)
	c.readers--
	if c.readers == 0 {
		c.cond.Broadcast()
	}
	return rows, nil
}
