#!/usr/bin/env python3
"""Checks that the backends are libraries behind one interface.

compiler/lib/Backends/<Name>/ is one backend's library; Common/ is what they
share. A file of a backend may include its own folder's headers and
Common's; a file of Common may include only Common's. The pipeline
(compiler/lib/Pipeline/) is the one place that knows every backend. An
include of another backend's header would tie two backends together (or
Common to one), which docs/design.md's map of where a change goes relies on
never happening.

Usage: check-layering.py ROOT (the repository); prints `FILE:LINE: ...` for
each include across backends and exits 1, or the count of files checked.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"Backends/([^/"]+)/')


def main(root):
    backends = os.path.join(root, "compiler", "lib", "Backends")
    problems, files = [], 0
    for folder in sorted(os.listdir(backends)):
        path = os.path.join(backends, folder)
        if not os.path.isdir(path):
            continue
        allowed = {"Common"} if folder == "Common" else {"Common", folder}
        for name in sorted(os.listdir(path)):
            if not name.endswith((".cpp", ".h")):
                continue
            files += 1
            with open(os.path.join(path, name), encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    match = INCLUDE.match(line)
                    if match and match.group(1) not in allowed:
                        problems.append(f"compiler/lib/Backends/{folder}/{name}:{number}: "
                                        f"includes a header of Backends/{match.group(1)}")
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"{files} files of the backends include no other backend")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
