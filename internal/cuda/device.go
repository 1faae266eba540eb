package cuda

import "math"

// Device is a CUDA device handle (CUdevice), as returned by [DeviceGet].
type Device int32

// DeviceAttribute selects a property of a device (CUdevice_attribute).
type DeviceAttribute int32

// Device attributes, with their values in cuda.h.
const (
	AttrMaxThreadsPerBlock               DeviceAttribute = 1
	AttrMaxSharedMemoryPerBlock          DeviceAttribute = 8
	AttrWarpSize                         DeviceAttribute = 10
	AttrMultiprocessorCount              DeviceAttribute = 16
	AttrL2CacheSize                      DeviceAttribute = 38
	AttrMaxThreadsPerMultiprocessor      DeviceAttribute = 39
	AttrComputeCapabilityMajor           DeviceAttribute = 75
	AttrComputeCapabilityMinor           DeviceAttribute = 76
	AttrMaxSharedMemoryPerMultiprocessor DeviceAttribute = 81
	AttrMaxSharedMemoryPerBlockOptin     DeviceAttribute = 97
	AttrMemoryPoolsSupported             DeviceAttribute = 115
)

// DeviceCount returns the number of CUDA devices.
func DeviceCount() (int, error) {
	if err := Init(); err != nil {
		return 0, err
	}
	n, r := cuDeviceGetCount()
	return n, check("cuDeviceGetCount", r)
}

// DeviceGet returns the device with the given ordinal, from 0 to
// DeviceCount()-1.
func DeviceGet(ordinal int) (Device, error) {
	if err := Init(); err != nil {
		return 0, err
	}
	if ordinal < 0 || ordinal > math.MaxInt32 {
		return 0, &Error{Call: "cuDeviceGet", Code: ErrorInvalidDevice}
	}
	d, r := cuDeviceGet(ordinal)
	return d, check("cuDeviceGet", r)
}

// Name returns the device's name, such as "NVIDIA H200".
func (d Device) Name() (string, error) {
	if err := Init(); err != nil {
		return "", err
	}
	name, r := cuDeviceGetName(d)
	return name, check("cuDeviceGetName", r)
}

// Attribute returns the value of one of the device's attributes.
func (d Device) Attribute(a DeviceAttribute) (int, error) {
	if err := Init(); err != nil {
		return 0, err
	}
	v, r := cuDeviceGetAttribute(d, a)
	return v, check("cuDeviceGetAttribute", r)
}

// ComputeCapability returns the device's compute capability: major 9 and
// minor 0 for an H200 (sm_90).
func (d Device) ComputeCapability() (major, minor int, err error) {
	if major, err = d.Attribute(AttrComputeCapabilityMajor); err != nil {
		return 0, 0, err
	}
	if minor, err = d.Attribute(AttrComputeCapabilityMinor); err != nil {
		return 0, 0, err
	}
	return major, minor, nil
}

// TotalMem returns the device's memory size in bytes.
func (d Device) TotalMem() (uint64, error) {
	if err := Init(); err != nil {
		return 0, err
	}
	n, r := cuDeviceTotalMem(d)
	return n, check("cuDeviceTotalMem", r)
}
