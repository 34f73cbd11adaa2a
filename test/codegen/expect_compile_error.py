#!/usr/bin/env python3
"""Compile a source that must not compile, and check that nvcc says why.

    expect_compile_error.py --nvcc NVCC --include DIR SOURCE

The source names what the error must say on a line `// expect: <text>`, and optionally the target
on `// arch: sm_XY` (default sm_90). Passes when nvcc fails and its output contains the text.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source")
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--include", action="append", default=[])
    args = ap.parse_args()
    text = open(args.source, encoding="utf-8").read()
    expect = re.search(r"^//\s*expect:\s*(.+?)\s*$", text, re.M)
    arch = re.search(r"^//\s*arch:\s*(\S+)\s*$", text, re.M)
    if not expect:
        print(f"FAIL {args.source}: no '// expect: <text>' line")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [args.nvcc, "-c", "-std=c++17", f"-arch={arch.group(1) if arch else 'sm_90'}",
               "-o", os.path.join(tmp, "out.o"), args.source] + [f"-I{i}" for i in args.include]
        run = subprocess.run(cmd, capture_output=True, text=True)
    output = run.stdout + run.stderr
    if run.returncode == 0:
        print(f"FAIL {args.source}: compiled, but must not ({' '.join(cmd)})")
        return 1
    if expect.group(1) not in output:
        print(f"FAIL {args.source}: the error does not say {expect.group(1)!r}:\n{output}")
        return 1
    print(f"ok   {args.source}: rejected with {expect.group(1)!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
