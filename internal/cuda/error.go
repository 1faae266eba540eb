package cuda

import (
	"errors"
	"fmt"
	"strconv"
)

// ErrDriverNotFound is wrapped by the error [Init] returns when the CUDA
// driver library cannot be loaded: it is not installed, or the binary was
// built without cgo.
var ErrDriverNotFound = errors.New("cuda: driver not found")

// Error is a failed CUDA driver call: the driver's result, or the result the
// driver would give for an argument or a [Context] that this package rejects
// without making the call.
type Error struct {
	Call string // the driver call, such as "cuMemAlloc"
	Code Result // what it returned
}

// Error returns the call, the code's name and number, and the driver's
// description of it, as in
// "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory".
func (e *Error) Error() string {
	name, desc := e.Code.text()
	s := e.Call + ": " + name + " (" + strconv.Itoa(int(e.Code)) + ")"
	if desc != "" {
		s += ": " + desc
	}
	return s
}

// Sticky reports whether the error is one that leaves its context unusable
// for the rest of the process: a kernel that faulted (an illegal address or
// instruction, a misaligned access, a trap or assertion, a timeout, an
// unspecified launch failure). Every later call on the context fails.
func (e *Error) Sticky() bool {
	switch e.Code {
	case ErrorIllegalAddress, ErrorLaunchTimeout, ErrorAssert, ErrorHardwareStackError, ErrorIllegalInstruction,
		ErrorMisalignedAddress, ErrorInvalidAddressSpace, ErrorInvalidPC, ErrorLaunchFailed:
		return true
	}
	return false
}

// check returns nil if r is Success, and otherwise an error for call.
func check(call string, r Result) error {
	switch r {
	case Success:
		return nil
	case resultMissingSymbol:
		return errMissingSymbol(call)
	}
	return &Error{Call: call, Code: r}
}

// errMissingSymbol reports that the driver lacks the entry point for an
// optional call. It wraps an [*Error] with Code [ErrorNotSupported], so
// callers can fall back to something else.
func errMissingSymbol(call string) error {
	return fmt.Errorf("cuda: the driver has no %s (it needs a CUDA 11.2 or newer driver): %w",
		call, &Error{Call: call, Code: ErrorNotSupported})
}

// errInvalid reports an argument rejected before it reached the driver. It
// wraps an [*Error] with Code [ErrorInvalidValue], as the driver would have
// returned.
func errInvalid(call, format string, args ...any) error {
	return fmt.Errorf("cuda: %s: %w", fmt.Sprintf(format, args...), &Error{Call: call, Code: ErrorInvalidValue})
}
