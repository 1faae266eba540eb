"""scan: the inclusive prefix sum in the input's own type (integers wrap),
as cub::DeviceScan::InclusiveSum: CuPy cumsum, PyTorch cumsum, cuda.compute
inclusive_scan with OpKind.PLUS."""

import time

import bench


def reference(ctx, x):
    """Exact wrapping prefix sums for integers, float64 ones for floats."""
    cp = ctx.cupy()
    if x.dtype.kind == "f":
        return cp.cumsum(x, dtype=cp.float64)
    u = cp.uint32 if x.dtype.itemsize == 4 else cp.uint64
    return cp.cumsum(x.view(u), dtype=cp.uint64).astype(u).view(x.dtype)


def check_scan(ctx, x, got, ref):
    cp = ctx.cupy()
    if x.dtype.kind == "f":
        tol = 1e-3 if x.dtype.itemsize == 4 else 1e-9
        err = float(cp.max(cp.abs(got.astype(cp.float64) - ref))) / max(float(ref[-1]), 1e-30)
        if not err <= tol:
            raise bench.CheckFailed(f"largest error {err:.3g} of the total, want <= {tol}")
        return
    bad = int(cp.count_nonzero(got != ref))
    if bad:
        raise bench.CheckFailed(f"{bad} of {x.size} prefix sums differ")


def _cupy(ctx, dtype, n):
    cp = ctx.cupy()
    bufs = ctx.inputs(dtype, n)
    out = cp.empty_like(bufs[0])
    ref = reference(ctx, bufs[0])
    return bench.Prepared(lambda i: cp.cumsum(bufs[i % len(bufs)], dtype=out.dtype, out=out),
                          lambda: check_scan(ctx, bufs[0], out, ref), 2 * bufs[0].nbytes,
                          poison=lambda: out.view(cp.uint8).fill(0xAB), note="cupy.cumsum(dtype=input's, out=)")


def _torch(ctx, dtype, n):
    torch = ctx.torch()
    cbufs = ctx.inputs(dtype, n)
    bufs = [ctx.torch_view(b) for b in cbufs]
    cp = ctx.cupy()
    out_cp = cp.empty_like(cbufs[0])
    out = ctx.torch_view(out_cp)
    ref = reference(ctx, cbufs[0])
    return bench.Prepared(lambda i: torch.cumsum(bufs[i % len(bufs)], 0, dtype=out.dtype, out=out),
                          lambda: check_scan(ctx, cbufs[0], out_cp, ref), 2 * cbufs[0].nbytes, timer="torch",
                          poison=lambda: out_cp.view(cp.uint8).fill(0xAB), note="torch.cumsum(dtype=input's, out=)")


def _compute(ctx, dtype, n):
    cc = ctx.compute()
    cp = ctx.cupy()
    bufs = ctx.inputs(dtype, n)
    out = cp.empty_like(bufs[0])
    op = cc.OpKind.PLUS
    new, earlier = bench.first_time(("cuda.compute", "scan", dtype))
    t0 = time.perf_counter()
    scanner = cc.make_inclusive_scan(d_in=bufs[0], d_out=out, op=op, init_value=None)
    nbytes = scanner(temp_storage=None, d_in=bufs[0], d_out=out, op=op, init_value=None, num_items=n)
    temp = cp.empty(max(int(nbytes), 1), dtype=cp.uint8)
    first = None
    if new:
        scanner(temp_storage=temp, d_in=bufs[0], d_out=out, op=op, init_value=None, num_items=n)
        cp.cuda.Device().synchronize()
        first = 1e6 * (time.perf_counter() - t0)
    ref = reference(ctx, bufs[0])

    def run(i):
        scanner(temp_storage=temp, d_in=bufs[i % len(bufs)], d_out=out, op=op, init_value=None, num_items=n)

    return bench.Prepared(run, lambda: check_scan(ctx, bufs[0], out, ref), 2 * bufs[0].nbytes,
                          poison=lambda: out.view(cp.uint8).fill(0xAB),
                          note="make_inclusive_scan(OpKind.PLUS) object, temp storage allocated once",
                          first_call_us=first,
                          first_call_note=f"wall clock: make_inclusive_scan + first call, JIT compile included; "
                                          f"{earlier} cuda.compute builds earlier in this process")


def register(reg):
    reg.add("cupy", "scan", _cupy)
    reg.add("torch", "scan", _torch)
    reg.add("cuda.compute", "scan", _compute)
