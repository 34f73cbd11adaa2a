#!/usr/bin/env bash
# gpu-check.sh [OUTDIR]: everything CI cannot do, on a machine with a CUDA GPU.
#   1. configure + build (all cores), 2. every test, 3. the GPU tests under compute-sanitizer
#   (memcheck, racecheck, initcheck, synccheck), 4. the GPU tests built as compute_80 PTX only and
#   run through the driver's JIT (the non-Hopper paths; GPUPRIMS_SKIP_COMPUTE80=1 leaves it out),
#   5. the quick benchmark in short mode + its report (GPUPRIMS_SKIP_BENCHMARK=1 leaves it out).
# GPUPRIMS_SANITIZERS names the compute-sanitizer tools to run (default: all four; empty: none),
# GPUPRIMS_SANITIZER_JOBS how many programs run under one at once (default 1),
# GPUPRIMS_SANITIZER_SPLIT=1 runs each test case (each section of the big ones) as a program of its
# own (scripts/sanitizer_jobs.py), GPUPRIMS_SANITIZER_TIMEOUT=S stops each after S seconds (the
# tool's step then reports the commands cut, and fails: they are not verified), and
# GPUPRIMS_SKIP_CTEST=1 leaves step 2 out, so the steps can be split over several calls on a machine
# with a time limit per command.
# Logs, benchmark.json and report.md land in OUTDIR (default: build/gpu-check); a summary is
# printed last. Exit status: non-zero if any step failed.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$root/build/gpu-check}" && cd "${1:-$root/build/gpu-check}" && pwd)
build=$root/build/default
cd "$root"
status=0
summary=()
note() { summary+=("$1"); echo "gpu-check: $1"; }

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$out/device.txt" 2>&1
note "device: $(cat "$out/device.txt")"

# The build's longest steps, from ninja's log (start and end in ms; a step cut by the limit is not
# in it): which files set the build's length on this machine.
longest_steps() {
  [ -f "$build/.ninja_log" ] || return 0
  awk -F'\t' 'NR > 1 { printf "%d s %s\n", ($2 - $1) / 1000, $4 }' "$build/.ninja_log" |
    sort -rn | head -5 | paste -sd ';' -
}
# A time limit on the build: a compiler that never finishes a file (seen once with gcc 13, see
# docs/design.md) should cost minutes, and the log's last lines name the file.
build_start=$(date +%s)
if cmake --preset default >"$out/configure.log" 2>&1 &&
   timeout "${GPUPRIMS_BUILD_TIMEOUT:-480}" cmake --build --preset default --parallel "$(nproc)" >"$out/build.log" 2>&1; then
  note "build: ok in $(($(date +%s) - build_start)) s; longest steps: $(longest_steps)"
else
  note "build: FAILED or timed out after $(($(date +%s) - build_start)) s (see build.log; last lines: $(tail -2 "$out/build.log" | tr '\n' ' '); longest finished steps: $(longest_steps))"
  printf '%s\n' "${summary[@]}"
  exit 1
fi

if [ "${GPUPRIMS_SKIP_CTEST:-0}" = 1 ]; then
  note "ctest: skipped (GPUPRIMS_SKIP_CTEST=1)"
else
  ctest --preset default --parallel 4 >"$out/ctest.log" 2>&1 || status=1
  note "ctest: $(grep -E 'tests passed|tests failed' "$out/ctest.log" | tail -1)"
  skipped=$(grep -c '(Skipped)' "$out/ctest.log")
  note "ctest: $skipped skipped"
fi

# The GPU tests' commands, straight from ctest (-L also selects the fixtures they need, which are
# no GPU programs: keep only tests labelled gpu); the [large] cases (> 2^31 elements) and the
# [slow] ones (the same paths on bigger inputs) are left out: under instrumentation they take
# minutes and add no new code path.
mapfile -t gpu_tests < <(ctest --test-dir "$build" -L gpu --show-only=json-v1 | python3 -c '
import json, sys
for t in json.load(sys.stdin)["tests"]:
    labels = next((p["value"] for p in t.get("properties", []) if p["name"] == "LABELS"), [])
    # The profiler does not run under the sanitizer; the trap tests stop their kernel on purpose.
    if "gpu" not in labels or "profile" in labels or "trap" in labels:
        continue
    cmd = t["command"]
    if cmd and cmd[0].endswith("gpuprims_requires_gpu"):
        cmd = cmd[1:]
    if cmd and "gpuprims_test_" in cmd[0]:
        cmd = cmd + ["~[large]~[slow]"]
    print("\t".join(cmd))')
# GPUPRIMS_SANITIZER_JOBS programs under the sanitizer at once (default 1). Racecheck over the
# whole suite one program at a time takes longer than a 10-minute command limit; 8 at once
# finished 34 of its 42 programs in 9.5 minutes on an H100 (device_scan alone runs longer than 8
# minutes). A prototype of the split (test cases, and sections in the five stencil programs), 16
# at once on an H200: 134 of racecheck's 142 commands finished in two calls of 570 s, 8 were still
# running at the end of each (notes/design.md). A test spec that matches nothing exits non-zero.
# Each program writes its own log; sanitizer-<tool>.log holds them in the list's order.
if [ "${GPUPRIMS_SANITIZER_SPLIT:-0}" = 1 ]; then
  catch2_major=$(cat "$build/test/catch2_major" 2>/dev/null || echo 3)
  mapfile -t gpu_tests < <(printf '%s\n' "${gpu_tests[@]}" |
    python3 "$root/scripts/sanitizer_jobs.py" --catch2-major "$catch2_major")
fi
sanitize_one() {  # TOOL DIR I SECONDS: program I, its arguments tab-separated in DIR/I.cmd
  local tool=$1 dir=$2 i=$3 seconds=$4 cmd extra=()
  IFS=$'\t' read -r -a cmd <"$dir/$i.cmd"
  [ "$tool" = memcheck ] && extra=(--leak-check full)
  {
    echo "### compute-sanitizer --tool $tool ${cmd[*]}"
    # timeout 0: no limit; 124: stopped at the limit.
    timeout "$seconds" compute-sanitizer --tool "$tool" "${extra[@]}" --error-exitcode 99 "${cmd[@]}" 2>&1
    echo "### exit $?"
  } >"$dir/$i.log"
}
export -f sanitize_one
for tool in ${GPUPRIMS_SANITIZERS-memcheck racecheck initcheck synccheck}; do
  log=$out/sanitizer-$tool.log
  dir=$out/sanitizer-$tool.d
  rm -rf "$dir" && mkdir -p "$dir"
  runs=()
  for i in "${!gpu_tests[@]}"; do
    IFS=$'\t' read -r -a cmd <<<"${gpu_tests[$i]}"
    if [ ! -x "${cmd[0]}" ]; then  # built by a ctest fixture (the package consumer) that did not run
      echo "### not built, left out: ${cmd[*]}" >"$dir/$i.log"
      continue
    fi
    printf '%s\n' "${gpu_tests[$i]}" >"$dir/$i.cmd"
    runs+=("$i")
  done
  [ ${#runs[@]} = 0 ] ||
    printf '%s\n' "${runs[@]}" |
    xargs -P "${GPUPRIMS_SANITIZER_JOBS:-1}" -I{} bash -c 'sanitize_one "$@"' _ "$tool" "$dir" {} \
      "${GPUPRIMS_SANITIZER_TIMEOUT:-0}"
  : >"$log"
  for i in "${!gpu_tests[@]}"; do
    cat "$dir/$i.log" >>"$log"
  done
  rm -rf "$dir"
  tool_status=0
  grep -q '^### exit [1-9]' "$log" && tool_status=1
  none=$(grep -cE '^========= (ERROR|RACECHECK) SUMMARY: 0 (errors|hazards)' "$log")
  others=$(grep -E '^========= (ERROR|RACECHECK) SUMMARY' "$log" | grep -vE 'SUMMARY: 0 (errors|hazards)' |
    sort | uniq -c | tr '\n' ' ')
  cut=$(grep -c '^### exit 124$' "$log")
  failed=$(grep -E '^### exit [1-9]' "$log" | grep -vc '^### exit 124$')
  verdict=clean cut_note=
  [ "$cut" -gt 0 ] && verdict=INCOMPLETE cut_note="; $cut cut at the timeout"
  [ "$failed" -gt 0 ] && verdict=FAILED
  note "compute-sanitizer $tool over ${#gpu_tests[@]} commands: $verdict ($none summaries with none${others:+; others: $others}$cut_note)"
  [ $tool_status = 0 ] || status=1
done

if [ "${GPUPRIMS_SKIP_COMPUTE80:-0}" = 1 ]; then
  note "compute_80 (JIT): skipped (GPUPRIMS_SKIP_COMPUTE80=1)"
elif cmake --preset compute80 >"$out/compute80-configure.log" 2>&1 &&
   timeout "${GPUPRIMS_BUILD_TIMEOUT:-480}" cmake --build --preset compute80 --parallel "$(nproc)" \
     >"$out/compute80-build.log" 2>&1; then
  ctest --preset compute80 --parallel 4 >"$out/compute80-ctest.log" 2>&1 || status=1
  note "compute_80 (JIT): $(grep -E 'tests passed|tests failed' "$out/compute80-ctest.log" | tail -1)"
else
  note "compute_80 (JIT): build FAILED (see compute80-build.log)"
  status=1
fi

bench=$build/benchmark/gpuprims_bench
if [ "${GPUPRIMS_SKIP_BENCHMARK:-0}" = 1 ]; then
  note "benchmark: skipped (GPUPRIMS_SKIP_BENCHMARK=1)"
elif "$bench" --short --benchmark_out="$out/benchmark.json" --benchmark_out_format=json >"$out/benchmark.log" 2>&1 &&
   python3 benchmark/report.py "$out/benchmark.json" --out "$out" >"$out/report.log" 2>&1; then
  note "benchmark: ok (benchmark.json, report.md)"
else
  note "benchmark: FAILED (see benchmark.log)"
  status=1
fi

printf '%s\n' "${summary[@]}" | tee "$out/summary.txt"
exit $status
