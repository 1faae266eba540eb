#!/usr/bin/env python3
"""Times CuPy, PyTorch and cuda.compute (NVIDIA's cuda-cccl package) on the
operations they share with gocccl, and prints one TSV row per measurement:

    system  algorithm  type  n  median_us  bytes_moved  [note]

the format of bench/cub and bench/gpubench, which bench/report reads.
median_us is "-" for a skipped case; the note says why (a missing package,
an operation a library lacks, a failed check). Nothing here crashes the run:
every case runs inside its own try block.

Each algorithm family is a file in bench/py/algos/ with a function
register(reg) that calls reg.add(system, algorithm, setup); see
bench/README.md. Inputs come from CuPy's generator and are shared with
PyTorch through DLPack, so every system sees the same data. As in the C++
and Go benches: inputs rotate over copies that together exceed the L2 several
times, outputs are poisoned before the checked run, the check comes before
timing, and the time is the median of at least 20 CUDA-event-timed runs
after warm-up, all on the legacy default stream.

Usage:
    bench.py [--out FILE] [--sizes 10,16,20,24,28] [--types int32,...]
             [--runs 20] [--only REGEXP] [--budget SECONDS]
    bench.py --env      print "key<TAB>value" lines: package versions
"""

import argparse
import glob
import importlib.util
import math
import os
import re
import sys
import time
import traceback

TYPES = ("int32", "uint32", "float32", "uint64", "float64")
SIZES = (10, 16, 20, 24, 28)
# The algos/*.py files "import bench": when this file runs as a script, that
# must be this module, not a second copy with other exception classes.
if __name__ == "__main__":
    sys.modules.setdefault("bench", sys.modules[__name__])

PACKAGES = ("numpy", "cupy-cuda13x", "cupy-cuda12x", "cupy", "torch", "cuda-cccl", "cuda-bindings",
            "cuda-core", "numba-cuda")


class Skip(Exception):
    """Raised by a setup to skip a case; its message is the reason."""


class CheckFailed(Exception):
    """Raised by a check: the result is wrong."""


class Prepared:
    """A case ready to time.

    run(i) enqueues one run over input copy i; check() verifies the
    outputs of run(0) (raise CheckFailed); timer is "cupy" or "torch"
    (whose events time the run); first_call_us, when set, is the wall
    time of the first call in the process (JIT compile included)."""

    def __init__(self, run, check, bytes_moved, timer="cupy", poison=None, note="", first_call_us=None,
                 first_call_note=""):
        self.run = run
        self.check = check
        self.bytes = int(bytes_moved)
        self.timer = timer
        self.poison = poison
        self.note = note
        self.first_call_us = first_call_us
        self.first_call_note = first_call_note


_first_times = []


def first_time(key):
    """Returns (True, k) the first time key is seen in this process, where k
    counts the keys seen before it; (False, k) afterwards."""
    if key in _first_times:
        return False, _first_times.index(key)
    _first_times.append(key)
    return True, len(_first_times) - 1


def poison_value(dtype):
    """A scalar of dtype whose bytes are all 0xAB."""
    import numpy as np
    dt = np.dtype(dtype)
    return np.frombuffer(b"\xab" * dt.itemsize, dtype=dt)[0]


class Entry:
    def __init__(self, system, algorithm, setup, types):
        self.system, self.algorithm, self.setup, self.types = system, algorithm, setup, types


class Registry:
    """What the algos/*.py files register into."""

    def __init__(self):
        self.entries = []

    def add(self, system, algorithm, setup, types=TYPES):
        """setup(ctx, dtype_name, n) -> Prepared, or raises Skip."""
        self.entries.append(Entry(system, algorithm, setup, types))


class Ctx:
    """Shared helpers: inputs, rotation, packages."""

    def __init__(self, seed, l2_bytes):
        self.seed = seed
        self.l2 = l2_bytes
        self._inputs = {}

    # Packages, imported on first use; an import error becomes a Skip.
    def cupy(self):
        try:
            import cupy
            return cupy
        except Exception as e:  # noqa: BLE001
            raise Skip(f"cupy unavailable: {type(e).__name__}: {e}")

    def torch(self):
        try:
            import torch
            if not torch.cuda.is_available():
                raise Skip("torch sees no CUDA device")
            return torch
        except Skip:
            raise
        except Exception as e:  # noqa: BLE001
            raise Skip(f"torch unavailable: {type(e).__name__}: {e}")

    def compute(self):
        try:
            import cuda.compute as cc
            return cc
        except Exception as e:  # noqa: BLE001
            raise Skip(f"cuda.compute unavailable: {type(e).__name__}: {e}")

    def buffers(self, nbytes):
        """Copies to rotate over: four L2s' worth, at least 2 below that, at most 32."""
        want = 4 * max(self.l2, 1 << 20)
        if nbytes >= want:
            return 1
        return int(min(32, max(2, -(-want // max(nbytes, 1)))))

    def inputs(self, dtype, n, kind="random"):
        """The rotation (a list of CuPy arrays, identical copies) of one input,
        shared by every system of the same (kind, dtype, n). Integers cover
        their whole range, floats lie in [0, 1)."""
        key = (kind, dtype, n)
        if key not in self._inputs:
            self._inputs.clear()
            self.free_pools()
            cp = self.cupy()
            dt = cp.dtype(dtype)
            salt = TYPES.index(dtype) if dtype in TYPES else len(TYPES)
            rs = cp.random.RandomState((self.seed + n * 31 + salt * 7919) % (1 << 32))
            if dt.kind == "f":
                x = rs.random_sample(n, dtype=cp.float64).astype(dt)
            else:
                lo = (rs.random_sample(n, dtype=cp.float64) * 2.0**32).astype(cp.uint32)
                if dt.itemsize == 8:
                    hi = (rs.random_sample(n, dtype=cp.float64) * 2.0**32).astype(cp.uint64)
                    x = ((hi << cp.uint64(32)) | lo.astype(cp.uint64)).view(dt)
                else:
                    x = lo.view(dt)
            bufs = [x] + [x.copy() for _ in range(self.buffers(x.nbytes) - 1)]
            self._inputs[key] = bufs
        return self._inputs[key]

    def torch_view(self, arr):
        """A torch tensor sharing arr's memory (DLPack)."""
        return self.torch().from_dlpack(arr)

    def free_pools(self):
        try:
            import cupy
            cupy.get_default_memory_pool().free_all_blocks()
        except Exception:  # noqa: BLE001
            pass
        if "torch" in sys.modules:
            try:
                sys.modules["torch"].cuda.empty_cache()
            except Exception:  # noqa: BLE001
                pass


def median(xs):
    xs = sorted(xs)
    m = len(xs)
    return xs[m // 2] if m % 2 else 0.5 * (xs[m // 2 - 1] + xs[m // 2])


def time_us(ctx, prep, runs, warmup):
    """Median of runs event-timed prep.run(i) after warmup untimed runs."""
    if prep.timer == "torch":
        torch = ctx.torch()
        for i in range(warmup):
            prep.run(1 + i)
        torch.cuda.synchronize()
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        ms = []
        for i in range(runs):
            start.record()
            prep.run(1 + warmup + i)
            stop.record()
            stop.synchronize()
            ms.append(start.elapsed_time(stop))
    else:
        cp = ctx.cupy()
        for i in range(warmup):
            prep.run(1 + i)
        cp.cuda.Device().synchronize()
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        ms = []
        for i in range(runs):
            start.record()
            prep.run(1 + warmup + i)
            stop.record()
            stop.synchronize()
            ms.append(cp.cuda.get_elapsed_time(start, stop))
    return 1000.0 * median(ms)


def synchronize(ctx):
    if "cupy" in sys.modules:
        sys.modules["cupy"].cuda.Device().synchronize()
    if "torch" in sys.modules:
        try:
            sys.modules["torch"].cuda.synchronize()
        except Exception:  # noqa: BLE001
            pass


class Writer:
    def __init__(self, out):
        self.out = out

    def row(self, system, algorithm, dtype, n, us, nbytes, note=""):
        note = re.sub(r"[\t\r\n]+", " ", str(note)).strip()
        if len(note) > 300:
            note = note[:297] + "..."
        t = "-" if us is None or (isinstance(us, float) and math.isnan(us)) else f"{us:.2f}"
        line = f"{system}\t{algorithm}\t{dtype}\t{n}\t{t}\t{int(nbytes)}"
        if note:
            line += "\t" + note
        print(line, file=self.out, flush=True)


def load_families(reg, folder):
    for path in sorted(glob.glob(os.path.join(folder, "*.py"))):
        name = "gocccl_bench_" + os.path.splitext(os.path.basename(path))[0]
        try:
            spec = importlib.util.spec_from_file_location(name, path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            mod.register(reg)
        except Exception as e:  # noqa: BLE001
            # Still visible in the TSV, as a skipped row of an unknown algorithm.
            reason = f"{os.path.basename(path)} did not load: {type(e).__name__}: {e}"
            reg.add("bench.py", os.path.splitext(os.path.basename(path))[0], _failed_setup(reason), types=TYPES[:1])


def _failed_setup(reason):
    def setup(ctx, dtype, n):
        raise Skip(reason)
    return setup


def run_case(ctx, w, entry, dtype, n, runs, warmup):
    """Runs one case and writes its rows; returns False if its check failed."""
    sysname, alg = entry.system, entry.algorithm
    prep = None
    try:
        prep = entry.setup(ctx, dtype, n)
        if prep.first_call_us is not None:
            w.row(sysname + ":first_call", alg, dtype, n, prep.first_call_us, prep.bytes, prep.first_call_note)
        if prep.poison is not None:
            prep.poison()
        prep.run(0)
        synchronize(ctx)
        prep.check()
        us = time_us(ctx, prep, runs, warmup)
        w.row(sysname, alg, dtype, n, us, prep.bytes, prep.note)
        return True
    except Skip as e:
        w.row(sysname, alg, dtype, n, None, prep.bytes if prep else 0, str(e))
        return True
    except CheckFailed as e:
        w.row(sysname, alg, dtype, n, None, prep.bytes if prep else 0, f"FAILED: {e}")
        return False
    except Exception as e:  # noqa: BLE001
        last = traceback.extract_tb(e.__traceback__)[-1]
        w.row(sysname, alg, dtype, n, None, prep.bytes if prep else 0,
              f"{type(e).__name__}: {e} (at {os.path.basename(last.filename)}:{last.lineno})")
        return True


def env_rows(out):
    from importlib import metadata
    print(f"python\t{sys.version.split()[0]}", file=out)
    for p in PACKAGES:
        try:
            print(f"{p}\t{metadata.version(p)}", file=out)
        except Exception:  # noqa: BLE001
            pass


def l2_bytes():
    try:
        import cupy
        return int(cupy.cuda.Device().attributes.get("L2CacheSize", 50 << 20))
    except Exception:  # noqa: BLE001
        return 50 << 20


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="write the TSV here (default: standard output)")
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)), help="log2 of n, comma-separated")
    ap.add_argument("--types", default=",".join(TYPES))
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--only", default="", help="run only system/algorithm/type/n matching this regexp")
    ap.add_argument("--budget", type=float, default=0, help="seconds; later cases are skipped (0: no limit)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--env", action="store_true", help="print package versions and exit")
    ap.add_argument("--algos", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "algos"))
    a = ap.parse_args(argv)
    out = open(a.out, "w") if a.out else sys.stdout
    if a.env:
        env_rows(out)
        return 0
    runs = max(a.runs, 20)
    seed = a.seed or int(time.time())
    only = re.compile(a.only)
    sizes = [1 << int(k) for k in a.sizes.split(",") if k.strip()]
    types = [t for t in a.types.split(",") if t]
    reg = Registry()
    load_families(reg, a.algos)
    ctx = Ctx(seed, l2_bytes())
    w = Writer(out)
    print(f"# bench.py: python {sys.version.split()[0]}, median of {runs} runs, seed {seed}, "
          f"L2 {ctx.l2 >> 20} MiB, {len(reg.entries)} entries", file=out)
    print("system\talgorithm\ttype\tn\tmedian_us\tbytes_moved\tnote", file=out, flush=True)
    start = time.monotonic()
    failed = 0
    # Input-major order: all systems and algorithms on one input before the next.
    for n in sizes:
        for dtype in types:
            for e in reg.entries:
                if dtype not in e.types or not only.search(f"{e.system}/{e.algorithm}/{dtype}/{n}"):
                    continue
                if a.budget and time.monotonic() - start > a.budget:
                    w.row(e.system, e.algorithm, dtype, n, None, 0, f"time budget of {a.budget:.0f} s exhausted")
                    continue
                if not run_case(ctx, w, e, dtype, n, runs, a.warmup):
                    failed += 1
    ctx._inputs.clear()
    ctx.free_pools()
    if failed:
        print(f"bench.py: {failed} check(s) FAILED", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
