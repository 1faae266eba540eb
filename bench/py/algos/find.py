"""argmin / argmax: the index of the least (greatest) item, ties to the
lowest index, as cub::DeviceReduce::ArgMin / ArgMax (gocccl also returns the
value): CuPy argmin/argmax, PyTorch argmin/argmax. Neither has a FindIf with
a user predicate (cupy.argmax(x == needle) is a full pass plus a mask)."""

import bench


def _check(ctx, x, got, want):
    if int(got) != want:
        raise bench.CheckFailed(f"index {int(got)}, want {want}")


def _make(system, is_max):
    def setup(ctx, dtype, n):
        cp = ctx.cupy()
        bufs = ctx.inputs(dtype, n)
        want = int(cp.argmax(bufs[0]) if is_max else cp.argmin(bufs[0]))
        if system == "cupy":
            out = cp.empty((), dtype=cp.int64)
            f = cp.argmax if is_max else cp.argmin
            return bench.Prepared(lambda i: f(bufs[i % len(bufs)], out=out), lambda: _check(ctx, bufs[0], out.get(), want),
                                  bufs[0].nbytes + 8, poison=lambda: out.fill(-7),
                                  note=f"cupy.{f.__name__}(out=); index only")
        torch = ctx.torch()
        tbufs = [ctx.torch_view(b) for b in bufs]
        res = [None]
        f = torch.argmax if is_max else torch.argmin

        def run(i):
            res[0] = f(tbufs[i % len(tbufs)])

        return bench.Prepared(run, lambda: _check(ctx, bufs[0], res[0].item(), want), bufs[0].nbytes + 8,
                              timer="torch", note=f"torch.{f.__name__}; index only, a new 0-d result per call")
    return setup


def register(reg):
    # PyTorch's argmin/argmax do not take uint32 tensors.
    reg.add("cupy", "argmin", _make("cupy", False), types=["uint32", "float32", "float64"])
    reg.add("cupy", "argmax", _make("cupy", True), types=["uint32", "float32"])
    reg.add("torch", "argmin", _make("torch", False), types=["float32", "float64"])
    reg.add("torch", "argmax", _make("torch", True), types=["float32"])
