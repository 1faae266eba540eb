"""copy: device-to-device copy of one input (the bandwidth ceiling;
bytes read + written) through CuPy and PyTorch."""

import bench


def _cupy(ctx, dtype, n):
    cp = ctx.cupy()
    bufs = ctx.inputs(dtype, n)
    out = cp.empty_like(bufs[0])

    def check():
        if not bool(cp.array_equal(out, bufs[0])):
            raise bench.CheckFailed("copy differs from its source")

    return bench.Prepared(lambda i: cp.copyto(out, bufs[i % len(bufs)]), check, 2 * bufs[0].nbytes,
                          poison=lambda: out.view(cp.uint8).fill(0xAB), note="cupy.copyto")


def _torch(ctx, dtype, n):
    bufs = [ctx.torch_view(b) for b in ctx.inputs(dtype, n)]
    cp = ctx.cupy()
    out_cp = cp.empty_like(ctx.inputs(dtype, n)[0])
    out = ctx.torch_view(out_cp)

    def check():
        if not bool(cp.array_equal(out_cp, ctx.inputs(dtype, n)[0])):
            raise bench.CheckFailed("copy differs from its source")

    return bench.Prepared(lambda i: out.copy_(bufs[i % len(bufs)]), check, 2 * out_cp.nbytes, timer="torch",
                          poison=lambda: out_cp.view(cp.uint8).fill(0xAB), note="Tensor.copy_")


def register(reg):
    reg.add("cupy", "copy", _cupy)
    reg.add("torch", "copy", _torch)
