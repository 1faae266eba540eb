package runtime

import (
	"errors"
	"fmt"
	"os"
	goruntime "runtime"
	"strings"
	"sync"

	"github.com/gocccl/gocccl/runtime/cuda"
)

// Backend says where a Device runs algorithms.
type Backend int

// Backends. Auto picks GPU when a CUDA driver and a device are present, CPU
// otherwise; the environment variable GOCCCL_BACKEND ("gpu" or "cpu")
// overrides that choice.
const (
	Auto Backend = iota
	CPU
	GPU
)

// String returns "auto", "cpu" or "gpu".
func (b Backend) String() string {
	switch b {
	case Auto:
		return "auto"
	case CPU:
		return "cpu"
	case GPU:
		return "gpu"
	}
	return fmt.Sprintf("Backend(%d)", int(b))
}

// ErrDeviceClosed is returned by every use of a Device, or of a stream or
// buffer on it, after Device.Close.
var ErrDeviceClosed = errors.New("gocccl: device is closed")

// DeviceInfo describes a Device.
type DeviceInfo struct {
	Backend Backend
	Name    string // e.g. "NVIDIA H200", or "CPU (16 goroutines)"
	Ordinal int    // CUDA device ordinal; 0 on the CPU backend

	// GPU only.
	Major, Minor       int    // compute capability
	Multiprocessors    int    // SM count
	SharedMemPerBlock  int    // bytes
	TotalMemory        uint64 // bytes
	DriverVersion      int    // e.g. 12080
	MemoryPoolsSupport bool   // stream-ordered allocation available

	// CPU only: how many goroutines an algorithm uses.
	Workers int

	// Fallback says why Auto chose the CPU backend; empty otherwise.
	Fallback string
}

// String summarises the device in one line.
func (i DeviceInfo) String() string {
	if i.Backend == GPU {
		return fmt.Sprintf("GPU %d: %s (compute capability %d.%d, %d SMs)", i.Ordinal, i.Name, i.Major, i.Minor, i.Multiprocessors)
	}
	s := i.Name
	if i.Fallback != "" {
		s += " [" + i.Fallback + "]"
	}
	return s
}

// Device is a GPU or the CPU backend. Its methods and the algorithms that run
// on it are safe for concurrent use by several goroutines.
type Device struct {
	info DeviceInfo
	ctx  *cuda.Context // GPU only
	// pool serves the scratch memory of algorithm calls in stream order and
	// keeps up to tempRetain bytes of it between calls; 0 when the device
	// has no memory pools (then scratch uses plain allocations).
	pool cuda.MemPool

	defaultStream Stream

	mu      sync.Mutex
	closed  bool
	modules map[*Module]*loadedModule // one per generated package: bounded
	kernels map[*registration]*boundKernels
}

// Open returns a device of the given backend. Auto consults GOCCCL_BACKEND,
// then uses GPU 0 when a CUDA driver and device are present, else the CPU.
func Open(b Backend) (*Device, error) {
	if b == Auto {
		switch env := strings.ToLower(os.Getenv("GOCCCL_BACKEND")); env {
		case "", "auto":
		case "cpu":
			b = CPU
		case "gpu":
			b = GPU
		default:
			return nil, fmt.Errorf("gocccl: GOCCCL_BACKEND=%q: want gpu, cpu or auto", env)
		}
	}
	switch b {
	case CPU:
		return openCPU(""), nil
	case GPU:
		return OpenGPU(0)
	case Auto:
		d, err := OpenGPU(0)
		if err != nil {
			return openCPU(err.Error()), nil
		}
		return d, nil
	}
	return nil, fmt.Errorf("gocccl: unknown backend %v", b)
}

func openCPU(fallback string) *Device {
	w := goruntime.GOMAXPROCS(0)
	return newDevice(DeviceInfo{
		Backend:  CPU,
		Name:     fmt.Sprintf("CPU (%d goroutines)", w),
		Workers:  w,
		Fallback: fallback,
	}, nil)
}

func newDevice(info DeviceInfo, ctx *cuda.Context) *Device {
	d := &Device{info: info, ctx: ctx}
	d.defaultStream.dev = d
	return d
}

// OpenGPU opens the CUDA device with the given ordinal and retains its
// primary context. It fails, with the CUDA error, when there is no driver or
// no such device.
func OpenGPU(ordinal int) (*Device, error) {
	if err := cuda.Init(); err != nil {
		return nil, fmt.Errorf("gocccl: no CUDA device: %w", err)
	}
	count, err := cuda.DeviceCount()
	if err != nil {
		return nil, fmt.Errorf("gocccl: no CUDA device: %w", err)
	}
	if ordinal < 0 || ordinal >= count {
		return nil, fmt.Errorf("gocccl: GPU %d does not exist (%d found)", ordinal, count)
	}
	dev, err := cuda.DeviceGet(ordinal)
	if err != nil {
		return nil, fmt.Errorf("gocccl: GPU %d: %w", ordinal, err)
	}
	info, err := gpuInfo(dev, ordinal)
	if err != nil {
		return nil, err
	}
	ctx, err := cuda.PrimaryContext(dev)
	if err != nil {
		return nil, fmt.Errorf("gocccl: GPU %d: %w", ordinal, err)
	}
	d := newDevice(info, ctx)
	if info.MemoryPoolsSupport {
		if d.pool, err = ctx.MemPoolCreate(tempRetain); err != nil {
			ctx.Release()
			return nil, fmt.Errorf("gocccl: GPU %d: scratch memory pool: %w", ordinal, err)
		}
	}
	return d, nil
}

func gpuInfo(dev cuda.Device, ordinal int) (DeviceInfo, error) {
	info := DeviceInfo{Backend: GPU, Ordinal: ordinal}
	var err error
	wrap := func(e error) error { return fmt.Errorf("gocccl: GPU %d: %w", ordinal, e) }
	if info.Name, err = dev.Name(); err != nil {
		return info, wrap(err)
	}
	if info.Major, info.Minor, err = dev.ComputeCapability(); err != nil {
		return info, wrap(err)
	}
	if info.Multiprocessors, err = dev.Attribute(cuda.AttrMultiprocessorCount); err != nil {
		return info, wrap(err)
	}
	if info.SharedMemPerBlock, err = dev.Attribute(cuda.AttrMaxSharedMemoryPerBlock); err != nil {
		return info, wrap(err)
	}
	pools, err := dev.Attribute(cuda.AttrMemoryPoolsSupported)
	if err != nil {
		return info, wrap(err)
	}
	info.MemoryPoolsSupport = pools != 0
	if info.TotalMemory, err = dev.TotalMem(); err != nil {
		return info, wrap(err)
	}
	if info.DriverVersion, err = cuda.DriverVersion(); err != nil {
		return info, wrap(err)
	}
	return info, nil
}

// Info describes the device.
func (d *Device) Info() DeviceInfo { return d.info }

// Backend returns CPU or GPU.
func (d *Device) Backend() Backend { return d.info.Backend }

// String describes the device in one line.
func (d *Device) String() string { return d.info.String() }

// Close unloads every module loaded on the device and releases its context.
// Buffers and streams of the device must not be used afterwards; they return
// ErrDeviceClosed. Closing twice is an error.
func (d *Device) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return ErrDeviceClosed
	}
	d.closed = true
	if d.ctx == nil {
		return nil
	}
	var errs []error
	for _, lm := range d.modules {
		if err := d.ctx.ModuleUnload(lm.handle); err != nil {
			errs = append(errs, fmt.Errorf("gocccl: unloading module of %s: %w", lm.module.pkg, err))
		}
	}
	d.modules = nil
	d.kernels = nil
	if d.pool != 0 {
		if err := d.ctx.MemPoolDestroy(d.pool); err != nil {
			errs = append(errs, fmt.Errorf("gocccl: destroying scratch pool: %w", err))
		}
		d.pool = 0
	}
	if err := d.ctx.Release(); err != nil {
		errs = append(errs, fmt.Errorf("gocccl: releasing context: %w", err))
	}
	return errors.Join(errs...)
}

// check returns ErrDeviceClosed once the device is closed.
func (d *Device) check() error {
	d.mu.Lock()
	closed := d.closed
	d.mu.Unlock()
	if closed {
		return ErrDeviceClosed
	}
	return nil
}
