#!/usr/bin/env python3
"""Checks that every hand-written C++/CUDA file's banner names the file.

Why: a file's first line is where a reader learns which file they are in and
what it is for. When a file is renamed or split, the banner is easily left
behind and then names a file that no longer exists (Pipeline.cpp's banner
said `Backend.cpp`, TensorPlanner.cpp's said `Planner.cpp`).

What is checked: every file that `git ls-files` lists (what the repository
holds, not what happens to lie in the work tree) under

    compiler/  runtime/  test/support/  fuzz/  python/

whose name ends in one of

    .c .cc .cpp .h .hpp .cu .cuh .def .inc .tpl

The banner is the file's first line. It must be a comment in one of three
forms, NAME being the first run of non-blank characters after the opener,
followed by a blank, a hyphen and a blank:

    //===- NAME - text ...        (LLVM style: "//===" and one or more "-")
    // NAME - text ...
    /* NAME - text ...

NAME names the file when it is the file's path, or a trailing part of it
that starts at a folder boundary: `boundary.cuh`,
`stencilc/device/boundary.cuh` and `runtime/include/stencilc/device/boundary.cuh`
all name runtime/include/stencilc/device/boundary.cuh; `Backend.cpp` does not
name compiler/lib/Pipeline/Pipeline.cpp, nor `device/boundary.h` the file
above.

A file whose first line is not such a comment fails as having no banner.

Usage: check_banners.py ROOT   (ROOT: the repository's top folder)
Prints one line per failure, `PATH:1: ...`, and exits 1 if there is any,
0 if there is none, 2 if ROOT's files cannot be listed.
"""

import os
import re
import subprocess
import sys

FOLDERS = ("compiler/", "runtime/", "test/support/", "fuzz/", "python/")
EXTENSIONS = (".c", ".cc", ".cpp", ".h", ".hpp", ".cu", ".cuh", ".def", ".inc", ".tpl")

# "//===-" (then any further "-"), "//" or "/*"; NAME; " - ".
BANNER = re.compile(r"^(?://===-+|//|/\*)\s*(\S+)\s+-\s")


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        sys.exit(f"check_banners.py: cannot list the files of {root} with git: {error}")
    return [path for path in out.split("\0") if path]


def checked(path):
    return path.startswith(FOLDERS) and path.endswith(EXTENSIONS)


def names(banner_name, path):
    """Whether banner_name is the path or a trailing part of it at a '/'."""
    return path == banner_name or path.endswith("/" + banner_name)


def first_line(root, path):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as file:
        return file.readline().rstrip("\n")


def problem(root, path):
    """None when the banner names path, else what is wrong."""
    line = first_line(root, path)
    match = BANNER.match(line)
    if not match:
        return ("no banner: the first line is not '//===- NAME - ...', '// NAME - ...' "
                f"or '/* NAME - ...' ({line[:60]!r})")
    banner_name = match.group(1)
    if names(banner_name, path):
        return None
    return f"the banner names '{banner_name}', not this file ('{os.path.basename(path)}')"


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    root = argv[1]
    files = [path for path in tracked_files(root) if checked(path)]
    if not files:
        sys.exit(f"check_banners.py: no checked files under {root}: wrong ROOT?")
    failures = [(path, message) for path in files
                for message in [problem(root, path)] if message]
    for path, message in failures:
        print(f"{path}:1: {message}")
    print(f"{len(files)} files checked, {len(failures)} with a banner that does not name them")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
