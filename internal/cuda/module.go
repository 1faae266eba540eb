package cuda

import (
	"bytes"
	"fmt"
	"strings"
)

// Module is a loaded CUDA module handle (CUmodule).
type Module uintptr

// Function is a kernel handle (CUfunction), valid while its module is loaded.
type Function uintptr

// Sizes of the JIT log buffers handed to cuModuleLoadDataEx.
const (
	jitErrorLogSize = 16 << 10
	jitInfoLogSize  = 4 << 10
)

// Leading bytes of the binary images cuModuleLoadDataEx accepts; anything
// else is PTX text.
var (
	elfMagic    = []byte("\x7fELF")              // cubin
	fatbinMagic = []byte{0x50, 0xed, 0x55, 0xba} // fat binary, 0xba55ed50 little-endian
)

// ModuleLoadData loads a module from a cubin, a fat binary or PTX text
// (cuModuleLoadDataEx); the driver compiles PTX for the device. PTX need not
// end in a NUL byte: ModuleLoadData adds one to a copy when it is missing.
//
// If loading fails, the error includes the JIT compiler's log and wraps the
// driver's [*Error].
func (c *Context) ModuleLoadData(image []byte) (Module, error) {
	const call = "cuModuleLoadDataEx"
	if len(image) == 0 {
		return 0, errInvalid(call, "empty module image")
	}
	image = nulTerminated(image)
	h, err := c.enter(call)
	if err != nil {
		return 0, err
	}
	defer c.exit()
	errLog := make([]byte, jitErrorLogSize)
	infoLog := make([]byte, jitInfoLogSize)
	m, r := cuModuleLoadDataEx(h, image, errLog, infoLog)
	if err := check(call, r); err != nil {
		return 0, withJITLog(err, errLog, infoLog)
	}
	return m, nil
}

// nulTerminated returns image, or a copy of it with a NUL byte appended if it
// is PTX text without one.
func nulTerminated(image []byte) []byte {
	if image[len(image)-1] == 0 || bytes.HasPrefix(image, elfMagic) || bytes.HasPrefix(image, fatbinMagic) {
		return image
	}
	return append(image[:len(image):len(image)], 0)
}

// withJITLog adds the JIT logs, each a NUL-terminated C string, to err.
func withJITLog(err error, errLog, infoLog []byte) error {
	el, il := logText(errLog), logText(infoLog)
	switch {
	case el != "" && il != "":
		return fmt.Errorf("%w; JIT error log:\n%s\nJIT info log:\n%s", err, el, il)
	case el != "":
		return fmt.Errorf("%w; JIT error log:\n%s", err, el)
	case il != "":
		return fmt.Errorf("%w; JIT info log:\n%s", err, il)
	}
	return err
}

// logText returns the text of a NUL-terminated log, without trailing space.
func logText(log []byte) string {
	if i := bytes.IndexByte(log, 0); i >= 0 {
		log = log[:i]
	}
	return strings.TrimRight(string(log), " \t\r\n")
}

// ModuleUnload unloads a module (cuModuleUnload). Its functions become
// invalid.
func (c *Context) ModuleUnload(m Module) error {
	const call = "cuModuleUnload"
	h, err := c.enter(call)
	if err != nil {
		return err
	}
	defer c.exit()
	return check(call, cuModuleUnload(h, m))
}

// ModuleGetFunction returns the kernel named name in m
// (cuModuleGetFunction). The name is the symbol in the image: the
// extern "C" name, or the mangled C++ name.
func (c *Context) ModuleGetFunction(m Module, name string) (Function, error) {
	const call = "cuModuleGetFunction"
	if strings.IndexByte(name, 0) >= 0 {
		return 0, errInvalid(call, "function name %q contains a NUL byte", name)
	}
	h, err := c.enter(call)
	if err != nil {
		return 0, err
	}
	defer c.exit()
	f, r := cuModuleGetFunction(h, m, name)
	if r == ErrorNotFound {
		return 0, fmt.Errorf("cuda: no function %q in module: %w", name, &Error{Call: call, Code: r})
	}
	return f, check(call, r)
}
