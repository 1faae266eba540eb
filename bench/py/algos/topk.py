"""topk_16, topk_1024, topk_65536: the k largest of n keys, unsorted, as
runtime.TopKKeys (bench/gpubench/topk.go): PyTorch topk(sorted=False), float32
only (torch.topk takes no uint32 tensors), and CuPy partition (the k largest
are the last k after partitioning at n - k; a new output per call). CUB 3.0
has no DeviceTopK: bench/cub/topk.cu times a full descending radix sort.
Bytes: n 4 + k 4, as gocccl's rows."""

import bench

KS = (16, 1024, 65536)


def _check(ctx, x, got, k):
    """got must hold the k largest of x (as multisets)."""
    cp = ctx.cupy()
    want = cp.sort(x)[x.size - k:]
    if not bool(cp.array_equal(cp.sort(got), want)):
        raise bench.CheckFailed(f"not the {k} largest")


def _torch(k):
    def setup(ctx, dtype, n):
        if k > n:
            raise bench.Skip(f"k = {k} > n")
        torch = ctx.torch()
        bufs = ctx.inputs(dtype, n)
        tbufs = [ctx.torch_view(b) for b in bufs]
        res = [None]

        def run(i):
            res[0] = torch.topk(tbufs[i % len(tbufs)], k, largest=True, sorted=False)

        def check():
            cp = ctx.cupy()
            _check(ctx, bufs[0], cp.from_dlpack(res[0].values.contiguous()), k)

        return bench.Prepared(run, check, 4 * (n + k), timer="torch",
                              note="torch.topk(largest=True, sorted=False); values and int64 indices, new per call")
    return setup


def _cupy(k):
    def setup(ctx, dtype, n):
        if k > n:
            raise bench.Skip(f"k = {k} > n")
        cp = ctx.cupy()
        bufs = ctx.inputs(dtype, n)
        res = [None]

        def run(i):
            res[0] = cp.partition(bufs[i % len(bufs)], n - k)[n - k:]

        return bench.Prepared(run, lambda: _check(ctx, bufs[0], res[0], k), 4 * (n + k),
                              note="cupy.partition(x, n - k)[n - k:] (a new output per call)")
    return setup


def register(reg):
    for k in KS:
        reg.add("torch", f"topk_{k}", _torch(k), types=["float32"])
        reg.add("cupy", f"topk_{k}", _cupy(k), types=["uint32", "float32"])
