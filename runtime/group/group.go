package group

import (
	"errors"
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// A Group is an ordered set of devices; a device's index is its rank.
type Group struct {
	devs []*runtime.Device
	comm communicator
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
	return &Group{devs: append([]*runtime.Device(nil), devs...), comm: newHostComm(len(devs))}, nil
}

// Size returns the number of devices (ranks).
func (g *Group) Size() int { return len(g.devs) }

// Device returns the device of rank r.
func (g *Group) Device(r int) *runtime.Device { return g.devs[r] }

// each runs f for every rank at once, one goroutine a rank as NCCL's group
// calls run, and returns the error of the lowest rank that failed.
func (g *Group) each(f func(r int) error) error {
	errs := make([]error, len(g.devs))
	done := make(chan int, len(g.devs))
	for r := range g.devs {
		go func() {
			defer func() { done <- r }()
			errs[r] = f(r)
		}()
	}
	for range g.devs {
		<-done
	}
	for r, err := range errs {
		if err != nil {
			return fmt.Errorf("rank %d: %w", r, err)
		}
	}
	return nil
}
