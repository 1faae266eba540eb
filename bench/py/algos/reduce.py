"""reduce: the sum of all items in the input's own type (integers wrap), as
cub::DeviceReduce::Sum: CuPy sum, PyTorch sum, cuda.compute reduce_into
with OpKind.PLUS (no Python operator, so no numba needed)."""

import time

import bench

def expected(ctx, x):
    """The exact (integer, wrapping) or float64 sum of x, and a magnitude."""
    cp = ctx.cupy()
    if x.dtype.kind == "f":
        s = float(cp.sum(x, dtype=cp.float64))
        return s, float(cp.sum(cp.abs(x), dtype=cp.float64))
    bits = 8 * x.dtype.itemsize
    s = int(cp.sum(x.view(cp.uint32 if bits == 32 else cp.uint64), dtype=cp.uint64)) % (1 << bits)
    return s, 0.0


def check_value(x, got, want_mag):
    want, mag = want_mag
    if x.dtype.kind == "f":
        tol = 1e-5 if x.dtype.itemsize == 4 else 1e-12
        if not abs(float(got) - want) <= tol * mag:
            raise bench.CheckFailed(f"got {float(got)!r}, want {want!r}")
        return
    bits = 8 * x.dtype.itemsize
    if int(got) % (1 << bits) != want:
        raise bench.CheckFailed(f"got {int(got) % (1 << bits)}, want {want}")


def _cupy(ctx, dtype, n):
    cp = ctx.cupy()
    bufs = ctx.inputs(dtype, n)
    out = cp.empty((), dtype=bufs[0].dtype)
    ref = expected(ctx, bufs[0])

    def check():
        check_value(bufs[0], out.get(), ref)

    return bench.Prepared(lambda i: cp.sum(bufs[i % len(bufs)], dtype=out.dtype, out=out), check,
                          bufs[0].nbytes + out.nbytes, poison=lambda: out.fill(bench.poison_value(dtype)),
                          note="cupy.sum(dtype=input's, out=)")


def _torch(ctx, dtype, n):
    torch = ctx.torch()
    cbufs = ctx.inputs(dtype, n)
    bufs = [ctx.torch_view(b) for b in cbufs]
    ref = expected(ctx, cbufs[0])
    res = [None]

    def run(i):
        res[0] = torch.sum(bufs[i % len(bufs)], dtype=bufs[0].dtype)

    def check():
        check_value(cbufs[0], res[0].item(), ref)

    return bench.Prepared(run, check, cbufs[0].nbytes + cbufs[0].itemsize, timer="torch",
                          note="torch.sum(dtype=input's); a new 0-d result per call")


def _compute(ctx, dtype, n):
    cc = ctx.compute()
    cp = ctx.cupy()
    import numpy as np
    bufs = ctx.inputs(dtype, n)
    out = cp.empty(1, dtype=bufs[0].dtype)
    h_init = np.zeros(1, dtype=bufs[0].dtype)
    op = cc.OpKind.PLUS
    first = None
    new, earlier = bench.first_time(("cuda.compute", "reduce", dtype))
    t0 = time.perf_counter()
    reducer = cc.make_reduce_into(d_in=bufs[0], d_out=out, op=op, h_init=h_init)
    nbytes = reducer(temp_storage=None, d_in=bufs[0], d_out=out, num_items=n, op=op, h_init=h_init)
    temp = cp.empty(max(int(nbytes), 1), dtype=cp.uint8)
    if new:
        reducer(temp_storage=temp, d_in=bufs[0], d_out=out, num_items=n, op=op, h_init=h_init)
        cp.cuda.Device().synchronize()
        first = 1e6 * (time.perf_counter() - t0)
    ref = expected(ctx, bufs[0])

    def run(i):
        reducer(temp_storage=temp, d_in=bufs[i % len(bufs)], d_out=out, num_items=n, op=op, h_init=h_init)

    def check():
        check_value(bufs[0], out.get()[0], ref)

    return bench.Prepared(run, check, bufs[0].nbytes + out.nbytes, poison=lambda: out.view(cp.uint8).fill(0xAB),
                          note="make_reduce_into(OpKind.PLUS) object, temp storage allocated once",
                          first_call_us=first,
                          first_call_note=f"wall clock: make_reduce_into + first call, JIT compile included; "
                                          f"{earlier} cuda.compute builds earlier in this process")


def register(reg):
    reg.add("cupy", "reduce", _cupy)
    reg.add("torch", "reduce", _torch)
    reg.add("cuda.compute", "reduce", _compute)
