#!/usr/bin/env python3
"""sanitizer_jobs.py [--catch2-major N] < COMMANDS > JOBS: the GPU test programs' commands (one a
line, arguments tab-separated, as scripts/gpu-check.sh lists them) split into one command a test
case, and a test case with two or more top-level SECTIONs into one command a section, so that
compute-sanitizer (racecheck above all: about 5x initcheck's time) runs the suite as many short
processes at once.

The test cases and sections are read from each program's source (gpuprims_add_test in
test/CMakeLists.txt names it): TEST_CASE / TEMPLATE_TEST_CASE lines and SECTIONs indented by two
spaces in their bodies. Test cases tagged [large] or [slow] are left out, as gpu-check.sh leaves
them out of the sanitizer runs. Names are escaped for Catch2's test specs (a comma would split
one); a template test case's instances ("name - type") run as one command. A program whose source
is not found or has a test case not named by string literals, a section named at run time (its
test case stays whole), and every other command (the examples) pass through unchanged, so nothing
drops out of the run. The jobs of the programs with the most of them come first.

Each job fails if its spec matches no test: Catch2 3 does so by itself (and rejects `-w NoTests`),
Catch2 2 needs `-w NoTests`. --catch2-major names the Catch2 the programs were built with (the
build's test/catch2_major; default 3)."""
import argparse
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SKIP_TAGS = ("[large]", "[slow]")


def sources():
    text = open(os.path.join(ROOT, "test", "CMakeLists.txt")).read()
    return {"gpuprims_test_" + name: os.path.join(ROOT, "test", src)
            for name, src in re.findall(r"gpuprims_add_test\(NAME (\w+) SOURCES ([^\s)]+)", text)}


def spec(name):
    """A Catch2 test spec matching exactly the test case `name`."""
    return "".join("\\" + c if c in '\\,[]"~*' else c for c in name)


SECTION_LINE = r'^  SECTION\("((?:[^"\\]|\\.)*)"\)'


def helper_sections(text):
    """{name: [sections]} of the functions defined at column 0 (signature on one line) whose bodies
    hold top-level SECTIONs, all named by string literals: a helper that every type's test case
    calls (Catch2 runs a section wherever it is reached from)."""
    out = {}
    for m in re.finditer(r"^[A-Za-z_][^\n(;]*?\b(\w+)\([^)\n]*\)\s*\{\n(.*?)^\}", text, re.M | re.S):
        if "TEST_CASE" in m.group(1) or "SECTION" in m.group(1):
            continue
        names = re.findall(SECTION_LINE, m.group(2), re.M)
        if names and len(names) == len(re.findall(r"^  \w*SECTION\w*\(", m.group(2), re.M)):
            out[m.group(1)] = names
    return out


def test_cases(source):
    """(name, template, [top-level sections]) of each test case in `source` not tagged large/slow;
    None where some test case's name or tags are not string literals (read by pattern). A test
    case's sections include those of the helpers (helper_sections) its body calls at top level."""
    text = open(source).read()
    helpers = helper_sections(text)
    heads = list(re.finditer(
        r'^(TEMPLATE_)?TEST_CASE\("((?:[^"\\]|\\.)*)",\s*"([^"]*)"', text, re.M))
    if len(heads) != len(re.findall(r"^\w*TEST_CASE\w*\(", text, re.M)):
        return None  # a test case this reading does not understand: keep the program whole
    cases = []
    for i, m in enumerate(heads):
        if any(tag in m.group(3) for tag in SKIP_TAGS):
            continue
        body = text[m.end():heads[i + 1].start() if i + 1 < len(heads) else len(text)]
        sections = re.findall(SECTION_LINE, body, re.M)
        if len(sections) != len(re.findall(r"^  \w*SECTION\w*\(", body, re.M)):
            sections = []  # a section named at run time: the test case whole
        else:
            for call in re.findall(r"^  (\w+)(?:<[^;\n]*>)?\(", body, re.M):
                sections += helpers.get(call, [])
        cases.append((m.group(2), m.group(1) is not None, sections))
    return cases


def split(cmd, src, catch2_major):
    prog = cmd[0]
    cases = test_cases(src)
    if not cases or (len(cases) == 1 and len(cases[0][2]) < 2):  # None: not understood
        return [cmd]
    jobs = []
    for name, template, sections in cases:
        base = [prog, spec(name) + ("*" if template else ""), "~[large]~[slow]"]
        if catch2_major < 3:
            base += ["-w", "NoTests"]  # a spec that matches nothing exits non-zero (3: always)
        if len(sections) >= 2:
            jobs += [base + ["-c", section] for section in sections]
        else:
            jobs.append(base)
    return jobs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--catch2-major", type=int, default=3)
    args = parser.parse_args()
    srcs = sources()
    groups = []
    for line in sys.stdin:
        cmd = line.rstrip("\n").split("\t")
        if not cmd or not cmd[0]:
            continue
        src = srcs.get(os.path.basename(cmd[0]))
        groups.append(split(cmd, src, args.catch2_major) if src and os.path.exists(src) else [cmd])
    groups.sort(key=len, reverse=True)  # stable: programs of equal counts keep their order
    for jobs in groups:
        for job in jobs:
            print("\t".join(job))


if __name__ == "__main__":
    main()
