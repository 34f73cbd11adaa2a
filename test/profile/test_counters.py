#!/usr/bin/env python3
"""The library's coalescing, bank-conflict and divergence claims, asserted on hardware counters.

    test_counters.py --bench PATH/gpuprims_bench --workdir DIR

Runs scripts/profile.sh (Nsight Compute, --clock-control none) over the benchmarks that launch
the kernels below, then checks each claim against the counters. Exit 77 (skipped) without ncu.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import profile_report  # noqa: E402

SKIP = 77
FILTER = ("^(transpose_4B/(shared_padded|shared_unpadded)/rows:2048/cols:512/batch:1"
          "|copy/vector_copy<(1|4)>/n:16777216"
          "|reduce_ladder_int/reduce[012]_[a-z_]+/n:4194304)$")


def find(rows, pattern):
    rx = re.compile(pattern)
    hits = [r for r in rows if rx.search(r["kernel"])]
    if len(hits) != 1:
        names = "\n  ".join(r["kernel"] for r in rows)
        raise AssertionError(f"{len(hits)} kernels match {pattern!r}; profiled:\n  {names}")
    return hits[0]


def claims(rows):
    """(description, holds, the counters behind it) for every claim."""
    padded = find(rows, r"^transpose_shared_kernel<32, 1, 8, float")
    unpadded = find(rows, r"^transpose_shared_kernel<32, 0, 8, float")
    vector = find(rows, r"^vector_copy_kernel<4, \d+, \d+, float>")
    scalar = find(rows, r"^vector_copy_kernel<1, \d+, \d+, float>")
    modulo = find(rows, r"^ladder_kernel<(\(block_reduce_algorithm\)0|interleaved_modulo),")
    strided = find(rows, r"^ladder_kernel<(\(block_reduce_algorithm\)1|interleaved_strided),")
    sequential = find(rows, r"^ladder_kernel<(\(block_reduce_algorithm\)2|sequential),")

    def ratio(row, part, whole):
        return row[part] / row[whole] if row[whole] else 0.0

    yield ("tiled_transpose<32, 1>: no shared-memory bank conflicts",
           padded["smem_ld_conflicts"] == 0 and padded["smem_st_conflicts"] == 0,
           f"ld {padded['smem_ld_conflicts']}, st {padded['smem_st_conflicts']}")
    yield ("tiled_transpose<32, 0>: the column reads conflict (>= 90% of load wavefronts are conflicts)",
           ratio(unpadded, "smem_ld_conflicts", "smem_ld_wavefronts") >= 0.9,
           f"{unpadded['smem_ld_conflicts']} conflicts in {unpadded['smem_ld_wavefronts']} wavefronts")
    yield ("vector_copy<4> of floats: 16 sectors (512 bytes) per load and store request",
           abs(vector["ld_sectors_per_request"] - 16) < 0.05 and abs(vector["st_sectors_per_request"] - 16) < 0.05,
           f"ld {vector['ld_sectors_per_request']:.3f}, st {vector['st_sectors_per_request']:.3f}")
    yield ("vector_copy<1> of floats: 4 sectors (128 bytes, ideal coalescing) per request",
           abs(scalar["ld_sectors_per_request"] - 4) < 0.05 and abs(scalar["st_sectors_per_request"] - 4) < 0.05,
           f"ld {scalar['ld_sectors_per_request']:.3f}, st {scalar['st_sectors_per_request']:.3f}")
    yield ("reduce1 (strided index) has shared-memory bank conflicts, reduce2 (sequential) none",
           strided["smem_ld_conflicts"] > 0 and sequential["smem_ld_conflicts"] == 0
           and sequential["smem_st_conflicts"] == 0,
           f"strided ld {strided['smem_ld_conflicts']}, sequential ld {sequential['smem_ld_conflicts']} "
           f"st {sequential['smem_st_conflicts']}")
    yield ("reduce0 (interleaved, %) diverges, reduce2 (sequential) does not",
           modulo["divergent_branches"] > 0 and sequential["divergent_branches"] == 0,
           f"divergent branch targets: modulo {modulo['divergent_branches']}, sequential "
           f"{sequential['divergent_branches']}; threads per instruction not predicated off: modulo "
           f"{modulo['threads_pred_on_per_inst']}, sequential {sequential['threads_pred_on_per_inst']}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bench", required=True)
    parser.add_argument("--workdir", required=True)
    args = parser.parse_args()
    if shutil.which("ncu") is None:
        print("SKIPPED: ncu (Nsight Compute) not found")
        return SKIP
    env = dict(os.environ, GPUPRIMS_BENCH=args.bench)
    run = subprocess.run(["bash", os.path.join(ROOT, "scripts", "profile.sh"), args.workdir, FILTER], env=env,
                         capture_output=True, text=True)
    print(run.stdout + run.stderr)
    if run.returncode != 0:
        for log in ("ncu.log", "bench.log"):
            path = os.path.join(args.workdir, log)
            if os.path.exists(path):
                print(f"--- {log}\n" + open(path, encoding="utf-8", errors="replace").read()[-4000:])
        return 1
    rows = profile_report.load(os.path.join(args.workdir, "counters.csv"))
    failed = 0
    try:
        for description, holds, evidence in claims(rows):
            print(f"{'ok  ' if holds else 'FAIL'} {description}: {evidence}")
            failed += not holds
    except AssertionError as e:
        print(f"FAIL {e}")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
