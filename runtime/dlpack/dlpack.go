// Package dlpack exchanges gocccl Slices with other libraries as DLPack
// tensors (DLManagedTensor), without a copy: PyTorch, CuPy, JAX and Go ML
// runtimes speak it. A tensor crosses as an unsafe.Pointer to the C struct,
// as DLPack's own C API passes it.
//
// Export hands a Slice out: the consumer owns the tensor and calls its
// deleter when done, which lets the Slice go (until then gocccl keeps it
// alive). Import takes a tensor in: the Slice wraps the producer's memory
// (runtime.Wrap, runtime.WrapHost), gocccl never frees it, and Release
// calls the tensor's deleter after the Slice's last use. docs/INTEROP.md
// has the whole contract. It needs cgo (the deleter calls back into Go);
// without cgo every call returns ErrNoCgo.
package dlpack

import (
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gocccl/gocccl/half"
	"github.com/gocccl/gocccl/runtime"
)

// ErrNoCgo is returned by every call in a binary built without cgo.
var ErrNoCgo = errors.New("dlpack: built without cgo (CGO_ENABLED=0): DLPack's deleter needs it")

// DLPack's device types that gocccl exchanges.
const (
	deviceCPU  = 1 // kDLCPU
	deviceCUDA = 2 // kDLCUDA
)

// dtype is DLDataType: a code (kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBool
// 6), bits and lanes.
type dtype struct {
	code, bits uint8
	lanes      uint16
}

func (t dtype) String() string {
	names := map[uint8]string{0: "int", 1: "uint", 2: "float", 4: "bfloat", 6: "bool"}
	name, ok := names[t.code]
	if !ok {
		name = fmt.Sprintf("code %d ", t.code)
	}
	s := fmt.Sprintf("%s%d", name, t.bits)
	if t.lanes != 1 {
		s += fmt.Sprintf("x%d", t.lanes)
	}
	return s
}

// dtypeOf returns T's DLDataType: Go's numeric types, complex types, bool,
// and package half's Float16 (kDLFloat, 16 bits) and BFloat16 (kDLBfloat,
// 16 bits), which are uint16 to reflect.
func dtypeOf[T any]() (dtype, error) {
	t := reflect.TypeFor[T]()
	bits := uint8(t.Size() * 8)
	switch t {
	case reflect.TypeFor[half.Float16]():
		return dtype{2, 16, 1}, nil
	case reflect.TypeFor[half.BFloat16]():
		return dtype{4, 16, 1}, nil // kDLBfloat
	}
	switch t.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		return dtype{0, bits, 1}, nil
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint, reflect.Uintptr:
		return dtype{1, bits, 1}, nil
	case reflect.Float32, reflect.Float64:
		return dtype{2, bits, 1}, nil
	case reflect.Complex64, reflect.Complex128:
		return dtype{5, bits, 1}, nil // kDLComplex: real and imaginary parts, interleaved
	case reflect.Bool:
		return dtype{6, 8, 1}, nil
	}
	return dtype{}, fmt.Errorf("dlpack: element type %s has no DLPack data type (numbers and bool have)", t)
}

// deviceOf returns d's DLDevice.
func deviceOf(d *runtime.Device) (typ, id int32) {
	if d.Backend() == runtime.GPU {
		return deviceCUDA, int32(d.Info().Ordinal)
	}
	return deviceCPU, 0
}

// Export returns a DLManagedTensor (one dimension, compact) over s's
// memory. The consumer owns it and must call its deleter once; s, its
// allocation at least, stays alive until then. Free s only after the
// deleter ran.
func Export[T any](s *runtime.Slice[T]) (unsafe.Pointer, error) {
	dt, err := dtypeOf[T]()
	if err != nil {
		return nil, err
	}
	addr, err := s.Address()
	if err != nil {
		return nil, fmt.Errorf("dlpack: Export: %w", err)
	}
	typ, id := deviceOf(s.Device())
	return export(s, addr, typ, id, dt, s.Len())
}

// Import returns a Slice of d over the tensor's memory, without a copy:
// the tensor must be on d (kDLCUDA of d's ordinal on a GPU, kDLCPU on the
// CPU backend), of T's data type, and compact (row-major strides or none;
// any number of dimensions, taken as one). gocccl never frees the memory;
// call Release(t) after the Slice's last use (work queued on it included).
func Import[T any](d *runtime.Device, t unsafe.Pointer) (*runtime.Slice[T], error) {
	if t == nil {
		return nil, errors.New("dlpack: Import: nil tensor")
	}
	want, err := dtypeOf[T]()
	if err != nil {
		return nil, err
	}
	v, err := view(t)
	if err != nil {
		return nil, err
	}
	typ, id := deviceOf(d)
	if v.deviceType != typ || v.deviceID != id {
		return nil, fmt.Errorf("dlpack: Import: the tensor is on %s, the device is %s", deviceName(v.deviceType, v.deviceID), deviceName(typ, id))
	}
	if v.dtype != want {
		return nil, fmt.Errorf("dlpack: Import: the tensor holds %s, a Slice[%s] needs %s", v.dtype, reflect.TypeFor[T](), want)
	}
	n, err := compactLen(v.shape, v.strides)
	if err != nil {
		return nil, err
	}
	if v.data == 0 && n > 0 {
		return nil, errors.New("dlpack: Import: the tensor has elements but no data")
	}
	addr := v.data + uintptr(v.byteOffset)
	if typ == deviceCUDA {
		s, err := runtime.Wrap[T](d, addr, n)
		if err != nil {
			return nil, fmt.Errorf("dlpack: Import: %w", err)
		}
		return s, nil
	}
	if align := uintptr(reflect.TypeFor[T]().Align()); addr%align != 0 {
		return nil, fmt.Errorf("dlpack: Import: data at %#x is not aligned for %s", addr, reflect.TypeFor[T]())
	}
	var host []T
	if n > 0 {
		host = unsafe.Slice((*T)(hostPointer(t, v.byteOffset)), n)
	}
	s, err := runtime.WrapHost(d, host)
	if err != nil {
		return nil, fmt.Errorf("dlpack: Import: %w", err)
	}
	return s, nil
}

// Release calls the tensor's deleter (once: the tensor is gone after it).
func Release(t unsafe.Pointer) error { return release(t) }

// tensorView is what Import reads of a DLTensor.
type tensorView struct {
	data                 uintptr
	deviceType, deviceID int32
	dtype                dtype
	shape, strides       []int64
	byteOffset           uint64
}

// compactLen returns the number of elements of a compact row-major tensor.
func compactLen(shape, strides []int64) (int, error) {
	n := int64(1)
	for i, s := range shape {
		if s < 0 {
			return 0, fmt.Errorf("dlpack: Import: dimension %d has negative size %d", i, s)
		}
		if s != 0 && n > (1<<50)/s {
			return 0, fmt.Errorf("dlpack: Import: shape %v is too large", shape)
		}
		n *= s
	}
	if strides != nil {
		want := int64(1)
		for i := len(shape) - 1; i >= 0; i-- {
			if shape[i] != 1 && strides[i] != want {
				return 0, fmt.Errorf("dlpack: Import: strides %v of shape %v are not compact row-major: copy the tensor (.contiguous()) first", strides, shape)
			}
			want *= shape[i]
		}
	}
	return int(n), nil
}

func deviceName(typ, id int32) string {
	switch typ {
	case deviceCPU:
		return "the CPU"
	case deviceCUDA:
		return fmt.Sprintf("CUDA device %d", id)
	}
	return fmt.Sprintf("DLPack device type %d (id %d)", typ, id)
}
