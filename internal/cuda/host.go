package cuda

import "unsafe"

// Page-locked host memory, which the GPU reads and writes directly, so that
// copies to and from it run asynchronously at the link's full speed.

// MemHostAlloc allocates bytes of page-locked host memory, usable from every
// context (cuMemHostAlloc with CU_MEMHOSTALLOC_PORTABLE). Free it with
// [Context.MemFreeHost].
func (c *Context) MemHostAlloc(bytes int) (unsafe.Pointer, error) {
	const call = "cuMemHostAlloc"
	if bytes <= 0 {
		return nil, errInvalid(call, "size %d: want at least 1 byte", bytes)
	}
	h, err := c.enter(call)
	if err != nil {
		return nil, err
	}
	defer c.exit()
	p, r := cuMemHostAlloc(h, bytes, 0x01)
	return p, check(call, r)
}

// MemFreeHost frees memory made by MemHostAlloc (cuMemFreeHost).
func (c *Context) MemFreeHost(p unsafe.Pointer) error {
	const call = "cuMemFreeHost"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuMemFreeHost(h, p))
}

// MemHostRegister page-locks bytes of host memory at p, which the caller
// allocated and keeps alive until MemHostUnregister (cuMemHostRegister with
// CU_MEMHOSTREGISTER_PORTABLE). p must hold no Go pointers.
func (c *Context) MemHostRegister(p unsafe.Pointer, bytes int) error {
	const call = "cuMemHostRegister"
	if bytes <= 0 {
		return errInvalid(call, "size %d: want at least 1 byte", bytes)
	}
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuMemHostRegister(h, p, bytes, 0x01))
}

// MemHostUnregister undoes MemHostRegister (cuMemHostUnregister).
func (c *Context) MemHostUnregister(p unsafe.Pointer) error {
	const call = "cuMemHostUnregister"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuMemHostUnregister(h, p))
}

// MemcpyHtoDAsync copies bytes from host memory at src to device memory at
// dst in stream order (cuMemcpyHtoDAsync). From page-locked memory it
// returns at once and src must stay alive and unchanged until the copy
// completes; from pageable memory it returns once src has been staged and
// may be reused. src must hold no Go pointers.
func (c *Context) MemcpyHtoDAsync(dst DevicePtr, src unsafe.Pointer, bytes int, s Stream) error {
	const call = "cuMemcpyHtoDAsync"
	if bytes < 0 {
		return errNegative(call, bytes)
	}
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuMemcpyHtoDAsync(h, dst, src, bytes, s))
}

// MemcpyDtoHAsync copies bytes from device memory at src to host memory at
// dst in stream order (cuMemcpyDtoHAsync). To page-locked memory it returns
// at once and dst must stay alive until the copy completes; to pageable
// memory it returns once the copy is done. dst must hold no Go pointers.
func (c *Context) MemcpyDtoHAsync(dst unsafe.Pointer, src DevicePtr, bytes int, s Stream) error {
	const call = "cuMemcpyDtoHAsync"
	if bytes < 0 {
		return errNegative(call, bytes)
	}
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuMemcpyDtoHAsync(h, dst, src, bytes, s))
}

// MemsetAsync sets n elements of width bytes (1, 2 or 4) at dst to value in
// stream order (cuMemsetD8Async, cuMemsetD16Async, cuMemsetD32Async).
func (c *Context) MemsetAsync(dst DevicePtr, value uint32, width, n int, s Stream) error {
	call := "cuMemsetD32Async"
	switch width {
	case 1:
		call = "cuMemsetD8Async"
	case 2:
		call = "cuMemsetD16Async"
	case 4:
	default:
		return errInvalid(call, "element width %d: want 1, 2 or 4", width)
	}
	if n < 0 {
		return errNegative(call, n)
	}
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuMemsetAsync(h, dst, value, width, n, s))
}
