package cuda

import (
	"sync"
	"sync/atomic"
)

// libcuda is the driver library that Init opens.
const libcuda = "libcuda.so.1"

// driver records what Init found.
var driver struct {
	once    sync.Once
	loadErr error       // from opening libcuda; nil once it is loaded
	initErr error       // from cuInit, or loadErr
	loaded  atomic.Bool // libcuda is loaded: its error texts may be used
}

// Init opens the CUDA driver library (libcuda.so.1) and initializes it with
// cuInit. Only the first call does the work; later calls return the same
// result. It is safe for concurrent use.
//
// Without a driver, Init returns an error wrapping [ErrDriverNotFound]; with a
// driver but no GPU, an [*Error] with Code [ErrorNoDevice]. Every other
// function of the package that needs the driver calls Init itself, so calling
// it first is only needed to learn whether CUDA can be used.
func Init() error {
	start()
	return driver.initErr
}

// start loads and initializes the driver, once.
func start() {
	driver.once.Do(func() {
		if err := cuLoad(libcuda); err != nil {
			driver.loadErr, driver.initErr = err, err
			return
		}
		driver.loaded.Store(true)
		driver.initErr = check("cuInit", cuInit())
	})
}

// DriverVersion returns the CUDA version the driver supports, as
// 1000*major + 10*minor (12080 for CUDA 12.8). It needs only the driver
// library: it works even when [Init] fails because no GPU is present.
func DriverVersion() (int, error) {
	start()
	if driver.loadErr != nil {
		return 0, driver.loadErr
	}
	v, r := cuDriverGetVersion()
	return v, check("cuDriverGetVersion", r)
}
