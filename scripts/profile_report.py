#!/usr/bin/env python3
"""Turn Nsight Compute's raw CSV (ncu --import R --csv --page raw) into a table per primitive.

    profile_report.py counters.csv [--out DIR]

Keeps the first launch of each distinct kernel (a ladder's first level is its largest), groups the
kernels by primitive (copy, transpose, reduce, stencil, and the libraries they are measured
against), and writes DIR/<primitive>.csv and DIR/<primitive>.md with: global load and store sectors
per request, L1 and L2 hit rates, shared-memory wavefronts per load and store instruction (1 for
conflict-free 4-byte accesses) and the bank-conflict counts, DRAM
throughput, achieved occupancy, registers per thread, branch efficiency, divergent branch targets,
and active / not-predicated-off threads per warp instruction. Also importable: load() gives the
rows as dicts of floats keyed by short names, for tests that assert on counters.
"""
import argparse
import csv
import os
import re
import sys

# short name -> ncu metric
METRICS = {
    "registers": "launch__registers_per_thread",
    "occupancy_pct": "sm__warps_active.avg.pct_of_peak_sustained_active",
    "dram_pct": "dram__throughput.avg.pct_of_peak_sustained_elapsed",
    "ld_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "ld_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "st_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "st_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1_hit_pct": "l1tex__t_sector_hit_rate.pct",
    "l2_hit_pct": "lts__t_sector_hit_rate.pct",
    "smem_ld_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smem_ld_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "smem_st_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smem_st_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "branch_uniform_pct": "smsp__sass_average_branch_targets_threads_uniform.pct",
    "divergent_branches": "smsp__sass_branch_targets_threads_divergent.sum",
    "threads_per_inst": "smsp__thread_inst_executed_per_inst_executed.ratio",
    "threads_pred_on_per_inst": "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio",
    "smem_ld_inst": "smsp__sass_inst_executed_op_shared_ld.sum",
    "smem_st_inst": "smsp__sass_inst_executed_op_shared_st.sum",
    "smem_atom_wavefronts": "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
    "smem_atom_inst": "smsp__sass_inst_executed_op_shared_atom.sum",
    "instructions": "smsp__inst_executed.sum",
}

PRIMITIVES = [
    ("transpose", re.compile(r"transpose|geam", re.I)),
    ("stencil", re.compile(r"stencil", re.I)),
    ("reduce", re.compile(r"reduce|ladder_kernel|segments_", re.I)),
    ("histogram", re.compile(r"histogram", re.I)),
    ("copy", re.compile(r"copy|Transform|offset|notes_scalar", re.I)),
    ("memory-access", re.compile(r"aos_|soa_|axpy|mapped", re.I)),
]

COLUMNS = [
    ("kernel", "kernel"),
    ("ld sectors/req", "ld_sectors_per_request"),
    ("st sectors/req", "st_sectors_per_request"),
    ("L1 hit %", "l1_hit_pct"),
    ("L2 hit %", "l2_hit_pct"),
    ("smem ld wavefronts/inst", "smem_ld_wavefronts_per_inst"),
    ("smem st wavefronts/inst", "smem_st_wavefronts_per_inst"),
    ("smem atom wavefronts/inst", "smem_atom_wavefronts_per_inst"),
    ("smem ld conflicts", "smem_ld_conflicts"),
    ("smem st conflicts", "smem_st_conflicts"),
    ("DRAM % peak", "dram_pct"),
    ("occupancy %", "occupancy_pct"),
    ("regs", "registers"),
    ("branch eff. %", "branch_uniform_pct"),
    ("divergent branches", "divergent_branches"),
    ("threads/inst (pred on)", "threads_pred_on_per_inst"),
    ("warp instructions", "instructions"),
]


def short_name(name):
    """`void ns::detail::kernel<...>(args)` -> `kernel<...>` with namespaces dropped."""
    name = re.sub(r"^void\s+", "", name.strip())
    depth, cut = 0, len(name)
    for i, ch in enumerate(name):  # the argument list: the first '(' outside template brackets
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            cut = i
            break
    name = name[:cut]
    return re.sub(r"\b[A-Za-z_][A-Za-z0-9_]*::", "", name)


def number(text):
    text = (text or "").replace(",", "").strip()
    try:
        return float(text)
    except ValueError:
        return None


def load(path):
    """The first launch of each distinct kernel, in launch order, as dicts of short-named values."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header_at = next(i for i, r in enumerate(rows) if "Kernel Name" in r)
    header = rows[header_at]
    body = rows[header_at + 1:]
    if body and all(not number(c) for c in body[0][len(body[0]) // 2:]):
        body = body[1:]  # the units row
    index = {name: header.index(metric) for name, metric in METRICS.items() if metric in header}
    seen, out = set(), []
    for r in body:
        if len(r) != len(header):
            continue
        kernel = short_name(r[header.index("Kernel Name")])
        if kernel in seen:
            continue
        seen.add(kernel)
        values = {name: number(r[i]) for name, i in index.items()}
        for kind in ("ld", "st", "atom"):
            requests, sectors = values.get(f"{kind}_requests"), values.get(f"{kind}_sectors")
            if kind != "atom":
                values[f"{kind}_sectors_per_request"] = sectors / requests if requests and sectors is not None else None
            inst, wavefronts = values.get(f"smem_{kind}_inst"), values.get(f"smem_{kind}_wavefronts")
            values[f"smem_{kind}_wavefronts_per_inst"] = wavefronts / inst if inst and wavefronts is not None else None
        values["kernel"] = kernel
        values["primitive"] = next((p for p, rx in PRIMITIVES if rx.search(kernel)), "other")
        out.append(values)
    return out


def cell(value):
    if value is None:
        return "-"
    if isinstance(value, str):
        return "`" + value.replace("|", "\\|") + "`"
    if value == int(value) and abs(value) >= 10:
        return f"{int(value)}"
    return f"{value:.2f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv")
    parser.add_argument("--out", default=".")
    args = parser.parse_args()
    rows = load(args.csv)
    if not rows:
        print(f"{args.csv}: no kernels", file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    for primitive in sorted({r["primitive"] for r in rows}):
        mine = [r for r in rows if r["primitive"] == primitive]
        with open(os.path.join(args.out, primitive + ".csv"), "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow([title for title, _ in COLUMNS])
            for r in mine:
                w.writerow([r.get(key) if r.get(key) is not None else "" for _, key in COLUMNS])
        with open(os.path.join(args.out, primitive + ".md"), "w", encoding="utf-8") as f:
            f.write("| " + " | ".join(title for title, _ in COLUMNS) + " |\n")
            f.write("| --- |" + " ---: |" * (len(COLUMNS) - 1) + "\n")
            for r in mine:
                f.write("| " + " | ".join(cell(r.get(key)) for _, key in COLUMNS) + " |\n")
        print(f"{primitive}: {len(mine)} kernels -> {primitive}.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
