package nccl

import "fmt"

// Result is an ncclResult_t that is not ncclSuccess.
type Result struct {
	Call string
	Code int
}

func (r *Result) Error() string {
	return fmt.Sprintf("%s: %s (ncclResult %d)", r.Call, ncclGetErrorString(r.Code), r.Code)
}

// check turns an ncclResult_t into an error.
func check(call string, code int) error {
	if code == 0 {
		return nil
	}
	return &Result{Call: call, Code: code}
}

// ready loads NCCL for call, or says why it cannot be.
func ready(call string) error {
	if _, err := Load(); err != nil {
		return fmt.Errorf("%s: %w", call, err)
	}
	return nil
}

// UniqueID is an ncclUniqueId: rank 0 makes it (GetUniqueID) and hands it,
// as bytes, to every other rank, which passes it to InitRank.
type UniqueID [128]byte

// GetUniqueID makes the id of a new communicator (ncclGetUniqueId).
func GetUniqueID() (UniqueID, error) {
	var id UniqueID
	if err := ready("ncclGetUniqueId"); err != nil {
		return id, err
	}
	return id, check("ncclGetUniqueId", ncclGetUniqueId(&id))
}

// Comm is an NCCL communicator (ncclComm_t): one rank's end of a group.
type Comm uintptr

// InitAll makes one communicator per device of this process, in rank
// order (ncclCommInitAll).
func InitAll(devices []int) ([]Comm, error) {
	const call = "ncclCommInitAll"
	if err := ready(call); err != nil {
		return nil, err
	}
	if len(devices) == 0 {
		return nil, fmt.Errorf("%s: no device", call)
	}
	hs, r := initAll(devices)
	if err := check(call, r); err != nil {
		return nil, err
	}
	comms := make([]Comm, len(hs))
	for i, h := range hs {
		comms[i] = Comm(h)
	}
	return comms, nil
}

// InitRank joins rank's communicator of nranks ranks made from id
// (ncclCommInitRank), on the CUDA device current on the calling thread: the
// caller locks the goroutine to its thread and makes the device's context
// current first. Every rank must call it, concurrently.
func InitRank(nranks int, id UniqueID, rank int) (Comm, error) {
	const call = "ncclCommInitRank"
	if err := ready(call); err != nil {
		return 0, err
	}
	if nranks < 1 || rank < 0 || rank >= nranks {
		return 0, fmt.Errorf("%s: rank %d of %d ranks", call, rank, nranks)
	}
	h, r := ncclCommInitRank(nranks, &id, rank)
	return Comm(h), check(call, r)
}

// Destroy frees the communicator after its queued work (ncclCommDestroy).
func (c Comm) Destroy() error { return check("ncclCommDestroy", ncclCommDestroy(uintptr(c))) }

// Abort frees the communicator at once, cancelling its work
// (ncclCommAbort), after an error.
func (c Comm) Abort() error { return check("ncclCommAbort", ncclCommAbort(uintptr(c))) }

// Count returns the number of ranks (ncclCommCount).
func (c Comm) Count() (int, error) {
	v, r := ncclCommInt(uintptr(c), 0)
	return v, check("ncclCommCount", r)
}

// Rank returns this communicator's rank (ncclCommUserRank).
func (c Comm) Rank() (int, error) {
	v, r := ncclCommInt(uintptr(c), 1)
	return v, check("ncclCommUserRank", r)
}

// Device returns the CUDA device ordinal of the communicator
// (ncclCommCuDevice).
func (c Comm) Device() (int, error) {
	v, r := ncclCommInt(uintptr(c), 2)
	return v, check("ncclCommCuDevice", r)
}

// AsyncError returns the error of the communicator's asynchronous work, if
// any (ncclCommGetAsyncError); nil while it runs or after it succeeded.
func (c Comm) AsyncError() error {
	v, r := ncclCommInt(uintptr(c), 3)
	if err := check("ncclCommGetAsyncError", r); err != nil {
		return err
	}
	if v == 7 { // ncclInProgress
		return nil
	}
	return check("asynchronous NCCL work", v)
}

// DataType is an ncclDataType_t.
type DataType int

// NCCL's element types.
const (
	Int8    DataType = 0
	Uint8   DataType = 1
	Int32   DataType = 2
	Uint32  DataType = 3
	Int64   DataType = 4
	Uint64  DataType = 5
	Float16 DataType = 6
	Float32 DataType = 7
	Float64 DataType = 8
)

// RedOp is an ncclRedOp_t.
type RedOp int

// NCCL's built-in reductions.
const (
	Sum  RedOp = 0
	Prod RedOp = 1
	Max  RedOp = 2
	Min  RedOp = 3
)

// Device buffers are device addresses (CUdeviceptr) and streams CUstream
// handles, as package cuda and runtime's interop report them.

// AllReduce reduces count elements of every rank's send with op into every
// rank's recv, on stream (ncclAllReduce).
func (c Comm) AllReduce(send, recv uint64, count int, dt DataType, op RedOp, stream uintptr) error {
	if count < 0 {
		return fmt.Errorf("ncclAllReduce: negative count %d", count)
	}
	return check("ncclAllReduce", ncclAllReduce(send, recv, count, dt, op, uintptr(c), stream))
}

// AllGather gathers count elements of every rank's send into every rank's
// recv (count × ranks elements, in rank order), on stream (ncclAllGather).
func (c Comm) AllGather(send, recv uint64, count int, dt DataType, stream uintptr) error {
	if count < 0 {
		return fmt.Errorf("ncclAllGather: negative count %d", count)
	}
	return check("ncclAllGather", ncclAllGather(send, recv, count, dt, uintptr(c), stream))
}

// Broadcast copies count elements of root's send into every rank's recv, on
// stream (ncclBroadcast).
func (c Comm) Broadcast(send, recv uint64, count int, dt DataType, root int, stream uintptr) error {
	if count < 0 {
		return fmt.Errorf("ncclBroadcast: negative count %d", count)
	}
	return check("ncclBroadcast", ncclBroadcast(send, recv, count, dt, root, uintptr(c), stream))
}

// Send sends count elements of buf to rank peer, on stream (ncclSend); the
// peer posts the matching Recv. Pair them inside GroupStart and GroupEnd.
func (c Comm) Send(buf uint64, count int, dt DataType, peer int, stream uintptr) error {
	if count < 0 {
		return fmt.Errorf("ncclSend: negative count %d", count)
	}
	return check("ncclSend", ncclSend(buf, count, dt, peer, uintptr(c), stream))
}

// Recv receives count elements from rank peer into buf, on stream
// (ncclRecv).
func (c Comm) Recv(buf uint64, count int, dt DataType, peer int, stream uintptr) error {
	if count < 0 {
		return fmt.Errorf("ncclRecv: negative count %d", count)
	}
	return check("ncclRecv", ncclRecv(buf, count, dt, peer, uintptr(c), stream))
}

// GroupStart opens a group of calls that NCCL issues together at GroupEnd:
// the calls of several ranks driven by one thread, or the sends and
// receives of one exchange (ncclGroupStart).
func GroupStart() error {
	if err := ready("ncclGroupStart"); err != nil {
		return err
	}
	return check("ncclGroupStart", ncclGroupStart())
}

// GroupEnd issues the group's calls (ncclGroupEnd).
func GroupEnd() error { return check("ncclGroupEnd", ncclGroupEnd()) }
