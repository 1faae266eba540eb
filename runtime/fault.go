package runtime

import (
	"errors"
	"fmt"

	"github.com/gocccl/gocccl/internal/cuda"
)

// ErrDeviceFaulted is wrapped by the error of a call that found a GPU's
// context lost to a kernel fault (an operator that indexed out of range, a
// trap, an illegal address), and by every later call on that Device: CUDA
// cannot recover such a context within the process. Close the Device; a new
// process gets a working GPU.
var ErrDeviceFaulted = errors.New("device faulted")

// FaultError is the error of a kernel fault: which device, the driver's
// error, and the last instance launched on the device before the fault was
// seen (the likely culprit: faults surface at the next call that waits for
// the device, not at the launch).
type FaultError struct {
	Device string // "GPU 0 (NVIDIA H200)"
	Last   string // the last instance launched, with where it is declared; "" if none
	Err    error  // the driver's error, a *cuda.Error whose Sticky is true
}

// Error says what happened, which instance probably caused it, and that the
// device cannot be used again in this process.
func (e *FaultError) Error() string {
	last := ""
	if e.Last != "" {
		last = "; the last kernel launched on it was " + e.Last
	}
	return fmt.Sprintf("a kernel faulted on %s (%v)%s: an operator that indexes out of range or reads through a bad value traps the GPU; "+
		"the device's CUDA context is lost and every later call on this Device fails: Close it, and start a new process to use the GPU again",
		e.Device, e.Err, last)
}

// Unwrap returns ErrDeviceFaulted and the driver's error.
func (e *FaultError) Unwrap() []error { return []error{ErrDeviceFaulted, e.Err} }

// noteFault returns err, or, when err is a driver error that has lost the
// device's context, a *FaultError that names the last instance launched;
// the first such fault is kept, and every later enter of the device returns
// it.
func (d *Device) noteFault(err error) error {
	var ce *cuda.Error
	if err == nil || !errors.As(err, &ce) || !ce.Sticky() {
		return err
	}
	if f := d.fault.Load(); f != nil {
		return f
	}
	f := &FaultError{Device: d.shortName(), Err: ce}
	if in := d.lastLaunch.Load(); in != nil {
		f.Last = in.name()
		if at, pkg := in.declared(); at != "" {
			f.Last += fmt.Sprintf(" (declared at %s in package %s)", at, pkg)
		}
	}
	if !d.fault.CompareAndSwap(nil, f) {
		return d.fault.Load()
	}
	return f
}
