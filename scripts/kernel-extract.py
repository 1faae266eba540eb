#!/usr/bin/env python3
"""kernel-extract.py GEN_CU REGEX [MINBLOCKS]: print a generated package's
gocccl_gen.cu reduced to its preamble (everything before the first kernel:
includes, operators, policies) and the kernels whose symbol matches REGEX;
with MINBLOCKS, those kernels' __launch_bounds__ ask for that many blocks an
SM (0: none). For trying a bound or a header change on a few kernels in
seconds instead of regenerating a package (kernel-try.sh compiles it)."""
import re
import sys

BOUNDS = re.compile(r"__launch_bounds__\((\w+_threads)(?:, \w+)?\)")
SYMBOL = re.compile(r"\b(gocccl_\w+)\(")


def main() -> None:
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    lines = open(sys.argv[1]).read().split("\n")
    want = re.compile(sys.argv[2])
    minblocks = int(sys.argv[3]) if len(sys.argv) == 4 else None
    starts = [i for i, l in enumerate(lines) if l.startswith('extern "C" __global__')]
    if not starts:
        sys.exit(f"kernel-extract: {sys.argv[1]} has no kernel")
    first = starts[0]
    while first > 0 and lines[first - 1].startswith("//"):
        first -= 1
    out, found = lines[:first], 0
    for i in starts:
        j = i
        while not lines[j].startswith("}"):
            j += 1
        block = lines[i:j + 1]
        m = SYMBOL.search("\n".join(block[:2]))
        if not m or not want.search(m.group(1)):
            continue
        found += 1
        if minblocks is not None:
            bound = r"__launch_bounds__(\1)" if minblocks == 0 else rf"__launch_bounds__(\1, {minblocks})"
            block[0] = BOUNDS.sub(bound, block[0])
        out += block + [""]
    if not found:
        sys.exit(f"kernel-extract: no kernel of {sys.argv[1]} matches {sys.argv[2]}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
