package group

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	goruntime "runtime"
	"sync"

	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/nccl"
	"github.com/gocccl/gocccl/runtime"
)

// An ID names a group that several processes form, one rank each: rank 0
// makes it with NewID and hands it to every other rank over a channel of
// the caller's (an environment variable the launcher sets, a file, a
// socket, MPI's broadcast; String and ParseID turn it into text and back),
// and every rank passes it to Join.
type ID struct {
	backend runtime.Backend
	bytes   [128]byte // an ncclUniqueId for GPUs; random for CPU devices
}

// NewID makes the id of a new group of devices of the backend: for GPUs an
// NCCL unique id (ncclGetUniqueId: rank 0's process listens for the others
// at an address it holds), for CPU devices a random name under which the
// ranks of this process meet.
func NewID(b runtime.Backend) (ID, error) {
	id := ID{backend: b}
	switch b {
	case runtime.GPU:
		u, err := nccl.GetUniqueID()
		if err != nil {
			return ID{}, fmt.Errorf("gocccl: group.NewID: %w", err)
		}
		id.bytes = u
	case runtime.CPU:
		rand.Read(id.bytes[:])
	default:
		return ID{}, fmt.Errorf("gocccl: group.NewID: backend %v: want runtime.GPU or runtime.CPU", b)
	}
	return id, nil
}

// idPrefix marks the backend in an ID's text.
var idPrefix = map[runtime.Backend]string{runtime.GPU: "gpu:", runtime.CPU: "cpu:"}

// String returns the id as text that ParseID reads: the backend and 256 hex
// digits.
func (id ID) String() string { return idPrefix[id.backend] + hex.EncodeToString(id.bytes[:]) }

// ParseID reads an id that String wrote.
func ParseID(s string) (ID, error) {
	for b, p := range idPrefix {
		if len(s) < len(p) || s[:len(p)] != p {
			continue
		}
		raw, err := hex.DecodeString(s[len(p):])
		if err != nil || len(raw) != 128 {
			return ID{}, fmt.Errorf("gocccl: group.ParseID: %q: want %s and 256 hex digits", abbreviate(s), p)
		}
		id := ID{backend: b}
		copy(id.bytes[:], raw)
		return id, nil
	}
	return ID{}, fmt.Errorf("gocccl: group.ParseID: %q: want \"gpu:\" or \"cpu:\" and 256 hex digits", abbreviate(s))
}

func abbreviate(s string) string {
	if len(s) > 24 {
		return s[:24] + "…"
	}
	return s
}

// Join makes dev rank rank of the group of size ranks that id names, and
// returns the group as this process sees it: Size is size, Ranks is
// [rank], Device is nil for the other ranks. It returns once every rank has
// joined (each calls Join with the same id and size and its own rank,
// concurrently: in one process per rank, or, for tests, in goroutines of
// one process). The algorithms then run as on a group of New: every
// process calls the same ones in the same order with its own shard, and
// every process gets the whole result (a Reduce's value, a histogram) or
// its own shard of it.
//
// GPU devices join through NCCL (ncclCommInitRank, on a thread where dev's
// context is current), across processes and hosts as NCCL reaches them.
// CPU devices meet in this process only (the in-process communicator has no
// transport between processes): an id taken to another process finds no
// rank there, and Join waits. Close the group when done.
func Join(dev *runtime.Device, id ID, rank, size int) (*Group, error) {
	if dev == nil {
		return nil, errors.New("gocccl: group.Join: nil device")
	}
	if size < 1 || rank < 0 || rank >= size {
		return nil, fmt.Errorf("gocccl: group.Join: rank %d of a group of %d: want 0 ≤ rank < size", rank, size)
	}
	if dev.Backend() != id.backend {
		return nil, fmt.Errorf("gocccl: group.Join: a %s device joining a group whose id NewID made for %s devices", dev.Backend(), id.backend)
	}
	g := &Group{devs: make([]*runtime.Device, size), local: []int{rank}}
	g.devs[rank] = dev
	var err error
	if dev.Backend() == runtime.GPU {
		g.comm, err = joinNCCL(dev, id, rank, size)
	} else {
		g.comm, err = meet(id, rank, size)
	}
	if err != nil {
		return nil, fmt.Errorf("gocccl: group.Join: rank %d of %d: %w", rank, size, err)
	}
	return g, nil
}

// joinNCCL makes rank's communicator on the thread where dev's context is
// current.
func joinNCCL(dev *runtime.Device, id ID, rank, size int) (*ncclComm, error) {
	ctx, err := cuda.ForeignContext(dev.ContextHandle())
	if err != nil {
		return nil, err
	}
	st, err := dev.NewStreamWith(runtime.StreamOptions{NonBlocking: true})
	if err != nil {
		return nil, err
	}
	comm, err := func() (nccl.Comm, error) {
		goruntime.LockOSThread()
		defer goruntime.UnlockOSThread()
		if err := ctx.SetCurrent(); err != nil {
			return 0, err
		}
		return nccl.InitRank(size, id.bytes, rank)
	}()
	if err != nil {
		return nil, errors.Join(err, st.Close())
	}
	c := &ncclComm{ranks: make([]ncclRank, size)}
	c.ranks[rank] = ncclRank{comm: comm, dev: dev, st: st}
	return c, nil
}

// meetings are the CPU groups being formed in this process, by id.
var meetings = struct {
	sync.Mutex
	cond *sync.Cond
	byID map[ID]*meeting
}{byID: map[ID]*meeting{}}

func init() { meetings.cond = sync.NewCond(&meetings.Mutex) }

// A meeting is a CPU group being formed: its communicator and the ranks
// that joined.
type meeting struct {
	comm   *hostComm
	joined []bool
	count  int
}

// meet joins rank to the CPU group id names and waits for the others.
func meet(id ID, rank, size int) (*hostComm, error) {
	meetings.Lock()
	defer meetings.Unlock()
	m := meetings.byID[id]
	if m == nil {
		m = &meeting{comm: newHostComm(size), joined: make([]bool, size)}
		meetings.byID[id] = m
	}
	switch {
	case len(m.joined) != size:
		return nil, fmt.Errorf("the group has %d ranks (as its first rank joined it), not %d", len(m.joined), size)
	case m.joined[rank]:
		return nil, fmt.Errorf("rank %d joined the group already", rank)
	}
	m.joined[rank] = true
	if m.count++; m.count == size {
		delete(meetings.byID, id) // complete: the id names no group any more
		meetings.cond.Broadcast()
	}
	for m.count < size {
		meetings.cond.Wait()
	}
	return m.comm, nil
}
