#!/usr/bin/env bash
# multi-gpu-check.sh [OUTDIR]: the multi-GPU layer on a machine with two or more GPUs of one host:
# build its targets (NCCL from NCCL_ROOT, the CUDA Toolkit or pip's nvidia-nccl wheel), run
# `ctest -L multigpu` (the tests under NCCL_ALGO unset, Ring and Tree, and both examples), the
# multi-GPU benchmark (benchmark.jsonl + the table; GPUPRIMS_SKIP_BENCHMARK=1 leaves it out), and
# compute-sanitizer over some test cases and the one-process-per-GPU example (below):
# GPUPRIMS_SANITIZERS names the tools (default: memcheck racecheck synccheck; empty: none; on
# initcheck see below), GPUPRIMS_SANITIZER_TIMEOUT the seconds a program may take under one
# (default 300).
# NVLink multicast stays off (NCCL_NVLS_ENABLE=0).
# Logs land in OUTDIR (default build/multi-gpu-check); a summary is printed last.
set -uo pipefail
export NCCL_NVLS_ENABLE=0

root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$root/build/multi-gpu-check}" && cd "${1:-$root/build/multi-gpu-check}" && pwd)
build=$root/build/multi
cd "$root"
status=0
summary=()
note() { summary+=("$1"); echo "multi-gpu-check: $1"; }

{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; nvidia-smi topo -m; } \
  >"$out/device.txt" 2>&1
note "devices: $(grep -c . <(nvidia-smi -L 2>/dev/null)) ($(head -1 "$out/device.txt"))"

if cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$out/configure.log" 2>&1 &&
   timeout "${GPUPRIMS_BUILD_TIMEOUT:-480}" cmake --build "$build" --parallel "$(nproc)" --target \
     gpuprims_test_multi example_multi_gpu_threads example_multi_gpu_processes gpuprims_multi_bench \
     >"$out/build.log" 2>&1; then
  note "build: ok"
else
  note "build: FAILED (configure.log, build.log; no NCCL found gives no multi targets)"
  printf '%s\n' "${summary[@]}"
  exit 1
fi

(cd "$build" && ctest -L multigpu --output-on-failure) >"$out/ctest.log" 2>&1 || status=1
note "ctest -L multigpu: $(grep -E 'tests passed|tests failed' "$out/ctest.log" | tail -1)"

if [ "${GPUPRIMS_SKIP_BENCHMARK:-0}" = 1 ]; then
  note "benchmark: skipped (GPUPRIMS_SKIP_BENCHMARK=1)"
else
  "$build/benchmark/gpuprims_multi_bench" --out "$out/benchmark.jsonl" >"$out/benchmark.txt" 2>&1 ||
    status=1
  note "benchmark: $(grep -c . "$out/benchmark.jsonl" 2>/dev/null || echo 0) rows (benchmark.txt)"
fi

# Under compute-sanitizer, the thread-per-rank reduce and all-reduce cases did not finish within
# 100-110 s under any of the four tools (H200 x2, 2026-11-26), while they take 3 s without one.
# Likely cause: one process driving several GPUs deadlocks once a tool makes launches wait, since
# an NCCL kernel on one GPU waits for its peer's, whose launch then waits too (NCCL's maintainers
# on NVIDIA/nccl#750). So the thread-per-rank program runs only its exchanges, the one-rank ring
# and the argument and setup checks, and the one-process-per-GPU example (stencil1d,
# check_stencil1d, reduce, all_reduce) runs with each process under the tool.
cases='multi::exchange*,multi::stencil1d over one rank*,multi::reduce checks*,multi::stencil checks*'
example=$(find "$build" -name example_multi_gpu_processes -type f -perm -u+x | head -1)
# initcheck is not in the default set: what another GPU or an unwatched kernel wrote reads as
# uninitialised to it. With NCCL's kernels left out, every byte they delivered is flagged where
# ours read it (the setup checks' copy back, the reduce's fold); with them watched, NCCL's
# send/receive kernel is flagged on its own buffers (2026-11-26, H200 x2). Our kernels are the
# single-GPU launchers, under initcheck in scripts/gpu-check.sh, and the folds of received data.
for tool in ${GPUPRIMS_SANITIZERS-memcheck racecheck synccheck}; do
  # NCCL's probes hit CUDA API errors of their own (peer access already enabled, attribute
  # queries of kernels without an image here): API errors are not reported. memcheck watches
  # NCCL's kernels too; racecheck and synccheck leave them out (NCCL's protocols are not ours to
  # check).
  filter=(--kernel-name-exclude kns=nccl)
  [ "$tool" != memcheck ] || filter=()
  log=$out/sanitizer-$tool.log
  : >"$log"
  for which in tests example; do
    program=("$build/test/gpuprims_test_multi" "$cases")
    [ $which = tests ] || program=("$example")
    echo "### compute-sanitizer --tool $tool ${program[*]}" >>"$log"
    timeout "${GPUPRIMS_SANITIZER_TIMEOUT:-300}" compute-sanitizer --tool "$tool" "${filter[@]}" \
      --target-processes all --report-api-errors no --error-exitcode 99 "${program[@]}" >>"$log" 2>&1
    rc=$?
    echo "### exit $rc" >>"$log"
    [ $rc = 0 ] || status=1
  done
  note "$tool: $(grep -cE '^### exit 0$' "$log") of 2 programs clean; $(grep -E '^========= (ERROR SUMMARY|RACECHECK SUMMARY)' "$log" | tr '\n' ' ')"
done

printf '%s\n' "${summary[@]}"
exit $status
