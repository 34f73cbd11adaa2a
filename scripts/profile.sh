#!/usr/bin/env bash
# profile.sh [OUTDIR] [BENCHMARK_FILTER]: the hardware counters behind each optimisation claim, on
# this machine's GPU. Runs gpuprims_bench --full --profile (one untimed launch per benchmark) under Nsight
# Compute with --clock-control none, then writes OUTDIR/counters.csv (every kernel launch, every
# counter) and OUTDIR/<primitive>.csv + .md per primitive (scripts/profile_report.py).
# Needs ncu and a CUDA GPU; builds build/default if the benchmark binary is missing (GPUPRIMS_BENCH
# names another binary).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$root/build/profile}" && cd "${1:-$root/build/profile}" && pwd)
# One representative size per family: past the L2 for the bandwidth-bound kernels. (--profile runs
# each benchmark once, so Google Benchmark names them .../iterations:1/manual_time.)
filter=${2:-'^(copy/[^/]+/n:16777216|copy_offset/.*|write_offset/.*|aos_soa/.*|load_path/.*|transpose_4B/[^/]+/rows:8192/cols:8192/batch:1|reduce_ladder_int/.*|block_reduce_segments_256/.*|stencil_rad3/[^/]+/n:16777216)(/iterations:1)?(/manual_time)?$'}
bench=${GPUPRIMS_BENCH:-$root/build/default/benchmark/gpuprims_bench}

command -v ncu >/dev/null || { echo "profile.sh: ncu (Nsight Compute) not found" >&2; exit 77; }
if [ ! -x "$bench" ]; then
  cmake --preset default >/dev/null && cmake --build --preset default --target gpuprims_bench
fi

# The counters, by what they prove (names as Nsight Compute 2025 spells them on sm_70 and later):
metrics=(
  launch__registers_per_thread                               # registers per thread
  sm__warps_active.avg.pct_of_peak_sustained_active          # achieved occupancy
  dram__throughput.avg.pct_of_peak_sustained_elapsed         # DRAM throughput, % of peak
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum            # global load requests (warp instructions)
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum             # ... and the 32-byte sectors they touched
  l1tex__t_requests_pipe_lsu_mem_global_op_st.sum            # global store requests
  l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum             # ... and their sectors
  l1tex__t_sector_hit_rate.pct                               # L1 hit rate
  lts__t_sector_hit_rate.pct                                 # L2 hit rate
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum       # shared-memory load wavefronts
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum   # ... of which bank conflicts
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum       # shared-memory store wavefronts
  l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum   # ... of which bank conflicts
  smsp__sass_average_branch_targets_threads_uniform.pct      # branch efficiency
  smsp__sass_branch_targets_threads_divergent.sum            # divergent branch targets
  smsp__thread_inst_executed_per_inst_executed.ratio         # active threads per warp instruction
  smsp__thread_inst_executed_pred_on_per_inst_executed.ratio # ... not predicated off
)
extra=(
  smsp__sass_inst_executed_op_shared_ld.sum                  # shared-memory load instructions
  smsp__sass_inst_executed_op_shared_st.sum                  # shared-memory store instructions
  smsp__sass_inst_executed_op_shared_atom.sum                # shared-memory atomic instructions
  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum     # ... and their wavefronts
  smsp__inst_executed.sum                                    # warp instructions executed
)
profile() {
  ncu --clock-control none --profile-from-start off --metrics "$(printf '%s\n' "$@" | paste -sd, -)" \
      --export "$out/counters" --force-overwrite \
      "$bench" --full --profile --benchmark_filter="$filter" >"$out/stdout.log" 2>"$out/stderr.log"
}
# The extra counters have other names on some ncu versions: without them the rest still comes.
profile "${metrics[@]}" "${extra[@]}" || profile "${metrics[@]}"
ncu --import "$out/counters.ncu-rep" --csv --page raw >"$out/counters.csv"
python3 "$root/scripts/profile_report.py" "$out/counters.csv" --out "$out"
