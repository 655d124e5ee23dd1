#!/usr/bin/env python3
"""Checks that every section of the code generator's templates is balanced.

A template file (compiler/lib/Backends/*/templates/*.tpl) is split into
sections by `//@ section NAME` lines; the emitters fill each section with
fmt named arguments, so a literal brace of the generated code is written
doubled (`{{`, `}}`) and a single brace is a hole (`{name}`). A section is
balanced when, reading its literal braces (the doubled ones) in order, no
`}}` closes more than was opened and every `{{` is closed by the section's
end: a section never leaves a scope for another section, or for C++ code, to
close (docs/design.md, "Code generation"). Braces in `//` comments count
too: a comment that opens a scope it does not close is as misleading as code.
(Parentheses are not checked: comments write half-open ranges, `[a, b)`.)

Usage: check-templates.py PATH... (a template, or a folder whose
Backends/*/templates/*.tpl and */templates/*.tpl are checked); prints `FILE:LINE: section NAME ...`
for each unbalanced section and exits 1, or prints the count checked.
"""
import glob
import os
import re
import sys

SECTION = re.compile(r"^//@ section (\S+)\s*$")


def literal_braces(line):
    """The literal braces of a template line, in order: `{{` and `}}` are
    braces of the generated code, single braces delimit holes."""
    return [pair[0] for pair in re.findall(r"\{\{|\}\}|\{[^{}]*\}", line) if pair in ("{{", "}}")]


def check_section(path, name, first_line, lines):
    """Problems of one section, as messages."""
    problems = []
    stack = []
    for number, line in enumerate(lines, first_line):
        for token in literal_braces(line):
            if token == "{":
                stack.append((token, number))
            elif stack:
                stack.pop()
            else:
                problems.append(f"{path}:{number}: section {name} closes a '}}' it did not open")
    for token, number in stack:
        problems.append(f"{path}:{number}: section {name} leaves '{token}' open")
    return problems


def sections(path):
    """(name, first line number, lines) of each section of a template file."""
    current, first, body = None, 0, []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f.read().split("\n"), 1):
            match = SECTION.match(line)
            if match:
                if current:
                    yield current, first, body
                current, first, body = match.group(1), number + 1, []
            elif current:
                body.append(line)
    if current:
        yield current, first, body


def template_files(arguments):
    """The template files named, folders searched for templates/*.tpl."""
    files = []
    for argument in arguments:
        if os.path.isdir(argument):
            files += sorted(glob.glob(os.path.join(argument, "**", "templates", "*.tpl"),
                                      recursive=True))
        else:
            files.append(argument)
    return files


def main(arguments):
    paths = template_files(arguments)
    if not paths:
        print("no templates found")
        return 1
    problems, count = [], 0
    for path in paths:
        for name, first, body in sections(path):
            count += 1
            problems += check_section(path, name, first, body)
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"{count} sections in {len(paths)} templates balanced")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
