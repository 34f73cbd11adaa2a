#!/usr/bin/env python3
"""Compile a CUDA source to a cubin and assert what its SASS must (not) contain.

Rules live in the source as comments, one per line:

    // sass: <function regex> has <instruction regex>
    // sass: <function regex> lacks <instruction regex>
    // sass: <function regex> has at most <count> <instruction regex>

Function regexes are searched in the demangled names cuobjdump reports (c++filt when present);
instruction regexes are matched against the opcode with its modifiers (``LDG.E.128.CONSTANT``).
and, from ptxas's resource report,

    // ptxas: <function regex> smem <bytes>

for a kernel's static shared memory. Every rule must match at least one function. Always checked, for every function: no local memory
(no LDL/STL, no stack frame) and no register spills in the ptxas report.

Exit codes: 0 all rules hold, 1 a rule failed or the build broke, 77 cuobjdump is missing (the
ptxas checks still ran), which ctest reports as skipped.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

SKIP = 77
RULE_LINE = re.compile(r"^\s*//\s*sass:")
PTXAS_RULE_LINE = re.compile(r"^\s*//\s*ptxas:")
PTXAS_RULE = re.compile(r"^\s*//\s*ptxas:\s*(.+?)\s+smem\s+(\d+)\s*$")
PTXAS_ENTRY = re.compile(r"Compiling entry function '(\S+)'")
PTXAS_SMEM = re.compile(r"Used \d+ registers.*?(?:(\d+) bytes smem|$)")
RULE = re.compile(r"^\s*//\s*sass:\s*(.+?)\s+(has at most \d+|has|lacks)\s+(\S+)\s*$")
FUNCTION = re.compile(r"^\s*Function\s*:\s*(\S+)")
INSTRUCTION = re.compile(r"^\s*/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)")
PTXAS_FUNCTION = re.compile(r"Function properties for (\S+)")
PTXAS_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
LOCAL_MEMORY = re.compile(r"^(LDL|STL)\b")


def parse_rules(source_text):
    rules = []
    for number, line in enumerate(source_text.splitlines(), 1):
        if not RULE_LINE.match(line):
            continue
        m = RULE.match(line)
        if not m:
            raise ValueError(
                f"line {number}: not '// sass: <function regex> has|lacks|has at most N <instruction regex>'")
        rules.append((m.group(1), m.group(2), m.group(3)))
    return rules


def parse_ptxas_rules(source_text):
    rules = []
    for number, line in enumerate(source_text.splitlines(), 1):
        if not PTXAS_RULE_LINE.match(line):
            continue
        m = PTXAS_RULE.match(line)
        if not m:
            raise ValueError(f"line {number}: not '// ptxas: <function regex> smem <bytes>'")
        rules.append((m.group(1), int(m.group(2))))
    return rules


def parse_smem(text):
    """Map of kernel name -> static shared memory bytes, from ptxas -v."""
    smem = {}
    current = None
    for line in text.splitlines():
        m = PTXAS_ENTRY.search(line)
        if m:
            current = m.group(1)
            continue
        m = PTXAS_SMEM.search(line)
        if m and current is not None:
            smem[current] = int(m.group(1) or 0)
            current = None
    return smem


def check_smem(rules, smem):
    names = demangle(sorted(smem))
    report, failures = [], 0
    for func_re, expected in rules:
        matched = [f for f in smem if re.search(func_re, names[f]) or re.search(func_re, f)]
        if not matched:
            failures += 1
            report.append(f"FAIL ptxas: {func_re} smem {expected}: no kernel matches")
        for f in matched:
            ok = smem[f] == expected
            failures += 0 if ok else 1
            report.append(f"{'ok  ' if ok else 'FAIL'} {names[f]} smem {smem[f]} (expected {expected})")
    return report, failures


def parse_sass(text):
    """Map of function name -> list of opcodes (with modifiers)."""
    functions = {}
    current = None
    for line in text.splitlines():
        m = FUNCTION.match(line)
        if m:
            current = m.group(1)
            functions[current] = []
            continue
        m = INSTRUCTION.match(line)
        if m and current is not None:
            functions[current].append(m.group(1))
    return functions


def parse_ptxas(text):
    """Map of function name -> (stack frame, spill stores, spill loads) bytes."""
    frames = {}
    current = None
    for line in text.splitlines():
        m = PTXAS_FUNCTION.search(line)
        if m:
            current = m.group(1)
            continue
        m = PTXAS_FRAME.search(line)
        if m and current is not None:
            frames[current] = tuple(int(g) for g in m.groups())
            current = None
    return frames


def demangle(names):
    tool = shutil.which("c++filt")
    if not tool or not names:
        return {n: n for n in names}
    out = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True, check=True)
    return dict(zip(names, out.stdout.splitlines()))


def check_resources(frames):
    failures = []
    for name, (frame, stores, loads) in frames.items():
        if frame or stores or loads:
            failures.append(f"{name}: {frame} bytes stack frame, {stores} spill stores, {loads} spill loads")
    return failures


def check_rules(rules, functions):
    """Returns (report lines, failure count)."""
    names = demangle(sorted(functions))
    report, failures = [], 0
    for name, opcodes in sorted(functions.items()):
        local = [op for op in opcodes if LOCAL_MEMORY.match(op)]
        if local:
            failures += 1
            report.append(f"FAIL {names[name]}: local memory ({', '.join(sorted(set(local)))})")
    for func_re, verb, op_re in rules:
        matched = [f for f in functions if re.search(func_re, names[f]) or re.search(func_re, f)]
        if not matched:
            failures += 1
            report.append(f"FAIL sass: {func_re} {verb} {op_re}: no function matches")
            continue
        for f in matched:
            hits = [op for op in functions[f] if re.match(op_re, op)]
            if verb.startswith("has at most"):
                ok = len(hits) <= int(verb.split()[-1])
                detail = f" (found {len(hits)})"
            else:
                ok = bool(hits) if verb == "has" else not hits
                detail = f" (found {', '.join(sorted(set(hits)))})" if hits and verb == "lacks" else ""
            failures += 0 if ok else 1
            report.append(f"{'ok  ' if ok else 'FAIL'} {names[f]} {verb} {op_re}{detail}")
    return report, failures


def find_cuobjdump(explicit, nvcc):
    candidates = [explicit] if explicit else []
    candidates.append(shutil.which("cuobjdump"))
    candidates.append(os.path.join(os.path.dirname(os.path.realpath(nvcc)), "cuobjdump"))
    try:  # pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm
        import nvidia  # noqa: PLC0415

        for root in nvidia.__path__:
            candidates += sorted(glob.glob(os.path.join(root, "cu*", "bin", "cuobjdump")))
    except ImportError:
        pass
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source")
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--workdir", default=".")
    ap.add_argument("--cuobjdump", default="")
    args = ap.parse_args()

    os.makedirs(args.workdir, exist_ok=True)
    cubin = os.path.join(args.workdir, os.path.splitext(os.path.basename(args.source))[0] + ".cubin")
    cmd = [args.nvcc, "-cubin", f"-arch={args.arch}", "-std=c++17", "-O3", "-Xptxas=-v",
           "-Werror=all-warnings", "-o", cubin, args.source] + [f"-I{i}" for i in args.include]
    build = subprocess.run(cmd, capture_output=True, text=True)
    if build.returncode != 0:
        print(" ".join(cmd))
        print(build.stdout + build.stderr)
        return 1
    with open(args.source, encoding="utf-8") as f:
        text = f.read()
        try:
            rules = parse_rules(text)
            smem_rules = parse_ptxas_rules(text)
        except ValueError as e:
            print(f"FAIL {args.source}: {e}")
            return 1
    if not rules:
        print(f"FAIL {args.source}: no '// sass:' rules")
        return 1

    frames = parse_ptxas(build.stdout + build.stderr)
    failures = check_resources(frames)
    for line in failures:
        print("FAIL " + line)
    smem_report, smem_failures = check_smem(smem_rules, parse_smem(build.stdout + build.stderr))
    if smem_report:
        print("\n".join(smem_report))
    print(f"ptxas: {len(frames)} functions, {len(failures)} with stack frame or spills, {smem_failures} smem rules failed")
    failures += ["smem"] * smem_failures

    tool = find_cuobjdump(args.cuobjdump, args.nvcc)
    if tool is None:
        print("SKIPPED: cuobjdump not found (pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm);"
              f" {len(rules)} SASS rules not checked")
        return 1 if failures else SKIP
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(tool) + os.pathsep + env.get("PATH", "")  # its nvdisasm
    dump = subprocess.run([tool, "-sass", cubin], capture_output=True, text=True, env=env)
    if dump.returncode != 0:
        print(dump.stdout + dump.stderr)
        return 1
    functions = parse_sass(dump.stdout)
    report, rule_failures = check_rules(rules, functions)
    print("\n".join(report))
    print(f"{tool}: {len(functions)} functions, {len(rules)} rules, {rule_failures} failures")
    return 1 if failures or rule_failures else 0


if __name__ == "__main__":
    sys.exit(main())
