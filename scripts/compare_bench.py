#!/usr/bin/env python3
"""Compare two builds of gpuprims_bench measured in one session: each row's median GB/s, before and
after, and each default's ratio to its family's best baseline in both.

    compare_bench.py --old old1.json [old2.json ...] --new new1.json [new2.json ...]
                     [--rename OLD_VARIANT=NEW_VARIANT ...] [--out table.md]

Rows are matched by family, variant (after --rename) and arguments; a row's value is the median over
the files given (alternate old and new runs, so drift hits both alike). Prints a markdown table.
"""
import argparse
import collections
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmark"))
import report  # noqa: E402


def load(paths, rename):
    values = collections.defaultdict(list)
    labels = {}
    for path in paths:
        _, rows = report.load(path)
        for r in rows:
            variant = rename.get(r.variant, r.variant)
            key = (r.family, variant, r.value)
            values[key].append(r.gbps)
            labels[key] = "baseline" if r.baseline else labels.get(key, "")
    return {k: statistics.median(v) for k, v in values.items()}, labels


def best_baselines(values, labels):
    best = {}
    for (family, variant, value), gbps in values.items():
        if labels.get((family, variant, value)) == "baseline":
            if (family, value) not in best or gbps > best[(family, value)][1]:
                best[(family, value)] = (variant, gbps)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", nargs="+", required=True)
    ap.add_argument("--new", nargs="+", required=True)
    ap.add_argument("--rename", nargs="*", default=[])
    ap.add_argument("--out")
    args = ap.parse_args()
    rename = dict(item.split("=", 1) for item in args.rename)
    old, old_labels = load(args.old, rename)
    new, new_labels = load(args.new, {})
    old_best, new_best = best_baselines(old, old_labels), best_baselines(new, new_labels)
    lines = ["| family | variant | args | old GB/s | new GB/s | new / old | old vs best baseline | new vs best baseline |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    worst = None
    for key in sorted(set(old) & set(new)):
        family, variant, value = key
        args_text = "x".join(str(v) for v in value)
        ratio = new[key] / old[key]
        is_baseline = new_labels.get(key) == "baseline"
        cells = [family, variant + (" (baseline)" if is_baseline else ""), args_text, f"{old[key]:.1f}",
                 f"{new[key]:.1f}", f"{ratio:.4f}"]
        if is_baseline:
            cells += ["", ""]
        else:
            ob, nb = old_best.get((family, value)), new_best.get((family, value))
            cells += [f"{old[key] / ob[1]:.3f}x {ob[0]}" if ob else "", f"{new[key] / nb[1]:.3f}x {nb[0]}" if nb else ""]
            worst = ratio if worst is None or ratio < worst else worst
        lines.append("| " + " | ".join(cells) + " |")
    unmatched = sorted(set(old) ^ set(new))
    text = "\n".join(lines)
    if worst is not None:
        text += f"\n\nLowest new / old among the non-baseline rows: {worst:.4f}"
    if unmatched:
        text += f"\nUnmatched rows: {len(unmatched)} ({', '.join('/'.join(map(str, k[:2])) for k in unmatched[:8])})"
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
