#!/usr/bin/env python3
"""cubin-parts.py PKG_DIR OUT_DIR [ARCH]: cut a generated package's cubin into
its ELF images, OUT_DIR/part0.cubin, part1.cubin, ... (one per instance).

gocccl-gen joins one ELF image per instance into gocccl_gen_<arch>.cubin at
16-byte offsets (cmd/gocccl-gen/internal/emit/glue_artifact.go) and lists their sizes in the manifest's
"parts"; cuobjdump reads only a single image, so tools cut them out first
(sass-diff.sh, kernel-resources.sh). ARCH defaults to sm_90."""
import json
import os
import sys


def main() -> None:
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    pkg, out = sys.argv[1], sys.argv[2]
    arch = sys.argv[3] if len(sys.argv) == 4 else "sm_90"
    name = f"gocccl_gen_{arch}.cubin"
    with open(os.path.join(pkg, "gocccl_gen_manifest.json")) as f:
        files = json.load(f)["files"]
    entry = next((f for f in files if f["name"] == name), None)
    if entry is None:
        sys.exit(f"cubin-parts: {pkg} has no {name}")
    with open(os.path.join(pkg, name), "rb") as f:
        data = f.read()
    parts = entry.get("parts") or [{"size": len(data)}]
    at = 0
    for i, p in enumerate(parts):
        at = (at + 15) // 16 * 16
        with open(os.path.join(out, f"part{i}.cubin"), "wb") as f:
            f.write(data[at:at + p["size"]])
        at += p["size"]


if __name__ == "__main__":
    main()
