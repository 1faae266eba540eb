package group

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/gocccl/gocccl/internal/nccl"
	"github.com/gocccl/gocccl/runtime"
)

// NewNCCL returns a group of GPUs of this process whose ranks exchange
// through NCCL (one communicator a GPU, ncclCommInitAll) instead of host
// memory: the same algorithms, the same results. The devices must be
// distinct GPUs. Close the group to destroy its communicators.
func NewNCCL(devs ...*runtime.Device) (*Group, error) {
	g, err := New(devs...)
	if err != nil {
		return nil, err
	}
	if devs[0].Backend() != runtime.GPU {
		return nil, errors.New("gocccl: group.NewNCCL: the devices are CPU devices; NCCL needs GPUs (group.New runs CPU devices)")
	}
	ordinals := make([]int, len(devs))
	for i, d := range devs {
		ordinals[i] = d.Info().Ordinal
	}
	comms, err := nccl.InitAll(ordinals)
	if err != nil {
		return nil, fmt.Errorf("gocccl: group.NewNCCL: %w", err)
	}
	c := &ncclComm{ranks: make([]ncclRank, len(devs))}
	for r, d := range devs {
		st, err := d.NewStreamWith(runtime.StreamOptions{NonBlocking: true})
		if err != nil {
			c.close()
			for _, cm := range comms[r:] {
				cm.Destroy()
			}
			return nil, fmt.Errorf("gocccl: group.NewNCCL: %w", err)
		}
		c.ranks[r] = ncclRank{comm: comms[r], dev: d, st: st}
	}
	g.comm = c
	return g, nil
}

// Close destroys the communicators of a group made by NewNCCL; for a group
// of New it does nothing.
func (g *Group) Close() error {
	if c, ok := g.comm.(*ncclComm); ok {
		return c.close()
	}
	return nil
}

// ncclComm is the communicator over NCCL: every collective stages the
// rank's bytes in device memory, runs on the rank's stream, and brings the
// result back (the partials the algorithms exchange are small; the sorts'
// all-to-all moves their keys).
// The ranks are indexed by rank; those of other processes are zero.
type ncclComm struct {
	ranks  []ncclRank
	mu     sync.Mutex
	broken error // set by fail, once the communicators are aborted
}

// fail aborts this process's communicators, which ends every collective
// another rank waits in with an error; the group is unusable after it.
func (c *ncclComm) fail(rank int, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken != nil {
		return
	}
	c.broken = fmt.Errorf("%w (rank %d: %v): the NCCL communicators were aborted; make a new group", errPeerFailed, rank, err)
	for i := range c.ranks {
		if r := &c.ranks[i]; r.comm != 0 {
			r.comm.Abort() // the error is the one above's consequence
		}
	}
}

func (c *ncclComm) settle(int) {}

// usable returns the error that broke the group, if one did.
func (c *ncclComm) usable() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.broken
}

// ncclRank is one rank's communicator, stream and staging buffers.
type ncclRank struct {
	comm       nccl.Comm
	dev        *runtime.Device
	st         *runtime.Stream
	send, recv *runtime.Slice[byte]
}

func (c *ncclComm) close() error {
	var errs []error
	for i := range c.ranks {
		r := &c.ranks[i]
		if r.st == nil {
			continue
		}
		errs = append(errs, r.st.Synchronize())
		if c.usable() == nil { // an aborted communicator is freed already
			errs = append(errs, r.comm.Destroy())
		}
		for _, b := range []*runtime.Slice[byte]{r.send, r.recv} {
			if b != nil {
				errs = append(errs, b.Free())
			}
		}
		errs = append(errs, r.st.Close())
		*r = ncclRank{}
	}
	return errors.Join(errs...)
}

// buffers returns staging buffers of at least send and recv bytes.
func (r *ncclRank) buffers(send, recv int) error {
	grow := func(b **runtime.Slice[byte], n int) error {
		if *b != nil && (*b).Len() >= n {
			return nil
		}
		if *b != nil {
			if err := (*b).Free(); err != nil {
				return err
			}
		}
		s, err := runtime.Alloc[byte](r.dev, max(n, 64))
		*b = s
		return err
	}
	if err := grow(&r.send, send); err != nil {
		return err
	}
	return grow(&r.recv, recv)
}

// addr is a staging buffer's device address for NCCL.
func addr(s *runtime.Slice[byte]) uint64 {
	a, _ := s.Address()
	return uint64(a)
}

// gatherFixed all-gathers each rank's send, padded to width bytes, and
// returns the size·width bytes on the host.
func (c *ncclComm) gatherFixed(rank int, send []byte, width int) ([]byte, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	r := &c.ranks[rank]
	size := len(c.ranks)
	if err := r.buffers(width, width*size); err != nil {
		return nil, err
	}
	padded := make([]byte, width)
	copy(padded, send)
	if err := r.send.Range(0, width).CopyFromHostAsync(r.st, padded); err != nil {
		return nil, err
	}
	if err := r.comm.AllGather(addr(r.send), addr(r.recv), width, nccl.Uint8, r.st.Handle()); err != nil {
		return nil, err
	}
	if err := r.st.Synchronize(); err != nil {
		return nil, err
	}
	out := make([]byte, width*size)
	if err := r.recv.Range(0, width*size).CopyToHostAsync(r.st, out); err != nil {
		return nil, err
	}
	return out, nil
}

func (c *ncclComm) allGather(rank int, send []byte) ([][]byte, error) {
	size := len(c.ranks)
	lens, err := c.gatherFixed(rank, binary.LittleEndian.AppendUint64(nil, uint64(len(send))), 8)
	if err != nil {
		return nil, err
	}
	width := 1
	for j := range size {
		width = max(width, int(binary.LittleEndian.Uint64(lens[8*j:])))
	}
	all, err := c.gatherFixed(rank, send, width)
	if err != nil {
		return nil, err
	}
	out := make([][]byte, size)
	for j := range size {
		n := int(binary.LittleEndian.Uint64(lens[8*j:]))
		out[j] = all[j*width : j*width+n]
	}
	return out, nil
}

func (c *ncclComm) allToAll(rank int, sends [][]byte) ([][]byte, error) {
	size := len(c.ranks)
	if len(sends) != size {
		return nil, fmt.Errorf("gocccl: group: rank %d sends %d buffers to a group of %d", rank, len(sends), size)
	}
	// Every rank learns what every other sends it: the lengths, all-gathered.
	row := make([]byte, 0, 8*size)
	total := 0
	for _, s := range sends {
		row = binary.LittleEndian.AppendUint64(row, uint64(len(s)))
		total += len(s)
	}
	all, err := c.gatherFixed(rank, row, 8*size)
	if err != nil {
		return nil, err
	}
	from := make([]int, size) // bytes rank j sends this one
	in := 0
	for j := range size {
		from[j] = int(binary.LittleEndian.Uint64(all[8*(j*size+rank):]))
		in += from[j]
	}
	r := &c.ranks[rank]
	if err := r.buffers(total, in); err != nil {
		return nil, err
	}
	packed := make([]byte, 0, total)
	for _, s := range sends {
		packed = append(packed, s...)
	}
	if total > 0 {
		if err := r.send.Range(0, total).CopyFromHostAsync(r.st, packed); err != nil {
			return nil, err
		}
	}
	if err := nccl.GroupStart(); err != nil {
		return nil, err
	}
	so, ro := 0, 0
	for j := range size {
		if n := len(sends[j]); n > 0 {
			if err := r.comm.Send(addr(r.send)+uint64(so), n, nccl.Uint8, j, r.st.Handle()); err != nil {
				nccl.GroupEnd()
				return nil, err
			}
			so += n
		}
		if n := from[j]; n > 0 {
			if err := r.comm.Recv(addr(r.recv)+uint64(ro), n, nccl.Uint8, j, r.st.Handle()); err != nil {
				nccl.GroupEnd()
				return nil, err
			}
			ro += n
		}
	}
	if err := nccl.GroupEnd(); err != nil {
		return nil, err
	}
	if err := r.st.Synchronize(); err != nil {
		return nil, err
	}
	got := make([]byte, in)
	if in > 0 {
		if err := r.recv.Range(0, in).CopyToHostAsync(r.st, got); err != nil {
			return nil, err
		}
	}
	out := make([][]byte, size)
	ro = 0
	for j := range size {
		out[j] = got[ro : ro+from[j] : ro+from[j]]
		ro += from[j]
	}
	return out, nil
}
