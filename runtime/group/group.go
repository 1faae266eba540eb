package group

import (
	"errors"
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// A Group is an ordered set of devices; a device's index is its rank. A
// group made by New or NewNCCL holds every rank in this process; one made by
// Join holds one rank of a group whose other ranks are other processes'.
type Group struct {
	devs  []*runtime.Device // by rank; nil for a rank of another process
	local []int             // the ranks of this process, ascending
	comm  communicator
}

// New returns a group of the devices in rank order. They must be distinct
// and of one backend.
func New(devs ...*runtime.Device) (*Group, error) {
	if len(devs) == 0 {
		return nil, errors.New("gocccl: group.New: no device")
	}
	seen := make(map[*runtime.Device]int, len(devs))
	for i, d := range devs {
		if d == nil {
			return nil, fmt.Errorf("gocccl: group.New: device %d is nil", i)
		}
		if j, dup := seen[d]; dup {
			return nil, fmt.Errorf("gocccl: group.New: devices %d and %d are the same device (%s)", j, i, d)
		}
		seen[d] = i
		if d.Backend() != devs[0].Backend() {
			return nil, fmt.Errorf("gocccl: group.New: device %d is a %s device, device 0 a %s one: a group is of one backend", i, d.Backend(), devs[0].Backend())
		}
	}
	local := make([]int, len(devs))
	for r := range local {
		local[r] = r
	}
	return &Group{devs: append([]*runtime.Device(nil), devs...), local: local, comm: newHostComm(len(devs))}, nil
}

// Size returns the number of devices (ranks) of the whole group, in every
// process.
func (g *Group) Size() int { return len(g.devs) }

// Device returns the device of rank r, or nil when rank r belongs to another
// process.
func (g *Group) Device(r int) *runtime.Device { return g.devs[r] }

// Ranks returns the ranks of this process, ascending: every rank for a group
// of New or NewNCCL, the joined rank for a group of Join.
func (g *Group) Ranks() []int { return append([]int(nil), g.local...) }

// lead is the lowest rank of this process: the one whose copy of a result
// every rank computes alike is returned.
func (g *Group) lead() int { return g.local[0] }

// each runs f for every rank of this process at once, one goroutine a rank
// as NCCL's group calls run, and returns the error of the lowest rank that
// failed. A rank that fails leaves the others waiting in a collective it
// never joins: the communicator is told, so that they fail too (an
// in-process one wakes them with the error and is reset once every rank has
// returned).
func (g *Group) each(f func(r int) error) error {
	errs := make([]error, len(g.devs))
	done := make(chan int, len(g.local))
	for _, r := range g.local {
		go func() {
			defer func() { done <- r }()
			if errs[r] = f(r); errs[r] != nil {
				g.comm.fail(r, errs[r])
			}
		}()
	}
	for range g.local {
		<-done
	}
	g.comm.settle(len(g.local))
	for r, err := range errs {
		if err != nil && !errors.Is(err, errPeerFailed) {
			return fmt.Errorf("rank %d: %w", r, err)
		}
	}
	for r, err := range errs {
		if err != nil {
			return fmt.Errorf("rank %d: %w", r, err)
		}
	}
	return nil
}
