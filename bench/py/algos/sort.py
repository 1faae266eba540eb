"""sort_keys: ascending sort of the keys into another buffer, as
cub::DeviceRadixSort::SortKeys (CuPy sort, PyTorch sort, cuda.compute
radix_sort). sort_pairs: keys with uint32 values (cuda.compute radix_sort
with values; PyTorch sort, whose values are int64 indices; CuPy argsort and
take). Bytes are those of CUB's pairs: 2 n (sizeof key + 4)."""

import time

import bench


def check_sorted(ctx, x, y):
    """y must be ascending and hold x's items (checked through sums)."""
    cp = ctx.cupy()
    if y.size > 1 and not bool(cp.all(y[1:] >= y[:-1])):
        raise bench.CheckFailed("output is not ascending")
    if x.dtype.kind == "f":
        a, b = float(cp.sum(x, dtype=cp.float64)), float(cp.sum(y, dtype=cp.float64))
        if abs(a - b) > 1e-9 * max(abs(a), 1.0):
            raise bench.CheckFailed("output is not a permutation of the input (sums differ)")
    else:
        u = cp.uint32 if x.dtype.itemsize == 4 else cp.uint64
        if int(cp.sum(x.view(u), dtype=cp.uint64)) != int(cp.sum(y.view(u), dtype=cp.uint64)):
            raise bench.CheckFailed("output is not a permutation of the input (sums differ)")


def check_pairs(ctx, x, keys, idx):
    """keys sorted and keys[i] == x[idx[i]]."""
    cp = ctx.cupy()
    check_sorted(ctx, x, keys)
    if not bool(cp.array_equal(x[idx.astype(cp.int64)], keys)):
        raise bench.CheckFailed("values do not follow their keys")


def pair_bytes(x):
    return 2 * x.size * (x.itemsize + 4)


def _cupy_keys(ctx, dtype, n):
    cp = ctx.cupy()
    bufs = ctx.inputs(dtype, n)
    res = [None]

    def run(i):
        res[0] = cp.sort(bufs[i % len(bufs)])

    return bench.Prepared(run, lambda: check_sorted(ctx, bufs[0], res[0]), 2 * bufs[0].nbytes,
                          note="cupy.sort (a new output per call)")


def _torch_keys(ctx, dtype, n):
    torch = ctx.torch()
    cbufs = ctx.inputs(dtype, n)
    bufs = [ctx.torch_view(b) for b in cbufs]
    res = [None]

    def run(i):
        res[0] = torch.sort(bufs[i % len(bufs)]).values

    def check():
        check_sorted(ctx, cbufs[0], ctx.cupy().from_dlpack(res[0]))

    return bench.Prepared(run, check, 2 * cbufs[0].nbytes, timer="torch",
                          note="torch.sort(...).values (indices computed too; a new output per call)")


def _cupy_pairs(ctx, dtype, n):
    cp = ctx.cupy()
    bufs = ctx.inputs(dtype, n)
    res = [None, None]

    def run(i):
        x = bufs[i % len(bufs)]
        idx = cp.argsort(x)
        res[0], res[1] = cp.take(x, idx), idx

    return bench.Prepared(run, lambda: check_pairs(ctx, bufs[0], res[0], res[1]), pair_bytes(bufs[0]),
                          note="cupy.argsort + take (int64 indices as values)")


def _torch_pairs(ctx, dtype, n):
    torch = ctx.torch()
    cbufs = ctx.inputs(dtype, n)
    bufs = [ctx.torch_view(b) for b in cbufs]
    res = [None]

    def run(i):
        res[0] = torch.sort(bufs[i % len(bufs)])

    def check():
        cp = ctx.cupy()
        check_pairs(ctx, cbufs[0], cp.from_dlpack(res[0].values), cp.from_dlpack(res[0].indices))

    return bench.Prepared(run, check, pair_bytes(cbufs[0]), timer="torch",
                          note="torch.sort (values: int64 indices)")


def _compute(pairs):
    def setup(ctx, dtype, n):
        cc = ctx.compute()
        cp = ctx.cupy()
        bufs = ctx.inputs(dtype, n)
        keys = cp.empty_like(bufs[0])
        vals_in = cp.arange(n, dtype=cp.uint32) if pairs else None
        vals = cp.empty(n, dtype=cp.uint32) if pairs else None
        alg = "sort_pairs" if pairs else "sort_keys"
        new, earlier = bench.first_time(("cuda.compute", alg, dtype))
        t0 = time.perf_counter()
        sorter = cc.make_radix_sort(d_in_keys=bufs[0], d_out_keys=keys, d_in_values=vals_in, d_out_values=vals,
                                    order=cc.SortOrder.ASCENDING)
        nbytes = sorter(temp_storage=None, d_in_keys=bufs[0], d_out_keys=keys, d_in_values=vals_in,
                        d_out_values=vals, num_items=n)
        temp = cp.empty(max(int(nbytes), 1), dtype=cp.uint8)

        def run(i):
            sorter(temp_storage=temp, d_in_keys=bufs[i % len(bufs)], d_out_keys=keys, d_in_values=vals_in,
                   d_out_values=vals, num_items=n)

        first = None
        if new:
            run(0)
            cp.cuda.Device().synchronize()
            first = 1e6 * (time.perf_counter() - t0)

        def poison():
            keys.view(cp.uint8).fill(0xAB)
            if pairs:
                vals.view(cp.uint8).fill(0xAB)

        def check():
            if pairs:
                check_pairs(ctx, bufs[0], keys, vals)
            else:
                check_sorted(ctx, bufs[0], keys)

        return bench.Prepared(run, check, pair_bytes(bufs[0]) if pairs else 2 * bufs[0].nbytes, poison=poison,
                              note="make_radix_sort object, temp storage allocated once"
                                   + (", uint32 values" if pairs else ""),
                              first_call_us=first,
                              first_call_note=f"wall clock: make_radix_sort + first call, JIT compile included; "
                                              f"{earlier} cuda.compute builds earlier in this process")
    return setup


def register(reg):
    reg.add("cupy", "sort_keys", _cupy_keys)
    reg.add("torch", "sort_keys", _torch_keys)
    reg.add("cuda.compute", "sort_keys", _compute(False))
    reg.add("cupy", "sort_pairs", _cupy_pairs)
    reg.add("torch", "sort_pairs", _torch_pairs)
    reg.add("cuda.compute", "sort_pairs", _compute(True))
