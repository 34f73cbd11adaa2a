#!/usr/bin/env bash
# prebuilt.sh pack TARBALL [BUILD]   (on a machine without a GPU)
# prebuilt.sh run TARBALL OUTDIR     (on the GPU machine, in a copy of the same checkout)
# The Release GPU suite compiled where compiling costs no device time, then run on the GPU: the
# build takes about 24 minutes on 2 cores (one test alone, device_select, 380 s of a core), and the
# GPU machine's build of the whole preset ran past 470 s; running the suite and three sanitizers
# took about 4 minutes on an H200.
#   pack: configures and builds BUILD (default /tmp/gpuprims-prebuilt; an absolute path that the GPU
#         machine can create) as Release for sm_90 (PREBUILT_ARCHITECTURES, e.g. 80-virtual for
#         the compute_80 PTX build run through the JIT; give it a BUILD of its own), tests and
#         examples only (no benchmarks, no multi-GPU target), and packs its programs, stripped,
#         with what ctest needs into TARBALL (xz; about 30 MB for sm_90). Name TARBALL under build/
#         and pass it in the device tool's `carry`.
#   run:  unpacks TARBALL at BUILD's path; then, writing a line to OUTDIR/summary.txt as each
#         step ends: every GPU test through ctest beside memcheck (leak check) over every GPU test
#         program and single-GPU example, then initcheck and synccheck over them (test programs
#         without [large] and [slow], as gpu-check.sh runs them). PREBUILT_RACECHECK="NAME ..."
#         adds racecheck on those test programs (e.g. device_segmented_reduce): over the whole
#         suite it takes longer than a device call (notes/design.md).
# The ctest paths are absolute: the checkout must sit at the same path on both machines (the
# device tool's copy does: /work/main); `run` stops if it does not. Exit status: non-zero if a step
# failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-} tarball=${2:-}
[ -n "$tarball" ] && { [ "$mode" = pack ] || [ "$mode" = run ]; } || {
  sed -n '2,3p' "$0" >&2
  exit 2
}

if [ "$mode" = pack ]; then
  build=${3:-/tmp/gpuprims-prebuilt}
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CUDA_ARCHITECTURES="${PREBUILT_ARCHITECTURES:-90}" \
    -DGPUPRIMS_BUILD_BENCHMARKS=OFF -DGPUPRIMS_MULTI=OFF >"$build.configure.log" 2>&1 &&
    cmake --build "$build" --parallel "$(nproc)" >"$build.build.log" 2>&1 ||
    { echo "prebuilt: the build failed: $build.build.log" >&2; exit 1; }
  stage=$(mktemp -d)
  trap 'rm -rf "$stage"' EXIT
  # Everything but objects and the codegen tests' outputs (CPU tests, CI runs them), whose
  # cmake_install.cmake the install rules still include.
  (cd "$build" && find . -type f ! -name '*.o' \( ! -path './test/codegen/*' -o -name '*.cmake' \) \
    ! -path './Testing/*' -print0 | tar --null -T - -cf -) | tar -C "$stage" -xf -
  find "$stage" -type f -executable -exec sh -c 'file "$1" | grep -q ELF && strip "$1"' _ {} \;
  echo "$build" >"$stage/.prebuilt-path"
  echo "$root" >"$stage/.prebuilt-source"
  tar -C "$stage" -cf - . | xz -9 -T0 >"$tarball" || exit 1
  echo "prebuilt: $tarball ($(du -h "$tarball" | cut -f1)) holds $build (${PREBUILT_ARCHITECTURES:-90}), built from $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- include test examples || echo ' with uncommitted changes')"
  exit 0
fi

out=$(mkdir -p "${3:?usage: prebuilt.sh run TARBALL OUTDIR}" && cd "$3" && pwd)
summary=$out/summary.txt
start=$(date +%s)
say() { echo "[$(($(date +%s) - start))s] $*" | tee -a "$summary"; }
say "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
stage=$(mktemp -d)
tar -C "$stage" -xJf "$tarball" || { say "unpacking $tarball FAILED"; exit 1; }
build=$(cat "$stage/.prebuilt-path")
[ "$(cat "$stage/.prebuilt-source")" = "$root" ] ||
  { say "built from $(cat "$stage/.prebuilt-source"), this checkout is $root: the paths differ"; exit 1; }
rm -rf "$build" && mkdir -p "$(dirname "$build")" && mv "$stage" "$build"
# The package tests call the cmake and ctest that configured the build.
for entry in CMAKE_COMMAND:cmake CMAKE_CTEST_COMMAND:ctest; do
  want=$(sed -n "s/^${entry%%:*}:INTERNAL=//p" "$build/CMakeCache.txt")
  [ -z "$want" ] || [ -x "$want" ] || ln -s "$(command -v "${entry#*:}")" "$want"
done
status=0
mkdir -p "$out/san"
programs=$(printf '%s\n' "$build"/test/gpuprims_test_* "$build"/examples/example_* |
  grep -vE '_args$|multi|block_shape$')
sanitize_all() {  # TOOL JOBS SECONDS [PROGRAMS]: one line per program in san/TOOL.txt
  echo "${4:-$programs}" | xargs -P "$2" -I{} bash -c '
    p={} extra=() spec=()
    log=$0/san/$1-$(basename $p).log
    [[ $p == */test/* ]] && spec=("~[large]~[slow]")
    [ $1 = memcheck ] && extra=(--leak-check full)
    timeout $2 compute-sanitizer --tool $1 "${extra[@]}" --error-exitcode 99 $p "${spec[@]}" >"$log" 2>&1
    echo "exit $? $(basename $p): $(grep -E "^========= (ERROR|RACECHECK) SUMMARY" "$log" | tail -1)" >>$0/san/$1.txt' \
    "$out" "$1" "$3"
  local clean
  clean=$(grep -cE '^exit 0 .*SUMMARY: 0 (errors|hazards)' "$out/san/$1.txt")
  say "$1 over $(wc -l <"$out/san/$1.txt") programs: $clean clean (exit 0, none found)$(grep -vE '^exit 0 .*SUMMARY: 0 (errors|hazards)' "$out/san/$1.txt" | tr '\n' ';' | sed 's/^./; others: &/')"
  [ "$clean" = "$(wc -l <"$out/san/$1.txt")" ]
}
ctest --test-dir "$build" -L gpu --parallel 10 --timeout 400 --output-on-failure >"$out/ctest.log" 2>&1 &
ctest_pid=$!
sanitize_all memcheck 6 280 || status=1
wait $ctest_pid || status=1
say "ctest: $(grep -E 'tests passed|tests failed' "$out/ctest.log"); $(grep -c '(Skipped)' "$out/ctest.log") skipped$(grep -E '\*\*\*' "$out/ctest.log" | grep -oE '[a-z0-9_]+ \.+.*' | sed 's/ \.\.*/ /' | tr '\n' ';' | sed 's/^./; not passed: &/')"
sanitize_all initcheck 8 150 &
initcheck_pid=$!
sanitize_all synccheck 8 150 || status=1
wait $initcheck_pid || status=1
if [ -n "${PREBUILT_RACECHECK:-}" ]; then
  sanitize_all racecheck 8 400 "$(printf "$build/test/gpuprims_test_%s\n" $PREBUILT_RACECHECK)" || status=1
fi
tar -C "$out" -cJf "$out/sanitizer-logs.tar.xz" san && rm -rf "$out/san"
say "done, exit $status"
exit $status
