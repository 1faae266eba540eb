package cuda

// Graph is a captured CUDA graph (CUgraph).
type Graph uintptr

// GraphExec is an instantiated, launchable graph (CUgraphExec).
type GraphExec uintptr

// StreamBeginCapture starts capturing the work enqueued on s into a graph
// (cuStreamBeginCapture, relaxed mode: other threads may keep calling the
// driver). s must not be the legacy default stream.
func (c *Context) StreamBeginCapture(s Stream) error {
	const call = "cuStreamBeginCapture"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	const relaxed = 2 // CU_STREAM_CAPTURE_MODE_RELAXED
	return check(call, cuStreamBeginCapture(h, s, relaxed))
}

// StreamEndCapture ends the capture on s and returns the graph
// (cuStreamEndCapture). A capture invalidated by an operation that cannot
// be captured returns an error and no graph.
func (c *Context) StreamEndCapture(s Stream) (Graph, error) {
	const call = "cuStreamEndCapture"
	h, err := c.enter(call)
	if err != nil {
		return 0, err
	}
	defer c.exit()
	g, r := cuStreamEndCapture(h, s)
	return g, check(call, r)
}

// GraphInstantiate makes a launchable graph of g (cuGraphInstantiate).
func (c *Context) GraphInstantiate(g Graph) (GraphExec, error) {
	const call = "cuGraphInstantiate"
	h, err := c.enter(call)
	if err != nil {
		return 0, err
	}
	defer c.exit()
	e, r := cuGraphInstantiate(h, g)
	return e, check(call, r)
}

// GraphLaunch enqueues the graph's work on s (cuGraphLaunch).
func (c *Context) GraphLaunch(e GraphExec, s Stream) error {
	const call = "cuGraphLaunch"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuGraphLaunch(h, e, s))
}

// GraphExecDestroy destroys an instantiated graph (cuGraphExecDestroy).
func (c *Context) GraphExecDestroy(e GraphExec) error {
	const call = "cuGraphExecDestroy"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuGraphExecDestroy(h, e))
}

// GraphDestroy destroys a graph (cuGraphDestroy).
func (c *Context) GraphDestroy(g Graph) error {
	const call = "cuGraphDestroy"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuGraphDestroy(h, g))
}
