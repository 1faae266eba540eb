package cuda

// PointerAttribute names what cuPointerGetAttribute reports about an
// address (CUpointer_attribute).
type PointerAttribute int

const (
	// PointerContext is the CUcontext the memory belongs to.
	PointerContext PointerAttribute = 1
	// PointerMemoryType is the MemoryType of the memory.
	PointerMemoryType PointerAttribute = 2
	// PointerDeviceOrdinal is the ordinal of the device holding the memory.
	PointerDeviceOrdinal PointerAttribute = 9
	// PointerRangeStart is the start of the allocation holding the address.
	PointerRangeStart PointerAttribute = 11
	// PointerRangeSize is the size in bytes of that allocation.
	PointerRangeSize PointerAttribute = 12
)

// MemoryType is where memory lives (CUmemorytype).
type MemoryType int

const (
	// MemoryHost is host memory known to CUDA (page-locked).
	MemoryHost MemoryType = 1
	// MemoryDevice is device memory.
	MemoryDevice MemoryType = 2
)

// PointerInfo is what the driver knows of a device address.
type PointerInfo struct {
	Type       MemoryType
	Ordinal    int       // the device holding it
	RangeStart DevicePtr // its allocation: [RangeStart, RangeStart+RangeSize)
	RangeSize  uint64
}

// PointerGetInfo asks the driver about p (cuPointerGetAttribute). It fails
// with ErrorInvalidValue for an address CUDA did not allocate.
func (c *Context) PointerGetInfo(p DevicePtr) (PointerInfo, error) {
	const call = "cuPointerGetAttribute"
	h, err := c.enter(call)
	if err != nil {
		return PointerInfo{}, err
	}
	defer c.exit()
	var info PointerInfo
	for _, a := range [...]PointerAttribute{PointerMemoryType, PointerDeviceOrdinal, PointerRangeStart, PointerRangeSize} {
		v, r := cuPointerGetAttribute(h, a, p)
		if err := check(call, r); err != nil {
			return PointerInfo{}, err
		}
		switch a {
		case PointerMemoryType:
			info.Type = MemoryType(v)
		case PointerDeviceOrdinal:
			info.Ordinal = int(v)
		case PointerRangeStart:
			info.RangeStart = DevicePtr(v)
		case PointerRangeSize:
			info.RangeSize = v
		}
	}
	return info, nil
}
