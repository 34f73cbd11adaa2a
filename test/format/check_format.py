#!/usr/bin/env python3
"""Check that every C++ and CUDA source of the repository is formatted as .clang-format says.

    check_format.py --root REPO [--clang-format PATH] [--fix]

The files are those git tracks (or, outside a checkout, every *.cu, *.cuh, *.hpp, *.cpp, *.h under
the root, build directories left out). Exit 0 when all are formatted, 1 otherwise (the offending
files listed), 77 when no clang-format is found. --fix rewrites them in place.
"""
import argparse
import os
import shutil
import subprocess
import sys

EXTENSIONS = (".cu", ".cuh", ".hpp", ".cpp", ".h")
SKIP = 77


def sources(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True, check=True).stdout
        files = out.splitlines()
    except (OSError, subprocess.CalledProcessError):
        files = []
        for base, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
            files += [os.path.relpath(os.path.join(base, n), root) for n in names]
    return sorted(f for f in files if f.endswith(EXTENSIONS) and os.path.exists(os.path.join(root, f)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--clang-format", default="")
    ap.add_argument("--fix", action="store_true")
    args = ap.parse_args()
    tool = args.clang_format or shutil.which("clang-format")
    if not tool or not os.path.exists(tool):
        print("SKIPPED: clang-format not found")
        return SKIP
    files = sources(args.root)
    if args.fix:
        subprocess.run([tool, "-i", "--style=file"] + files, cwd=args.root, check=True)
        print(f"formatted {len(files)} files")
        return 0
    bad = []
    for f in files:
        run = subprocess.run([tool, "--dry-run", "--Werror", "--style=file", f], cwd=args.root, capture_output=True,
                             text=True)
        if run.returncode != 0:
            bad.append(f)
    version = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout.strip()
    for f in bad:
        print(f"not formatted: {f}")
    print(f"{len(files) - len(bad)} of {len(files)} files formatted ({version})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
