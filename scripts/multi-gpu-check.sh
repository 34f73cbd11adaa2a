#!/usr/bin/env bash
# multi-gpu-check.sh [OUTDIR]: the multi-GPU layer on a machine with two or more GPUs of one host:
# build its targets (NCCL from NCCL_ROOT, the CUDA Toolkit or pip's nvidia-nccl wheel), run
# `ctest -L multigpu` (the tests under NCCL_ALGO unset, Ring and Tree, and both examples), the
# multi-GPU benchmark (benchmark.jsonl + the table; GPUPRIMS_SKIP_BENCHMARK=1 leaves it out), and
# the test program's quick cases under compute-sanitizer: GPUPRIMS_SANITIZERS names the tools
# (default: memcheck racecheck initcheck synccheck; empty: none). NCCL's own kernels are left out
# of the sanitizers' view (its probes and protocols are not ours to check); ours and the CUDA API
# calls are checked. NVLink multicast stays off (NCCL_NVLS_ENABLE=0).
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

# Every case but the bit-for-bit stencil sweeps (the same kernels on bigger domains, minutes under
# instrumentation), their repeats cut to 3 (GPUPRIMS_TEST_RUNS): the exchanges, a one-rank stencil,
# the reductions, the checks.
cases='multi::exchange*,multi::stencil1d over one rank*,multi::all_reduce*,multi::reduce*,multi::stencil checks*'
for tool in ${GPUPRIMS_SANITIZERS-memcheck racecheck initcheck synccheck}; do
  # NCCL's probes hit CUDA API errors of their own (peer access already enabled, attribute
  # queries of kernels without an image here): API errors are not reported. memcheck and initcheck
  # watch NCCL's kernels too (initcheck must see their writes: our folds read what they received);
  # racecheck and synccheck leave them out (NCCL's protocols are not ours to check).
  filter=()
  case $tool in racecheck | synccheck) filter=(--kernel-name-exclude kns=nccl) ;; esac
  GPUPRIMS_TEST_RUNS=3 timeout "${GPUPRIMS_SANITIZER_TIMEOUT:-300}" compute-sanitizer \
    --tool "$tool" "${filter[@]}" --report-api-errors no --error-exitcode 99 \
    "$build/test/gpuprims_test_multi" "$cases" >"$out/sanitizer-$tool.log" 2>&1 || status=1
  note "$tool: $(grep -E '^========= (ERROR SUMMARY|RACECHECK SUMMARY)' "$out/sanitizer-$tool.log" | tail -1) $(grep -E 'test cases|All tests passed' "$out/sanitizer-$tool.log" | tail -1)"
done

printf '%s\n' "${summary[@]}"
exit $status
