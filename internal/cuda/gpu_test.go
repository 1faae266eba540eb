package cuda

// GPU tests: they run where Init succeeds and skip elsewhere. Build them here
// with `go test -c` and run the binary on a GPU machine.

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testPTX holds three kernels, compiled by nvcc 11.8 from
//
//	extern "C" __global__ void add_one(int *data, unsigned n);        // data[i] += 1
//	extern "C" __global__ void affine(unsigned n, int *data, int mul, int add); // data[i] = data[i]*mul + add
//	struct __align__(16) Pair { int x; int y; };
//	extern "C" __global__ void probe(long long *out, char c, long long i64,
//		float f32, double f64, Pair p, int i32); // out[0:7] = the parameters
//
// with .version lowered to 7.0, so that any driver since CUDA 11.0 can JIT it
// for any GPU from sm_75 on. It has no trailing NUL: ModuleLoadData adds it.
const testPTX = `
.version 7.0
.target sm_75
.address_size 64

.visible .entry add_one(
	.param .u64 add_one_param_0,
	.param .u32 add_one_param_1
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<5>;

	ld.param.u64 	%rd1, [add_one_param_0];
	ld.param.u32 	%r2, [add_one_param_1];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.u32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;

	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.u32 	%r6, [%rd4];
	add.s32 	%r7, %r6, 1;
	st.global.u32 	[%rd4], %r7;

$L__BB0_2:
	ret;

}
.visible .entry affine(
	.param .u32 affine_param_0,
	.param .u64 affine_param_1,
	.param .u32 affine_param_2,
	.param .u32 affine_param_3
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<10>;
	.reg .b64 	%rd<5>;

	ld.param.u32 	%r4, [affine_param_0];
	ld.param.u64 	%rd1, [affine_param_1];
	ld.param.u32 	%r2, [affine_param_2];
	ld.param.u32 	%r3, [affine_param_3];
	mov.u32 	%r5, %ctaid.x;
	mov.u32 	%r6, %ntid.x;
	mov.u32 	%r7, %tid.x;
	mad.lo.s32 	%r1, %r5, %r6, %r7;
	setp.ge.u32 	%p1, %r1, %r4;
	@%p1 bra 	$L__BB1_2;

	cvta.to.global.u64 	%rd2, %rd1;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.u32 	%r8, [%rd4];
	mad.lo.s32 	%r9, %r8, %r2, %r3;
	st.global.u32 	[%rd4], %r9;

$L__BB1_2:
	ret;

}
.visible .entry probe(
	.param .u64 probe_param_0,
	.param .u8 probe_param_1,
	.param .u64 probe_param_2,
	.param .f32 probe_param_3,
	.param .f64 probe_param_4,
	.param .align 16 .b8 probe_param_5[16],
	.param .u32 probe_param_6
)
{
	.reg .b16 	%rs<2>;
	.reg .f64 	%fd<2>;
	.reg .b64 	%rd<9>;

	ld.param.s8 	%rs1, [probe_param_1];
	ld.param.u64 	%rd1, [probe_param_0];
	ld.param.u64 	%rd2, [probe_param_2];
	ld.param.f64 	%fd1, [probe_param_4];
	ld.param.s32 	%rd3, [probe_param_6];
	ld.param.s32 	%rd4, [probe_param_5+4];
	ld.param.s32 	%rd5, [probe_param_5];
	cvta.to.global.u64 	%rd6, %rd1;
	cvt.s64.s16 	%rd7, %rs1;
	st.global.u64 	[%rd6], %rd7;
	st.global.u64 	[%rd6+8], %rd2;
	ld.param.s32 	%rd8, [probe_param_3];
	st.global.u64 	[%rd6+16], %rd8;
	st.global.f64 	[%rd6+24], %fd1;
	st.global.u64 	[%rd6+32], %rd5;
	st.global.u64 	[%rd6+40], %rd4;
	st.global.u64 	[%rd6+48], %rd3;
	ret;

}

`

// gpuContext returns the primary context of device 0, released when the test
// ends, or skips the test if there is no GPU.
func gpuContext(t testing.TB) *Context {
	t.Helper()
	if err := Init(); err != nil {
		t.Skip("no CUDA GPU: " + err.Error())
	}
	d, err := DeviceGet(0)
	require.NoError(t, err)
	ctx, err := PrimaryContext(d)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, ctx.Release()) })
	return ctx
}

// testKernels loads testPTX and returns its kernels, unloaded when the test
// ends.
type testKernels struct {
	addOne, affine, probe Function
}

func loadTestKernels(t testing.TB, ctx *Context) testKernels {
	t.Helper()
	m, err := ctx.ModuleLoadData([]byte(testPTX))
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, ctx.ModuleUnload(m)) })
	var k testKernels
	for name, f := range map[string]*Function{"add_one": &k.addOne, "affine": &k.affine, "probe": &k.probe} {
		*f, err = ctx.ModuleGetFunction(m, name)
		require.NoError(t, err, name)
		require.NotZero(t, *f, name)
	}
	return k
}

// alloc allocates bytes of device memory, freed when the test ends.
func alloc(t testing.TB, ctx *Context, bytes int) DevicePtr {
	t.Helper()
	p, err := ctx.MemAlloc(bytes)
	require.NoError(t, err)
	require.NotZero(t, p)
	t.Cleanup(func() { assert.NoError(t, ctx.MemFree(p)) })
	return p
}

func upload(t testing.TB, ctx *Context, data []int32) DevicePtr {
	t.Helper()
	p := alloc(t, ctx, 4*len(data))
	require.NoError(t, ctx.MemcpyHtoD(p, unsafe.Pointer(&data[0]), 4*len(data)))
	// A copy from pageable memory may return before its DMA is done; wait,
	// so that work on non-blocking streams sees the data.
	require.NoError(t, ctx.StreamSynchronize(0))
	return p
}

func download(t *testing.T, ctx *Context, p DevicePtr, n int) []int32 {
	t.Helper()
	out := make([]int32, n)
	for i := range out {
		out[i] = -0x5a5a5a5a // poison
	}
	require.NoError(t, ctx.MemcpyDtoH(unsafe.Pointer(&out[0]), p, 4*n))
	return out
}

// blocks returns the number of blocks of size threads that cover n items.
func blocks(n, size int) uint32 {
	return uint32((n + size - 1) / size)
}

func TestGPUDevice(t *testing.T) {
	ctx := gpuContext(t)
	d := ctx.Device()

	n, err := DeviceCount()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, n, 1)

	v, err := DriverVersion()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, v, 11000)

	name, err := d.Name()
	require.NoError(t, err)
	assert.NotEmpty(t, name)

	major, minor, err := d.ComputeCapability()
	require.NoError(t, err)
	assert.GreaterOrEqual(t, major*10+minor, 50)

	mem, err := d.TotalMem()
	require.NoError(t, err)
	assert.Greater(t, mem, uint64(1<<30))

	attr := func(a DeviceAttribute) int {
		v, err := d.Attribute(a)
		require.NoError(t, err, "attribute %d", a)
		return v
	}
	assert.Equal(t, 32, attr(AttrWarpSize))
	assert.Equal(t, 1024, attr(AttrMaxThreadsPerBlock))
	assert.Greater(t, attr(AttrMultiprocessorCount), 0)
	assert.GreaterOrEqual(t, attr(AttrMaxSharedMemoryPerBlock), 48<<10)
	assert.GreaterOrEqual(t, attr(AttrMaxSharedMemoryPerBlockOptin), attr(AttrMaxSharedMemoryPerBlock))
	assert.GreaterOrEqual(t, attr(AttrMaxSharedMemoryPerMultiprocessor), attr(AttrMaxSharedMemoryPerBlock))
	assert.GreaterOrEqual(t, attr(AttrMaxThreadsPerMultiprocessor), 1024)
	assert.Greater(t, attr(AttrL2CacheSize), 0)
	assert.Equal(t, major, attr(AttrComputeCapabilityMajor))
	t.Logf("device 0: %s, sm_%d%d, %d SMs, %d GiB, driver for CUDA %d, memory pools %d",
		name, major, minor, attr(AttrMultiprocessorCount), mem>>30, v, attr(AttrMemoryPoolsSupported))

	for _, ordinal := range []int{n, -1} {
		_, err = DeviceGet(ordinal)
		var e *Error
		require.ErrorAs(t, err, &e, "ordinal %d", ordinal)
		assert.Equal(t, ErrorInvalidDevice, e.Code)
	}
}

func TestGPUMemoryRoundTrip(t *testing.T) {
	ctx := gpuContext(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{1, 1000, 1<<20 + 3} {
		src := make([]byte, size)
		for i := range src {
			src[i] = byte(rng.Uint32())
		}
		a, b := alloc(t, ctx, size), alloc(t, ctx, size)
		require.NoError(t, ctx.MemcpyHtoD(a, unsafe.Pointer(&src[0]), size))
		require.NoError(t, ctx.MemcpyDtoD(b, a, size))

		dst := make([]byte, size)
		for i := range dst {
			dst[i] = ^src[i] // every byte differs from the expected one
		}
		require.NoError(t, ctx.MemcpyDtoH(unsafe.Pointer(&dst[0]), b, size))
		assert.True(t, bytes.Equal(src, dst), "size %d: round trip differs", size)

		require.NoError(t, ctx.MemsetD8(b, 0xa7, size))
		require.NoError(t, ctx.MemcpyDtoH(unsafe.Pointer(&dst[0]), b, size))
		assert.True(t, bytes.Equal(bytes.Repeat([]byte{0xa7}, size), dst), "size %d: memset", size)
	}

	free, total, err := ctx.MemGetInfo()
	require.NoError(t, err)
	assert.Greater(t, total, uint64(0))
	assert.LessOrEqual(t, free, total)
}

func TestGPUMemAllocErrors(t *testing.T) {
	ctx := gpuContext(t)

	_, err := ctx.MemAlloc(1 << 50)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, ErrorOutOfMemory, e.Code)
	assert.Equal(t, "cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY (2): out of memory", err.Error())

	_, err = ctx.MemAlloc(-1)
	require.ErrorAs(t, err, &e)
	assert.Equal(t, ErrorInvalidValue, e.Code)
}

func TestGPUMemAllocAsync(t *testing.T) {
	ctx := gpuContext(t)
	if pools, err := ctx.Device().Attribute(AttrMemoryPoolsSupported); err != nil || pools == 0 {
		t.Skipf("device has no memory pools (%v)", err)
	}
	s, err := ctx.StreamCreate(true)
	require.NoError(t, err)
	defer func() { assert.NoError(t, ctx.StreamDestroy(s)) }()

	const n = 100_000
	want := make([]int32, n)
	for i := range want {
		want[i] = int32(i*7 - 3)
	}
	src := upload(t, ctx, want)
	p, err := ctx.MemAllocAsync(4*n, s)
	require.NoError(t, err)
	require.NotZero(t, p)
	require.NoError(t, ctx.MemcpyDtoDAsync(p, src, 4*n, s))
	require.NoError(t, ctx.StreamSynchronize(s))
	assert.Equal(t, want, download(t, ctx, p, n))
	require.NoError(t, ctx.MemFreeAsync(p, s))
	require.NoError(t, ctx.StreamSynchronize(s))
}

func TestGPUMemPool(t *testing.T) {
	ctx := gpuContext(t)
	if pools, err := ctx.Device().Attribute(AttrMemoryPoolsSupported); err != nil || pools == 0 {
		t.Skipf("device has no memory pools (%v)", err)
	}
	pool, err := ctx.MemPoolCreate(64 << 20)
	require.NoError(t, err)
	require.NotZero(t, pool)
	s, err := ctx.StreamCreate(false)
	require.NoError(t, err)
	defer func() { assert.NoError(t, ctx.StreamDestroy(s)) }()

	const n = 50_000
	want := make([]int32, n)
	for i := range want {
		want[i] = int32(i*13 + 5)
	}
	src := upload(t, ctx, want)
	// Allocate, use and free repeatedly; every round must see its own data.
	for round := 0; round < 3; round++ {
		p, err := ctx.MemAllocFromPoolAsync(4*n, pool, s)
		require.NoError(t, err)
		require.NotZero(t, p)
		require.NoError(t, ctx.MemsetD8(p, 0xAB, 4*n))
		require.NoError(t, ctx.MemcpyDtoDAsync(p, src, 4*n, s))
		require.NoError(t, ctx.StreamSynchronize(s))
		assert.Equal(t, want, download(t, ctx, p, n))
		require.NoError(t, ctx.MemFreeAsync(p, s))
	}
	require.NoError(t, ctx.StreamSynchronize(s))
	require.NoError(t, ctx.MemPoolDestroy(pool))

	_, err = ctx.MemAllocFromPoolAsync(-1, pool, s)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, ErrorInvalidValue, e.Code)
}

func TestGPUStreamsAndEvents(t *testing.T) {
	ctx := gpuContext(t)
	const size = 64 << 20
	a, b := alloc(t, ctx, size), alloc(t, ctx, size)
	require.NoError(t, ctx.MemsetD8(a, 1, size))
	require.NoError(t, ctx.StreamSynchronize(0))

	for _, nonBlocking := range []bool{false, true} {
		s, err := ctx.StreamCreate(nonBlocking)
		require.NoError(t, err)
		require.NotZero(t, s)
		start, err := ctx.EventCreate()
		require.NoError(t, err)
		end, err := ctx.EventCreate()
		require.NoError(t, err)

		require.NoError(t, ctx.EventRecord(start, s))
		require.NoError(t, ctx.MemcpyDtoDAsync(b, a, size, s))
		require.NoError(t, ctx.EventRecord(end, s))
		require.NoError(t, ctx.EventSynchronize(end))
		elapsed, err := ctx.EventElapsed(start, end)
		require.NoError(t, err)
		assert.Greater(t, elapsed, time.Duration(0))
		assert.Less(t, elapsed, 10*time.Second)
		t.Logf("nonBlocking=%v: 64 MiB device copy took %v", nonBlocking, elapsed)

		require.NoError(t, ctx.StreamSynchronize(s))
		require.NoError(t, ctx.EventDestroy(start))
		require.NoError(t, ctx.EventDestroy(end))
		require.NoError(t, ctx.StreamDestroy(s))
	}
	require.NoError(t, ctx.StreamSynchronize(0), "the default stream")
}

func TestGPULaunch(t *testing.T) {
	ctx := gpuContext(t)
	k := loadTestKernels(t, ctx)
	const n, block = 1000, 256

	in := make([]int32, n)
	for i := range in {
		in[i] = int32(i - 500)
	}
	p := upload(t, ctx, in)

	var args Args
	args.Ptr(p)
	args.Uint32(n)
	require.NoError(t, ctx.LaunchKernel(k.addOne, Dim3{X: blocks(n, block)}, Dim3{X: block}, 0, 0, &args))

	args.Reset()
	args.Uint32(n)
	args.Ptr(p) // at offset 8, after 4 bytes of padding
	args.Int32(3)
	args.Int32(-7)
	require.Equal(t, 24, args.Len())
	s, err := ctx.StreamCreate(false)
	require.NoError(t, err)
	defer func() { assert.NoError(t, ctx.StreamDestroy(s)) }()
	require.NoError(t, ctx.LaunchKernel(k.affine, Dim3{X: blocks(n, block)}, Dim3{X: block}, 0, s, &args))
	require.NoError(t, ctx.StreamSynchronize(s))

	got := download(t, ctx, p, n)
	for i, v := range in {
		require.Equal(t, (v+1)*3-7, got[i], "item %d", i)
	}

	blocksPerSM, err := ctx.OccupancyMaxActiveBlocksPerMultiprocessor(k.addOne, block, 0)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, blocksPerSM, 1)
}

// TestGPULaunchProbe checks every kind of Args parameter against what a
// kernel reads.
func TestGPULaunchProbe(t *testing.T) {
	ctx := gpuContext(t)
	k := loadTestKernels(t, ctx)
	out := alloc(t, ctx, 7*8)
	require.NoError(t, ctx.MemsetD8(out, 0xff, 7*8))

	args, want := probeArgs(out)
	require.NoError(t, ctx.LaunchKernel(k.probe, Dim3{X: 1}, Dim3{X: 1}, 0, 0, args))
	require.NoError(t, ctx.StreamSynchronize(0))

	var got [7]int64
	require.NoError(t, ctx.MemcpyDtoH(unsafe.Pointer(&got[0]), out, 7*8))
	assert.Equal(t, want, got)
}

func TestGPULaunchDoesNotAllocate(t *testing.T) {
	ctx := gpuContext(t)
	k := loadTestKernels(t, ctx)
	const n = 4096
	start := pattern(n, 11)
	p := upload(t, ctx, start)

	var err error
	allocs := testing.AllocsPerRun(100, func() {
		var args Args
		args.Ptr(p)
		args.Uint32(n)
		err = ctx.LaunchKernel(k.addOne, Dim3{X: n / 256}, Dim3{X: 256}, 0, 0, &args)
	})
	require.NoError(t, err)
	assert.Zero(t, allocs)
	require.NoError(t, ctx.StreamSynchronize(0))
	for i, v := range download(t, ctx, p, n) {
		require.Equal(t, start[i]+101, v, "item %d: AllocsPerRun runs once more than asked", i)
	}
}

func TestGPUModuleErrors(t *testing.T) {
	ctx := gpuContext(t)
	var e *Error

	badPTX := ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry broken() { bogus.instruction; }\n"
	_, err := ctx.ModuleLoadData([]byte(badPTX))
	require.ErrorAs(t, err, &e)
	assert.Equal(t, ErrorInvalidPtx, e.Code)
	assert.Contains(t, err.Error(), "CUDA_ERROR_INVALID_PTX")
	assert.Contains(t, err.Error(), "JIT error log")
	t.Log(err)

	// Not a malformed cubin: cuModuleLoadData takes no length, so the driver
	// could read past a truncated ELF image.
	garbage := bytes.Repeat([]byte("this is no module at all\n"), 100)
	_, err = ctx.ModuleLoadData(garbage)
	require.ErrorAs(t, err, &e)
	assert.Contains(t, []Result{ErrorInvalidImage, ErrorInvalidPtx}, e.Code)
	t.Log(err)

	_, err = ctx.ModuleLoadData(nil)
	require.ErrorAs(t, err, &e)
	assert.Equal(t, ErrorInvalidValue, e.Code)

	m, err := ctx.ModuleLoadData([]byte(testPTX + "\x00"))
	require.NoError(t, err, "PTX that already ends in NUL")
	defer func() { assert.NoError(t, ctx.ModuleUnload(m)) }()
	_, err = ctx.ModuleGetFunction(m, "no_such_kernel")
	require.ErrorAs(t, err, &e)
	assert.Equal(t, ErrorNotFound, e.Code)
	assert.Contains(t, err.Error(), "no_such_kernel")
}

func TestGPUUseAfterRelease(t *testing.T) {
	gpuContext(t) // keeps the primary context alive for the other tests
	d, err := DeviceGet(0)
	require.NoError(t, err)
	ctx, err := PrimaryContext(d)
	require.NoError(t, err)
	require.NoError(t, ctx.Release())

	assert.Equal(t, d, ctx.Device())
	_, errAlloc := ctx.MemAlloc(16)
	_, _, errInfo := ctx.MemGetInfo()
	_, errStream := ctx.StreamCreate(false)
	_, errModule := ctx.ModuleLoadData([]byte(testPTX))
	errLaunch := ctx.LaunchKernel(1, Dim3{X: 1}, Dim3{X: 1}, 0, 0, nil)
	errRelease := ctx.Release()
	for _, err := range []error{errAlloc, errInfo, errStream, errModule, errLaunch, errRelease} {
		var e *Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, ErrorInvalidContext, e.Code)
		assert.Contains(t, err.Error(), "after Release")
	}
}

// TestGPUConcurrentLaunches launches from many goroutines on one Context,
// half of them on the default stream and half on streams of their own. The
// goroutines yield between calls, so their cgo calls move between OS threads.
func TestGPUConcurrentLaunches(t *testing.T) {
	ctx := gpuContext(t)
	k := loadTestKernels(t, ctx)
	const goroutines, launches, n, block = 8, 50, 10_000, 128

	bufs := make([]DevicePtr, goroutines)
	starts := make([][]int32, goroutines)
	for g := range bufs {
		starts[g] = pattern(n, g+1)
		bufs[g] = upload(t, ctx, starts[g])
	}
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			var s Stream
			if g%2 == 1 {
				var err error
				if s, err = ctx.StreamCreate(true); !assert.NoError(t, err) {
					return
				}
				defer func() { assert.NoError(t, ctx.StreamDestroy(s)) }()
			}
			var args Args
			for range launches {
				args.Reset()
				args.Ptr(bufs[g])
				args.Uint32(n)
				if !assert.NoError(t, ctx.LaunchKernel(k.addOne, Dim3{X: blocks(n, block)}, Dim3{X: block}, 0, s, &args)) {
					return
				}
				runtime.Gosched()
			}
			assert.NoError(t, ctx.StreamSynchronize(s))
		})
	}
	wg.Wait()
	require.NoError(t, ctx.StreamSynchronize(0))
	for g, p := range bufs {
		got := download(t, ctx, p, n)
		for i, v := range got {
			require.Equal(t, starts[g][i]+launches, v, "goroutine %d, item %d", g, i)
		}
	}
}

// pattern returns n distinct nonzero values that differ with seed, so that
// an element a kernel never touched cannot pass for a result.
func pattern(n, seed int) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i*seed*7919 + seed*104729 - 3)
	}
	return p
}
