#!/usr/bin/env python3
"""Counts the machine instructions of each loop of a kernel, by opcode.

Usage: sass-loops.py [--cuobjdump PATH | --sass TEXT] CUBIN KERNEL-SUBSTRING

Disassembles CUBIN (nvcc -cubin -arch=sm_XX) with cuobjdump -sass and, for
each function whose mangled name contains KERNEL-SUBSTRING, prints one line
per backward branch: the address range from its target to the branch, the
instructions in it and the most common opcodes (predicates and modifiers
dropped: `@!P0 IMAD.MOV.U32` counts as IMAD). A loop's range includes the
loops nested in it and any out-of-line code laid out inside it, so read the
ranges against each other. --sass reads a saved disassembly (cuobjdump
-sass's output) instead of running cuobjdump on CUBIN. It reads the compiler's output only: the
dynamic counts and what binds a kernel need a profiler on the GPU
(docs/performance.md has examples where fewer instructions ran slower).

The CUDA toolkit here has no cuobjdump; `pip download nvidia-cuda-cuobjdump`
gives one inside the wheel (nvidia/cu13/bin/cuobjdump), and cuobjdump -sass
runs nvdisasm, which `pip download nvidia-cuda-nvdisasm` gives the same way
(put its bin directory on PATH, or name it in NVDISASM_PATH). Exit status 2 when
cuobjdump is missing or fails, 1 when no function matches.
"""
import argparse
import collections
import re
import shutil
import subprocess
import sys

INSTRUCTION = re.compile(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
BRANCH_TARGET = re.compile(r"\bBRA\b.*?0x([0-9a-f]+)")
PREDICATE = re.compile(r"^@!?U?P[T0-9]+\s+")


def functions(sass):
    """(name, [(address, text)]) of each function of cuobjdump's output."""
    for chunk in re.split(r"\n\s*Function : ", sass)[1:]:
        name = chunk.split("\n", 1)[0].strip()
        body = [(int(m.group(1), 16), m.group(2)) for m in map(INSTRUCTION.match, chunk.split("\n"))
                if m]
        yield name, body


def opcode(text):
    return PREDICATE.sub("", text).split()[0].split(".")[0]


def loops(body):
    """(first, last, Counter of opcodes) of each backward branch."""
    for address, text in body:
        m = BRANCH_TARGET.search(text)
        if m and int(m.group(1), 16) < address:
            first = int(m.group(1), 16)
            yield first, address, collections.Counter(
                opcode(t) for a, t in body if first <= a <= address)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuobjdump", default=shutil.which("cuobjdump") or "cuobjdump")
    parser.add_argument("--sass", help="a saved cuobjdump -sass output to read instead")
    parser.add_argument("cubin")
    parser.add_argument("kernel")
    args = parser.parse_args(argv[1:])
    try:
        if args.sass:
            with open(args.sass, encoding="utf-8") as f:
                sass = f.read()
        else:
            sass = subprocess.run([args.cuobjdump, "-sass", args.cubin], capture_output=True,
                                  text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"sass-loops: cannot read the disassembly: {e}", file=sys.stderr)
        return 2
    found = False
    for name, body in functions(sass):
        if args.kernel not in name:
            continue
        found = True
        print(f"{name}: {len(body)} instructions")
        for first, last, ops in loops(body):
            common = ", ".join(f"{op} {n}" for op, n in ops.most_common(12))
            print(f"  loop {first:#x}..{last:#x}: {sum(ops.values())} instructions; {common}")
    if not found:
        print(f"sass-loops: no function of {args.cubin} contains '{args.kernel}'", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
