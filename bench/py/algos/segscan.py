"""segmented_scan_fixed: inclusive prefix sums of every 1024-item segment,
as gocccl's SegmentedInclusiveScan.RunFixed: CuPy and PyTorch cumsum along
the rows of an (n / 1024, 1024) view (the form fixed-size segments take
there; neither has a scan over offsets)."""

import bench

SEGMENT = 1024


def _reference(ctx, x):
    cp = ctx.cupy()
    rows = x.reshape(-1, SEGMENT)
    if x.dtype.kind == "f":
        return cp.cumsum(rows, axis=1, dtype=cp.float64)
    return cp.cumsum(rows.view(cp.uint32), axis=1, dtype=cp.uint64).astype(cp.uint32).view(x.dtype)


def _check(ctx, x, got, ref):
    cp = ctx.cupy()
    got = got.reshape(-1, SEGMENT)
    if x.dtype.kind == "f":
        err = float(cp.max(cp.abs(got.astype(cp.float64) - ref) / (ref[:, -1:] + 1e-30)))
        if not err <= 1e-4:
            raise bench.CheckFailed(f"largest error {err:.3g} of a segment's total")
        return
    bad = int(cp.count_nonzero(got != ref))
    if bad:
        raise bench.CheckFailed(f"{bad} of {x.size} prefix sums differ")


def _make(system):
    def setup(ctx, dtype, n):
        if n % SEGMENT:
            raise bench.Skip(f"n = {n} is not a multiple of {SEGMENT}")
        cp = ctx.cupy()
        bufs = ctx.inputs(dtype, n)
        out = cp.empty_like(bufs[0])
        ref = _reference(ctx, bufs[0])
        rows = [b.reshape(-1, SEGMENT) for b in bufs]
        poison = lambda: out.view(cp.uint8).fill(0xAB)  # noqa: E731
        if system == "cupy":
            o = out.reshape(-1, SEGMENT)
            return bench.Prepared(lambda i: cp.cumsum(rows[i % len(rows)], axis=1, dtype=out.dtype, out=o),
                                  lambda: _check(ctx, bufs[0], out, ref), 2 * bufs[0].nbytes, poison=poison,
                                  note="cupy.cumsum(axis=1, out=) over (n/1024, 1024)")
        torch = ctx.torch()
        trows = [ctx.torch_view(r) for r in rows]
        to = ctx.torch_view(out.reshape(-1, SEGMENT))
        return bench.Prepared(lambda i: torch.cumsum(trows[i % len(trows)], 1, dtype=to.dtype, out=to),
                              lambda: _check(ctx, bufs[0], out, ref), 2 * bufs[0].nbytes, timer="torch",
                              poison=poison, note="torch.cumsum(dim=1, out=) over (n/1024, 1024)")
    return setup


def register(reg):
    reg.add("cupy", "segmented_scan_fixed", _make("cupy"), types=["uint32", "float32"])
    # PyTorch's cumsum does not take uint32 tensors.
    reg.add("torch", "segmented_scan_fixed", _make("torch"), types=["float32"])
