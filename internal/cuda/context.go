package cuda

import (
	"fmt"
	"sync"
)

// Context is a retained primary context of one device. Its methods make the
// context current on the calling OS thread inside each driver call, so any
// goroutine may use it, concurrently with others, without
// runtime.LockOSThread.
//
// A Context is obtained with [PrimaryContext] and given back with
// [Context.Release]; after that, every method returns an error.
type Context struct {
	dev    Device
	handle uintptr // the CUcontext; 0 in a Context not made by PrimaryContext

	// foreign marks a context made by another library (ForeignContext):
	// Release forgets it and leaves it to its owner.
	foreign bool

	mu       sync.RWMutex // read-held by each call; held by Release
	released bool
}

// ForeignContext returns a Context over a CUcontext that another library
// created or retained (handle, as that library reports it), without
// retaining it: the owner keeps it alive until the Context is released, and
// Release leaves it to its owner. It fails when the handle names no context.
func ForeignContext(handle uintptr) (*Context, error) {
	if err := Init(); err != nil {
		return nil, err
	}
	if handle == 0 {
		return nil, errInvalid("cuCtxGetDevice", "nil context handle")
	}
	d, r := cuCtxGetDevice(handle)
	if err := check("cuCtxGetDevice", r); err != nil {
		return nil, err
	}
	return &Context{dev: d, handle: handle, foreign: true}, nil
}

// SetCurrent makes c current on the calling OS thread and leaves it so
// (cuCtxSetCurrent), for a library that reads the thread's current context
// (NCCL's ncclCommInitRank). The caller locks its goroutine to the thread
// (runtime.LockOSThread) for as long as it relies on it.
func (c *Context) SetCurrent() error {
	const call = "cuCtxSetCurrent"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuCtxSetCurrent(h))
}

// Handle returns the CUcontext, for another library that takes one.
func (c *Context) Handle() uintptr { return c.handle }

// Foreign reports whether c was made by ForeignContext.
func (c *Context) Foreign() bool { return c.foreign }

// PrimaryContext retains the primary context of device d
// (cuDevicePrimaryCtxRetain). Each Context it returns must be released once
// with [Context.Release]; the driver destroys the primary context when the
// last one is.
func PrimaryContext(d Device) (*Context, error) {
	if err := Init(); err != nil {
		return nil, err
	}
	h, r := cuDevicePrimaryCtxRetain(d)
	if err := check("cuDevicePrimaryCtxRetain", r); err != nil {
		return nil, err
	}
	return &Context{dev: d, handle: h}, nil
}

// Device returns the device whose primary context c is.
func (c *Context) Device() Device {
	return c.dev
}

// Release gives back the primary context (cuDevicePrimaryCtxRelease). It
// waits for calls in progress on c to return. Calling Release again, or any
// other method afterwards, returns an error.
func (c *Context) Release() error {
	const call = "cuDevicePrimaryCtxRelease"
	if c == nil || c.handle == 0 {
		return errNoContext(call)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.released {
		return c.errReleased(call)
	}
	c.released = true
	if c.foreign {
		return nil
	}
	return check(call, cuDevicePrimaryCtxRelease(c.dev))
}

// enter starts a driver call on c: it returns the context handle, and holds c
// against Release until exit is called. It fails if c was released.
func (c *Context) enter(call string) (uintptr, error) {
	if c == nil || c.handle == 0 {
		return 0, errNoContext(call)
	}
	c.mu.RLock()
	if c.released {
		c.mu.RUnlock()
		return 0, c.errReleased(call)
	}
	return c.handle, nil
}

// exit ends a call started by enter.
func (c *Context) exit() {
	c.mu.RUnlock()
}

func (c *Context) errReleased(call string) error {
	return fmt.Errorf("cuda: context of device %d used after Release: %w",
		c.dev, &Error{Call: call, Code: ErrorInvalidContext})
}

func errNoContext(call string) error {
	return fmt.Errorf("cuda: Context not made by PrimaryContext: %w",
		&Error{Call: call, Code: ErrorInvalidContext})
}

// Synchronize waits until all work in the context has finished
// (cuCtxSynchronize) and returns the first error any of it reported.
func (c *Context) Synchronize() error {
	const call = "cuCtxSynchronize"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuCtxSynchronize(h))
}
