#!/usr/bin/env bash
# compare_old_new.sh OLD_SOURCE_DIR OUTDIR [REPS]: the defaults and their baselines measured by the
# benchmark binary of an older checkout (OLD_SOURCE_DIR) and of this one, built on this machine and
# run alternately REPS times (default 3) in one session; scripts/compare_bench.py tables the medians.
# NEW_BENCH=PATH uses that binary of this checkout instead of building one; OLD_BENCH=PATH uses that
# binary as the old one (OLD_SOURCE_DIR is then not read: give "-"; it runs with --full, like the
# new one), e.g. two scripts/bench-subset.sh builds, the old with -I of an older include/;
# COMPARE_FILTER replaces the rows compared; COMPARE_FLAGS adds Google Benchmark flags to both (e.g.
# repetitions, or --benchmark_min_time=0.05s to override the 0.25 s).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ -n "${OLD_BENCH:-}" ] || old_src=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
reps=${3:-3}
# The rows compared: each primitive's default and its baselines at the sizes the goals name.
filter='^(copy/(gpuprims::copy|cudaMemcpyAsync|cub::DeviceTransform)/n:(1048576|16777216|268435456)'
filter+='|copy_offset/(gpuprims::copy|cudaMemcpyAsync)/offset:(1|11)'
filter+='|transpose_4B/(gpuprims::transpose|cublasSgeam|cudaMemcpyAsync)/rows:(2048/cols:512|8192/cols:8192|16384/cols:16384)/'
filter+='|transpose_8B/(gpuprims::transpose|cublasDgeam|cudaMemcpyAsync)/'
filter+='|reduce_float/(gpuprims::reduce|cub::DeviceReduce::Sum)/n:(1048576|16777216|268435456)'
filter+='|stencil_rad(3|16)/(gpuprims::stencil1d|gpuprims::apply_stencil1d|cudaMemcpyAsync)/n:(16777216|268435456)'
filter+='|block_reduce_segments_256/)'
filter=${COMPARE_FILTER:-$filter}
build_bench() {  # SOURCE BUILD_DIR
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DGPUPRIMS_BUILD_TESTS=OFF -DGPUPRIMS_BUILD_EXAMPLES=OFF >"$out/configure-$(basename "$2").log" 2>&1 &&
    cmake --build "$2" --target gpuprims_bench --parallel "$(nproc)" >"$out/build-$(basename "$2").log" 2>&1
}
new_bench=${NEW_BENCH:-$root/build/compare-new/benchmark/gpuprims_bench}
old_bench=${OLD_BENCH:-$root/build/compare-old/benchmark/gpuprims_bench}
old_flags=()
if [ -n "${OLD_BENCH:-}" ]; then
  old_flags=(--full)
  old_pid=
else
  build_bench "$old_src" "$root/build/compare-old" & old_pid=$!
fi
if [ -z "${NEW_BENCH:-}" ]; then
  build_bench "$root" "$root/build/compare-new" || { echo "new build failed"; exit 1; }
fi
[ -z "$old_pid" ] || wait "$old_pid" || { echo "old build failed"; exit 1; }
for rep in $(seq "$reps"); do
  "$old_bench" "${old_flags[@]}" --benchmark_filter="$filter" --benchmark_min_time=0.25s ${COMPARE_FLAGS:-} \
    --benchmark_out="$out/old-$rep.json" --benchmark_out_format=json >"$out/old-$rep.log" 2>&1
  "$new_bench" --full --benchmark_filter="$filter" --benchmark_min_time=0.25s ${COMPARE_FLAGS:-} \
    --benchmark_out="$out/new-$rep.json" --benchmark_out_format=json >"$out/new-$rep.log" 2>&1
done
python3 "$root/scripts/compare_bench.py" --old "$out"/old-*.json --new "$out"/new-*.json \
  --rename gpuprims::stencil1d=gpuprims::apply_stencil1d --out "$out/compare.md"
