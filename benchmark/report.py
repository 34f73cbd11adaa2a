#!/usr/bin/env python3
"""Turn gpuprims_bench's JSON (--benchmark_out) into a markdown table and a plot per family.

    report.py results.json [--out DIR]

Benchmarks are named <family>/<variant>/<arg>:<value>[/<arg>:<value>...]; those labelled
"baseline" are the family's baselines. Each row reports the median time, GB/s, % of the device's
theoretical DRAM bandwidth, and the ratio of its GB/s to the best baseline at the same arguments
(>1: faster). Plots put the product of the arguments on x when there are several (rows x cols x
batch: elements).
Writes DIR/report.md and DIR/<family>.png (the plots need matplotlib; without it the table is
still written).
"""
import argparse
import collections
import json
import os
import re
import sys

ARG = re.compile(r"^(?P<name>[A-Za-z_]+):(?P<value>-?\d+)$")

Row = collections.namedtuple("Row", "family variant arg value median_us gbps peak_pct baseline")


def parse_name(name):
    """(family, variant, arg names joined by 'x', tuple of values), or None."""
    parts = name.split("/")
    first = next((i for i, p in enumerate(parts) if i >= 2 and ARG.match(p)), None)
    if first is None:
        return None
    args = [ARG.match(p) for p in parts[first:] if ARG.match(p) and not p.startswith("min_time")]
    return parts[0], "/".join(parts[1:first]), "x".join(a["name"] for a in args), tuple(int(a["value"]) for a in args)


def load(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    rows = []
    entries = data.get("benchmarks", [])
    has_median = any(b.get("aggregate_name") == "median" for b in entries)
    for b in entries:
        if b.get("error_occurred"):
            continue
        if has_median and b.get("aggregate_name") != "median":
            continue
        if not has_median and b.get("run_type", "iteration") != "iteration":
            continue
        parsed = parse_name(b.get("run_name", b["name"]))
        if not parsed or "GB/s" not in b:
            continue
        family, variant, arg, value = parsed
        rows.append(Row(family, variant, arg, value, b["median_us"], b["GB/s"], b["peak_pct"],
                        b.get("label", "") == "baseline"))
    return data.get("context", {}), rows


def with_ratios(rows):
    """(row, ratio to the best baseline of its family and argument, that baseline's name)."""
    best = {}
    for r in rows:
        key = (r.family, r.value)
        if r.baseline and (key not in best or r.gbps > best[key].gbps):
            best[key] = r
    out = []
    for r in rows:
        b = best.get((r.family, r.value))
        out.append((r, r.gbps / b.gbps if b else None, b.variant if b else None))
    return out


def fmt_value(arg, value):
    if arg == "n" and len(value) == 1 and value[0] > 0 and value[0] & (value[0] - 1) == 0:
        return f"2^{value[0].bit_length() - 1}"
    return "x".join(str(v) for v in value)


def x_of(value):
    product = 1
    for v in value:
        product *= v
    return product


def table(family_rows):
    lines = ["| variant | {} | median (us) | GB/s | % of peak | vs best baseline |".format(family_rows[0][0].arg),
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for r, ratio, base in sorted(family_rows, key=lambda x: (x[0].value, not x[0].baseline, -x[0].gbps)):
        name = f"{r.variant} (baseline)" if r.baseline else r.variant
        ratio_text = "" if ratio is None else f"{ratio:.3f}x {base}"
        lines.append(f"| {name} | {fmt_value(r.arg, r.value)} | {r.median_us:.2f} | {r.gbps:.1f} | "
                     f"{r.peak_pct:.1f} | {ratio_text} |")
    return "\n".join(lines)


def plot(family, family_rows, path):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(8, 5))
    by_variant = collections.defaultdict(list)
    for r, _, _ in family_rows:
        by_variant[(r.variant, r.baseline)].append(r)
    for (variant, baseline), rs in sorted(by_variant.items()):
        rs.sort(key=lambda r: x_of(r.value))
        ax.plot([x_of(r.value) for r in rs], [r.gbps for r in rs], "--" if baseline else "-", marker="o",
                label=variant + (" (baseline)" if baseline else ""))
    values = [x_of(r.value) for r, _, _ in family_rows]
    if min(values) > 0 and max(values) / min(values) >= 16:
        ax.set_xscale("log", base=2)
    arg = family_rows[0][0].arg
    ax.set_xlabel(arg if "x" not in arg else f"elements ({arg})")
    ax.set_ylabel("GB/s (read + write, median)")
    ax.set_title(family)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def main():
    ap = argparse.ArgumentParser(description="gpuprims_bench JSON -> markdown table and plots")
    ap.add_argument("json")
    ap.add_argument("--out", default=".")
    ap.add_argument("--quiet", action="store_true", help="say where the report went instead of printing it")
    args = ap.parse_args()
    context, rows = load(args.json)
    if not rows:
        print(f"{args.json}: no gpuprims benchmark results", file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    families = collections.OrderedDict()
    for item in with_ratios(rows):
        families.setdefault(item[0].family, []).append(item)

    parts = [f"Device: {context.get('device', '?')} (sm_{context.get('compute_capability', '?').replace('.', '')}), "
             f"CUDA driver {context.get('cuda_driver', '?')}, theoretical DRAM bandwidth "
             f"{float(context.get('peak_GBps', 'nan')):.0f} GB/s, run {context.get('date', '?')}.", ""]
    for family, family_rows in families.items():
        parts += [f"### {family}", "", table(family_rows), ""]
        if plot(family, family_rows, os.path.join(args.out, f"{family}.png")):
            parts += [f"![{family}]({family}.png)", ""]
        else:
            print("matplotlib not found: no plots written", file=sys.stderr)
    report = "\n".join(parts)
    with open(os.path.join(args.out, "report.md"), "w", encoding="utf-8") as f:
        f.write(report)
    if args.quiet:
        plots = sum(1 for family in families if os.path.exists(os.path.join(args.out, f"{family}.png")))
        print(f"report: {os.path.join(args.out, 'report.md')} ({len(families)} families, {plots} plots)")
    else:
        print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
