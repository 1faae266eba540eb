"""The group-by job of examples/groupby in CuPy and in PyTorch, end to end.

Rows of int64 keys in [0, groups) and float64 values (multiples of 1/8, so
every sum is exact) sit in pinned host memory; chunks go up on two
non-blocking streams, each chunk is grouped (unique with inverse indices, then
a weighted bincount / index_add_), the partial groups are grouped once more,
and the result comes back to the host. Each library's idiomatic group-by;
both sort the full 64-bit keys inside unique. Prints bench rows
(bench/README.md) and checks both against NumPy's total and each other.

    python3 groupby.py [--rows N] [--chunk N] [--groups N] [--runs N]
"""

import argparse
import sys
import time

import numpy as np


def chunks(rows, chunk):
    return [(lo, min(lo + chunk, rows)) for lo in range(0, rows, chunk)]


def run_cupy(keys, vals, chunk, runs):
    import cupy as cp

    n = len(keys)
    hk = np.frombuffer(cp.cuda.alloc_pinned_memory(keys.nbytes), np.int64, n)
    hv = np.frombuffer(cp.cuda.alloc_pinned_memory(vals.nbytes), np.float64, n)
    hk[:] = keys
    hv[:] = vals
    streams = [cp.cuda.Stream(non_blocking=True) for _ in range(2)]
    best = None
    for _ in range(runs):
        cp.cuda.Device().synchronize()
        t = time.perf_counter()
        parts = []
        for i, (lo, hi) in enumerate(chunks(n, chunk)):
            s = streams[i % 2]
            with s:
                kd = cp.empty(hi - lo, cp.int64)
                vd = cp.empty(hi - lo, cp.float64)
                kd.set(hk[lo:hi], stream=s)
                vd.set(hv[lo:hi], stream=s)
                u, inv = cp.unique(kd, return_inverse=True)
                parts.append((u, cp.bincount(inv.ravel(), weights=vd, minlength=len(u))))
        for s in streams:
            s.synchronize()
        u, inv = cp.unique(cp.concatenate([p[0] for p in parts]), return_inverse=True)
        sums = cp.bincount(inv.ravel(), weights=cp.concatenate([p[1] for p in parts]), minlength=len(u))
        out = (cp.asnumpy(u), cp.asnumpy(sums))
        el = time.perf_counter() - t
        best = el if best is None else min(best, el)
    return best, out


def run_torch(keys, vals, chunk, runs):
    import torch

    n = len(keys)
    hk = torch.from_numpy(keys).pin_memory()
    hv = torch.from_numpy(vals).pin_memory()
    dev = torch.device("cuda")
    streams = [torch.cuda.Stream() for _ in range(2)]
    best = None
    for _ in range(runs):
        torch.cuda.synchronize()
        t = time.perf_counter()
        parts = []
        for i, (lo, hi) in enumerate(chunks(n, chunk)):
            with torch.cuda.stream(streams[i % 2]):
                kd = hk[lo:hi].to(dev, non_blocking=True)
                vd = hv[lo:hi].to(dev, non_blocking=True)
                u, inv = torch.unique(kd, sorted=True, return_inverse=True)
                parts.append((u, torch.zeros(len(u), dtype=torch.float64, device=dev).index_add_(0, inv, vd)))
        torch.cuda.synchronize()
        u, inv = torch.unique(torch.cat([p[0] for p in parts]), sorted=True, return_inverse=True)
        sums = torch.zeros(len(u), dtype=torch.float64, device=dev).index_add_(0, inv, torch.cat([p[1] for p in parts]))
        out = (u.cpu().numpy(), sums.cpu().numpy())
        el = time.perf_counter() - t
        best = el if best is None else min(best, el)
    return best, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1 << 28)
    ap.add_argument("--chunk", type=int, default=1 << 24)
    ap.add_argument("--groups", type=int, default=1 << 20)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    rng = np.random.default_rng()
    keys = rng.integers(0, a.groups, a.rows, dtype=np.int64)
    vals = rng.integers(-1000, 1001, a.rows).astype(np.float64) / 8
    total = vals.sum()
    results = {}
    for name, f in (("cupy", run_cupy), ("torch", run_torch)):
        try:
            el, (u, s) = f(keys, vals, a.chunk, a.runs)
        except Exception as e:  # a missing library is a skipped row
            print(f"{name}\tgroupby_e2e\tint64\t{a.rows}\t-\t{a.rows * 16}\tskipped: {e}")
            continue
        ok = bool(np.all(u[1:] > u[:-1])) and s.sum() == total
        results[name] = (u, s)
        print(f"{name}\tgroupby_e2e\tint64\t{a.rows}\t{el * 1e6:.0f}\t{a.rows * 16}\t{len(u)} groups, best of {a.runs}{'' if ok else ' FAILED: check'}")
        sys.stdout.flush()
    if len(results) == 2:
        (u1, s1), (u2, s2) = results.values()
        same = np.array_equal(u1, u2) and np.array_equal(s1, s2)
        print(f"# cupy and torch results {'equal' if same else 'DIFFER'}")


if __name__ == "__main__":
    main()
