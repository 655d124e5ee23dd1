#!/usr/bin/env python3
"""Writes the list header the GPU test and benchmark drivers are built with.

Usage: stencil_list.py [--main DRIVER.cu] GENERATED.h [...] > LIST.h

For each generated header it emits `#include "<absolute path>"` and, from the
`static const stencilc_stencil_info NAME_info` definitions it finds, one
`#define STENCILC_FOR_EACH_STENCIL(X) X(name1) X(name2) ...`, and of those
that declare NAME_pass_range, `#define STENCILC_FOR_EACH_PASS_RANGE(X) ...`
(empty where none does). With --main it
then includes DRIVER.cu, so the output is the driver's whole translation
unit. Fails when a header defines no stencil.
"""
import os
import re
import sys

INFO = re.compile(r"\bstatic\s+const\s+stencilc_stencil_info\s+([A-Za-z_]\w*)_info\b")
PASS_RANGE = re.compile(r"^cudaError_t\s+([A-Za-z_]\w*)_pass_range\(", re.MULTILINE)


def main(argv):
    args = argv[1:]
    main_file = None
    if len(args) >= 2 and args[0] == "--main":
        main_file, args = os.path.abspath(args[1]), args[2:]
    if not args:
        sys.stderr.write(__doc__)
        return 2
    names = []
    ranged = []
    lines = ["// Written by stencil_list.py; do not edit."]
    for header in args:
        with open(header, encoding="utf-8") as f:
            text = f.read()
        found = INFO.findall(text)
        ranged += [n for n in PASS_RANGE.findall(text) if n in found]
        if not found:
            sys.stderr.write(f"{header}: no 'static const stencilc_stencil_info NAME_info'\n")
            return 1
        lines.append(f'#include "{os.path.abspath(header)}"')
        names += found
    lines.append("#define STENCILC_FOR_EACH_STENCIL(X) " + " ".join(f"X({n})" for n in names))
    lines.append("#define STENCILC_FOR_EACH_PASS_RANGE(X) " + " ".join(f"X({n})" for n in ranged))
    if main_file:
        lines.append(f'#include "{main_file}"')
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
