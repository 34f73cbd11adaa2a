#!/usr/bin/env python3
"""Compile every C++ snippet of the README and docs/ as users would copy it.

    check_snippets.py --nvcc NVCC --include INCLUDE_DIR --root REPO --workdir DIR

Every fenced block marked ```cpp in README.md and docs/*.md is compiled, each inside a namespace
of its own after `#include <gpuprims/gpuprims.cuh>` and the ladder headers, so a snippet is
declarations and definitions (kernels, functions, types), never loose statements. A `#line`
directive before each block makes nvcc report errors at the markdown file and line. With
--nccl-include (where the build found NCCL) the prelude also includes <gpuprims/multi.cuh> and
docs/multi-gpu.md's snippets are compiled; without it that page's snippets are left out (said so).
"""
import argparse
import glob
import os
import re
import subprocess
import sys

FENCE = re.compile(r"^```(\S*)\s*$")
PRELUDE = """#include <gpuprims/gpuprims.cuh>
#include <gpuprims/ladder/reduce.cuh>
#include <gpuprims/ladder/stencil.cuh>
#include <gpuprims/ladder/transpose.cuh>

#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>
"""


def snippets(path):
    """(first line number, text) of every ```cpp block."""
    out, block, start, lang = [], None, 0, None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = FENCE.match(line.rstrip("\n"))
            if m and block is None:
                block, start, lang = [], number + 1, m.group(1)
            elif m and block is not None:
                if lang in ("cpp", "c++", "cuda"):
                    out.append((start, "".join(block)))
                block = None
            elif block is not None:
                block.append(line)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--include", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--workdir", default=".")
    ap.add_argument("--nccl-include", default="", help="NCCL's include directory: compile the multi-GPU snippets too")
    args = ap.parse_args()
    files = [os.path.join(args.root, "README.md")] + sorted(glob.glob(os.path.join(args.root, "docs", "*.md")))
    prelude = PRELUDE
    if args.nccl_include:
        prelude = "#include <gpuprims/multi.cuh>\n" + prelude
    else:
        multi_page = os.path.join(args.root, "docs", "multi-gpu.md")
        if multi_page in files:
            files.remove(multi_page)
            print("docs/multi-gpu.md: left out (no NCCL found by the build)")
    parts, count = [prelude], 0
    for path in files:
        rel = os.path.relpath(path, args.root)
        for start, text in snippets(path):
            count += 1
            parts.append(f"namespace snippet_{count} {{\n#line {start} \"{rel}\"\n{text}}}  // namespace snippet_{count}\n")
    if count == 0:
        print("FAIL: no ```cpp snippets found")
        return 1
    os.makedirs(args.workdir, exist_ok=True)
    source = os.path.join(args.workdir, "snippets.cu")
    with open(source, "w", encoding="utf-8") as f:
        f.write("\n".join(parts))
    cmd = [args.nvcc, "-c", "-std=c++17", "-arch=sm_90", "-Werror=all-warnings", f"-I{args.include}"] + ([f"-I{args.nccl_include}"] if args.nccl_include else []) + [source,
           "-o", os.path.join(args.workdir, "snippets.o")]
    run = subprocess.run(cmd, capture_output=True, text=True)
    print(run.stdout + run.stderr, end="")
    print(f"{count} snippets from {len(files)} files: {'compiled' if run.returncode == 0 else 'FAILED'}")
    return 0 if run.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
