package runtime

import (
	"fmt"

	"github.com/gocccl/gocccl/internal/ptxisa"
	"github.com/gocccl/gocccl/internal/registry"
)

// checkPTXDriver returns an error when im, the image SelectImage chose for a
// device of compute capability major.minor, is PTX that a driver of CUDA
// version driver (as cuDriverGetVersion reports it, 13000 for 13.0) cannot
// JIT-compile: PTX from an nvcc newer than the driver. The error names the
// driver version needed. SelectImage prefers SASS, which needs no JIT, so this
// only matters when no SASS fits the device. The PTX ISA version is the one
// the generated code recorded (registry.Image.PTXISA), else the one the PTX declares.
func checkPTXDriver(im registry.Image, driver, major, minor int) error {
	if !im.Target.PTX {
		return nil
	}
	var err error
	if v, ok := ptxisa.ParseVersion(im.PTXISA); ok {
		if need := v.Driver(); driver < need {
			err = &ptxisa.TooOldError{ISA: v, Need: need, Driver: driver}
		}
	} else {
		err = ptxisa.Check(im.Data, driver)
	}
	if err != nil {
		return fmt.Errorf("%s: %w: update the driver, or regenerate with sm_%d%d among the targets (SASS needs no JIT)",
			im.Target, err, major, minor)
	}
	return nil
}
