#!/usr/bin/env python3
"""The loops of a kernel in `cuobjdump -sass` output and the opcodes each runs.

Usage: loops.py SASS [FUNCTION] [--loop ADDRESS] [--full]

SASS is the text cuobjdump -sass printed (or a .gz of it). Without
FUNCTION, lists the functions it holds. With FUNCTION (a substring of a
mangled name; the first match), prints each loop (a backward branch and
the instructions from its target to it) with its size and its opcodes by
count, the modifiers dropped (`--full`: kept). `--loop ADDRESS` (hex, a
loop's first address) prints that loop's instructions too.
How docs/performance.md counted the instructions a point and level of the
fused passes (2026-12-02 04:15-04:17).
"""
import argparse
import collections
import gzip
import re

INSTRUCTION = re.compile(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?);")
BACKWARD = re.compile(r"\bBRA\b.*?0x([0-9a-f]+)")
PREDICATE = re.compile(r"^@!?U?P\w+\s+")


def functions(path):
    """{mangled name: [(address, instruction text)]} in file order."""
    opener = gzip.open if path.endswith(".gz") else open
    found, current = {}, None
    with opener(path, "rt") as text:
        for line in text:
            if "Function :" in line:
                current = line.split("Function :")[1].strip()
                found[current] = []
            elif current is not None:
                match = INSTRUCTION.match(line)
                if match:
                    found[current].append((int(match.group(1), 16), match.group(2).strip()))
    return found


def loops(code):
    """[(first, last, body)] for every branch back to an earlier address."""
    index = {address: i for i, (address, _) in enumerate(code)}
    result = []
    for i, (address, text) in enumerate(code):
        match = BACKWARD.search(text)
        if match and int(match.group(1), 16) < address and int(match.group(1), 16) in index:
            first = int(match.group(1), 16)
            result.append((first, address, code[index[first]:i + 1]))
    return result


def opcodes(body, full):
    counts = collections.Counter()
    for _, text in body:
        op = PREDICATE.sub("", text).split()[0]
        counts[op if full else op.split(".")[0]] += 1
    return ", ".join(f"{op} {n}" for op, n in counts.most_common())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sass")
    parser.add_argument("function", nargs="?")
    parser.add_argument("--loop", help="a loop's first address (hex): print its instructions")
    parser.add_argument("--full", action="store_true", help="keep the opcodes' modifiers")
    args = parser.parse_args()
    found = functions(args.sass)
    if not args.function:
        for name, code in found.items():
            print(f"{len(code):6d} {name}")
        return
    name = next((n for n in found if args.function in n), None)
    if name is None:
        parser.error(f"no function matches '{args.function}'")
    print(f"{name}: {len(found[name])} instructions")
    for first, last, body in loops(found[name]):
        print(f"loop {first:#x}-{last:#x}: {len(body)} instructions; {opcodes(body, args.full)}")
        if args.loop and int(args.loop, 16) == first:
            for address, text in body:
                print(f"  {address:#07x} {text}")


if __name__ == "__main__":
    main()
