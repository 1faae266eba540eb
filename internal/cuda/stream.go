package cuda

// Stream is a CUDA stream handle (CUstream). The zero Stream is the legacy
// default (NULL) stream.
type Stream uintptr

// StreamCreate creates a stream (cuStreamCreate). A non-blocking stream does
// not synchronize with the default stream.
func (c *Context) StreamCreate(nonBlocking bool) (Stream, error) {
	const call = "cuStreamCreate"
	h, err := c.enter(call)
	if err != nil {
		return 0, err
	}
	defer c.exit()
	s, r := cuStreamCreate(h, nonBlocking)
	return s, check(call, r)
}

// StreamDestroy destroys a stream made by [Context.StreamCreate]
// (cuStreamDestroy). Work already queued on it still runs.
func (c *Context) StreamDestroy(s Stream) error {
	const call = "cuStreamDestroy"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuStreamDestroy(h, s))
}

// StreamSynchronize waits until all work queued on s is done
// (cuStreamSynchronize). An error from any of that work, such as a failed
// kernel, is reported here.
func (c *Context) StreamSynchronize(s Stream) error {
	const call = "cuStreamSynchronize"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuStreamSynchronize(h, s))
}

// StreamQuery reports whether all work queued on s has completed
// (cuStreamQuery).
func (c *Context) StreamQuery(s Stream) (bool, error) {
	const call = "cuStreamQuery"
	h, err := c.enter(call)
	if err != nil {
		return false, err
	}
	defer c.exit()
	r := cuStreamQuery(h, s)
	if r == ErrorNotReady {
		return false, nil
	}
	return true, check(call, r)
}
