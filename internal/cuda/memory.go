package cuda

import "unsafe"

// DevicePtr is an address in device memory (CUdeviceptr).
type DevicePtr uint64

// MemAlloc allocates bytes of device memory (cuMemAlloc).
func (c *Context) MemAlloc(bytes int) (DevicePtr, error) {
	const call = "cuMemAlloc"
	if bytes < 0 {
		return 0, errNegative(call, bytes)
	}
	h, err := c.enter(call)
	if err != nil {
		return 0, err
	}
	defer c.exit()
	p, r := cuMemAlloc(h, bytes)
	return p, check(call, r)
}

// MemFree frees memory allocated by [Context.MemAlloc] (cuMemFree).
func (c *Context) MemFree(p DevicePtr) error {
	const call = "cuMemFree"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuMemFree(h, p))
}

// MemAllocAsync allocates bytes of device memory in stream order from the
// device's default memory pool (cuMemAllocAsync). It needs a CUDA 11.2 or
// newer driver and a device with [AttrMemoryPoolsSupported]; without them
// it returns an error wrapping an [*Error] with Code [ErrorNotSupported].
func (c *Context) MemAllocAsync(bytes int, s Stream) (DevicePtr, error) {
	const call = "cuMemAllocAsync"
	if bytes < 0 {
		return 0, errNegative(call, bytes)
	}
	h, err := c.enter(call)
	if err != nil {
		return 0, err
	}
	defer c.exit()
	p, r := cuMemAllocAsync(h, bytes, s)
	return p, check(call, r)
}

// MemFreeAsync frees memory in stream order (cuMemFreeAsync).
func (c *Context) MemFreeAsync(p DevicePtr, s Stream) error {
	const call = "cuMemFreeAsync"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuMemFreeAsync(h, p, s))
}

// MemPool is a stream-ordered memory pool of one device.
type MemPool uintptr

// MemPoolCreate creates a memory pool on the context's device
// (cuMemPoolCreate) that keeps up to releaseThreshold bytes of freed memory
// for reuse instead of returning it to the driver at each synchronization
// (CU_MEMPOOL_ATTR_RELEASE_THRESHOLD). Destroy it with MemPoolDestroy.
// Like MemAllocAsync, it needs CUDA 11.2 and AttrMemoryPoolsSupported.
func (c *Context) MemPoolCreate(releaseThreshold uint64) (MemPool, error) {
	const call = "cuMemPoolCreate"
	h, err := c.enter(call)
	if err != nil {
		return 0, err
	}
	defer c.exit()
	p, r := cuMemPoolCreate(h, c.dev, releaseThreshold)
	return p, check(call, r)
}

// MemPoolDestroy destroys a pool made by MemPoolCreate (cuMemPoolDestroy).
// Memory still allocated from it is freed when it is freed.
func (c *Context) MemPoolDestroy(p MemPool) error {
	const call = "cuMemPoolDestroy"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuMemPoolDestroy(h, p))
}

// MemPoolSetReleaseThreshold sets how many bytes of freed memory pool p
// keeps for reuse instead of returning them to the driver at each
// synchronization (cuMemPoolSetAttribute, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD).
func (c *Context) MemPoolSetReleaseThreshold(p MemPool, bytes uint64) error {
	const call = "cuMemPoolSetAttribute"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuMemPoolSetReleaseThreshold(h, p, bytes))
}

// MemPoolTrimTo returns the freed memory pool p holds beyond keep bytes to
// the driver (cuMemPoolTrimTo). Memory freed in stream order counts as freed
// once the host has synchronized with the work that used it.
func (c *Context) MemPoolTrimTo(p MemPool, keep uint64) error {
	const call = "cuMemPoolTrimTo"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuMemPoolTrimTo(h, p, keep))
}

// MemAllocFromPoolAsync allocates bytes in stream order from pool p
// (cuMemAllocFromPoolAsync); free it with MemFreeAsync.
func (c *Context) MemAllocFromPoolAsync(bytes int, p MemPool, s Stream) (DevicePtr, error) {
	const call = "cuMemAllocFromPoolAsync"
	if bytes < 0 {
		return 0, errNegative(call, bytes)
	}
	h, err := c.enter(call)
	if err != nil {
		return 0, err
	}
	defer c.exit()
	d, r := cuMemAllocFromPoolAsync(h, bytes, p, s)
	return d, check(call, r)
}

// MemGetInfo returns the free and total device memory in bytes
// (cuMemGetInfo).
func (c *Context) MemGetInfo() (free, total uint64, err error) {
	const call = "cuMemGetInfo"
	h, err := c.enter(call)
	if err != nil {
		return 0, 0, err
	}
	defer c.exit()
	free, total, r := cuMemGetInfo(h)
	return free, total, check(call, r)
}

// MemcpyHtoD copies bytes from host memory at src to device memory at dst
// (cuMemcpyHtoD). src must not point to memory holding Go pointers.
func (c *Context) MemcpyHtoD(dst DevicePtr, src unsafe.Pointer, bytes int) error {
	const call = "cuMemcpyHtoD"
	if bytes < 0 {
		return errNegative(call, bytes)
	}
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuMemcpyHtoD(h, dst, src, bytes))
}

// MemcpyDtoH copies bytes from device memory at src to host memory at dst
// (cuMemcpyDtoH). dst must not point to memory holding Go pointers.
func (c *Context) MemcpyDtoH(dst unsafe.Pointer, src DevicePtr, bytes int) error {
	const call = "cuMemcpyDtoH"
	if bytes < 0 {
		return errNegative(call, bytes)
	}
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuMemcpyDtoH(h, dst, src, bytes))
}

// MemcpyDtoD copies bytes of device memory from src to dst (cuMemcpyDtoD).
func (c *Context) MemcpyDtoD(dst, src DevicePtr, bytes int) error {
	const call = "cuMemcpyDtoD"
	if bytes < 0 {
		return errNegative(call, bytes)
	}
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuMemcpyDtoD(h, dst, src, bytes))
}

// MemcpyDtoDAsync copies bytes of device memory from src to dst in stream
// order (cuMemcpyDtoDAsync).
func (c *Context) MemcpyDtoDAsync(dst, src DevicePtr, bytes int, s Stream) error {
	const call = "cuMemcpyDtoDAsync"
	if bytes < 0 {
		return errNegative(call, bytes)
	}
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuMemcpyDtoDAsync(h, dst, src, bytes, s))
}

// MemsetD8 sets n bytes of device memory at dst to value (cuMemsetD8).
func (c *Context) MemsetD8(dst DevicePtr, value byte, n int) error {
	const call = "cuMemsetD8"
	if n < 0 {
		return errNegative(call, n)
	}
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuMemsetD8(h, dst, value, n))
}

func errNegative(call string, n int) error {
	return errInvalid(call, "negative size %d", n)
}
