#!/usr/bin/env bash
# bench-subset.sh OUT SOURCE... [-- NVCC_FLAGS...]: a benchmark binary at OUT with only the families
# that the given benchmark sources define (e.g. benchmark/device/scan.cu), every other register_*
# function of benchmark/support.cuh stubbed out. It builds in a minute or two where the whole
# benchmark takes many, for trying a change on a machine with a time limit per command; run it as
# gpuprims_bench (the same flags). NVCC_FLAGS go to every compilation (e.g. -Iold/include first, to
# measure an older checkout's headers with this benchmark, or -DNAME for an experiment).
# GPUPRIMS_ARCH: the GPU architecture to build for (default: native, the machine's GPU).
# Build it on the machine that runs it: it links that machine's Google Benchmark shared library
# (a binary built elsewhere may look for a library of another name and not start).
# Exit status: non-zero, with the compiler's output, if a build step fails.
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OUT SOURCE... [-- NVCC_FLAGS...]" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1
shift
sources=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  sources+=("$1")
  shift
done
[ $# -gt 0 ] && shift
flags=("$@")
for src in "${sources[@]}"; do
  [ -f "$src" ] || { echo "bench-subset: no such file: $src" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The stubs: each family registration that none of the sources defines.
{
  echo '#include "support.cuh"'
  echo 'namespace gpuprims::bench {'
  grep -o 'void register_[a-z0-9_]*(const options& opt);' "$root/benchmark/support.cuh" |
    sed -E 's/void (register_[a-z0-9_]*)\(.*/\1/' | while read -r f; do
    if ! grep -q "^void $f(const options& opt)" "${sources[@]}"; then
      echo "void $f(const options&) {}"
    fi
  done
  echo '}  // namespace gpuprims::bench'
} >"$work/stubs.cu"

arch=${GPUPRIMS_ARCH:-native}
pids=()
objects=()
units=("$root/benchmark/main.cu" "$work/stubs.cu" "${sources[@]}")
for src in "${units[@]}"; do
  obj="$work/${#objects[@]}-$(basename "$src").o"
  objects+=("$obj")
  nvcc -O3 -std=c++17 -arch="$arch" "${flags[@]}" -I"$root/include" -I"$root/benchmark" \
    -c "$src" -o "$obj" >"$obj.log" 2>&1 &
  pids+=($!)
done
status=0
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then
    echo "bench-subset: compiling ${units[$i]} failed:" >&2
    cat "${objects[$i]}.log" >&2
    status=1
  fi
done
[ $status -eq 0 ] || exit 1
if ! nvcc -arch="$arch" "${objects[@]}" -o "$out" -lbenchmark -lcublas -lpthread >"$work/link.log" 2>&1; then
  echo "bench-subset: linking failed:" >&2
  cat "$work/link.log" >&2
  exit 1
fi
