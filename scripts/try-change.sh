#!/usr/bin/env bash
# try-change.sh OUTDIR: one device call's worth of checks for a change to a few kernels, every step
# writing a line to OUTDIR/summary.txt as it ends (so a call cut at its time limit still tells what
# passed). Settings, from the environment:
#   TRY_TESTS       test names (test/CMakeLists.txt), e.g. "device_segmented_reduce device_reduce_rows"
#   TRY_BENCH       benchmark sources for scripts/bench-subset.sh (empty: no benchmark)
#   TRY_FILTER      the benchmark rows (Google Benchmark regex; default: every row of the sources)
#   TRY_OLD         a directory holding the old code's include/ (e.g. from `git archive main include`):
#                   the benchmark is then built twice and run old, new, old, new, tabled by
#                   scripts/compare_old_new.sh; without it only this tree's binary runs
#   TRY_REPS        old/new alternations (default 2); TRY_MIN_TIME seconds a row (default 0.05)
#   TRY_COMPUTE80   1 (default): the tests also built as compute_80 PTX and run through the JIT
#   TRY_SANITIZERS  compute-sanitizer tools over the sm_90 tests (default: all four; empty: none),
#                   one tool a program at a time, the tools in parallel, without [large] and [slow]
#   TRY_TIMEOUT     seconds each test or sanitizer run may take (default 240)
# Builds land in build/try-*; every log in OUTDIR. Exit status: non-zero if a step failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:?usage: try-change.sh OUTDIR}" && cd "$1" && pwd)
cd "$root" || exit 1
summary=$out/summary.txt
start=$(date +%s)
status=0
say() { echo "[$(($(date +%s) - start))s] $*" | tee -a "$summary"; }
read -r -a tests <<<"${TRY_TESTS:-}"
read -r -a bench_sources <<<"${TRY_BENCH:-}"
timeout_s=${TRY_TIMEOUT:-240}
say "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"

build_tests() {  # DIR ARCHITECTURES
  cmake -S . -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$2" \
    -DGPUPRIMS_BUILD_BENCHMARKS=OFF -DGPUPRIMS_BUILD_EXAMPLES=OFF -DGPUPRIMS_MULTI=OFF &&
    cmake --build "$1" --target "${tests[@]/#/gpuprims_test_}"
}
pids=() names=()
if [ ${#tests[@]} -gt 0 ]; then
  build_tests build/try-sm90 90 >"$out/build-sm90.log" 2>&1 & pids+=($!) names+=(sm90)
  if [ "${TRY_COMPUTE80:-1}" = 1 ]; then
    build_tests build/try-compute80 80-virtual >"$out/build-compute80.log" 2>&1 &
    pids+=($!) names+=(compute80)
  fi
fi
if [ ${#bench_sources[@]} -gt 0 ]; then
  scripts/bench-subset.sh build/try-bench-new "${bench_sources[@]}" >"$out/build-bench-new.log" 2>&1 &
  pids+=($!) names+=(bench-new)
  if [ -n "${TRY_OLD:-}" ]; then
    scripts/bench-subset.sh build/try-bench-old "${bench_sources[@]}" -- -I"$TRY_OLD/include" \
      >"$out/build-bench-old.log" 2>&1 & pids+=($!) names+=(bench-old)
  fi
fi
built=" "
for i in "${!pids[@]}"; do
  if wait "${pids[$i]}"; then
    say "build ${names[$i]}: ok"
    built+="${names[$i]} "
  else
    say "build ${names[$i]}: FAILED (build-${names[$i]}.log)"
    status=1
  fi
done

# A test program's result line, e.g. "All tests passed (4160 assertions in 5 test cases)".
verdict() { grep -E '^(All tests passed|test cases:)' "$1" | tail -1 || tail -1 "$1"; }
for arch in sm90 compute80; do
  [[ $built == *" $arch "* ]] || continue
  for t in "${tests[@]}"; do
    log=$out/test-$arch-$t.log
    timeout "$timeout_s" "build/try-$arch/test/gpuprims_test_$t" >"$log" 2>&1
    rc=$?
    [ $rc = 0 ] || status=1
    say "test $arch $t: exit $rc, $(verdict "$log")"
  done
done

if [[ $built == *" sm90 "* ]]; then
  sanitize() {  # TOOL: every test under it, one after another
    local t log rc
    for t in "${tests[@]}"; do
      log=$out/sanitizer-$1-$t.log
      timeout "$timeout_s" compute-sanitizer --tool "$1" --error-exitcode 99 \
        "build/try-sm90/test/gpuprims_test_$t" '~[large]~[slow]' >"$log" 2>&1
      rc=$?
      say "$1 $t: exit $rc, $(grep -E '^========= (ERROR|RACECHECK) SUMMARY' "$log" | tail -1)"
      [ $rc = 0 ] || return 1
    done
  }
  pids=()
  for tool in ${TRY_SANITIZERS-memcheck racecheck initcheck synccheck}; do
    sanitize "$tool" & pids+=($!)
  done
  for p in "${pids[@]}"; do
    wait "$p" || status=1
  done
fi

if [[ $built == *" bench-new "* ]]; then
  filter=${TRY_FILTER:-.}
  flags="--benchmark_min_time=${TRY_MIN_TIME:-0.05}s"
  if [[ $built == *" bench-old "* ]]; then
    OLD_BENCH=$root/build/try-bench-old NEW_BENCH=$root/build/try-bench-new COMPARE_FILTER=$filter \
      COMPARE_FLAGS=$flags scripts/compare_old_new.sh - "$out/bench" "${TRY_REPS:-2}" \
      >"$out/bench.log" 2>&1 || status=1
    say "benchmark old/new: $(tail -1 "$out/bench/compare.md" 2>/dev/null)"
    cat "$out/bench/compare.md" >>"$summary" 2>/dev/null
  else
    build/try-bench-new --full --benchmark_filter="$filter" "$flags" \
      --benchmark_out="$out/bench.json" --benchmark_out_format=json >"$out/bench.log" 2>&1 || status=1
    python3 benchmark/report.py "$out/bench.json" --out "$out/report" >>"$summary" 2>&1
    say "benchmark: done"
  fi
fi
say "done, exit $status"
exit $status
