#!/usr/bin/env python3
"""check_quick_tier.py: the fast tier README.md describes is the one CTest runs.

Why: `scripts/run-tests --quick` runs the CTest tests labelled `quick`. The
README says which lit suites that is and what it leaves out; a suite that
gains or loses the label, or a slow test that gains it, would make the
README wrong and the edit-test loop slow without anyone noticing.

    check_quick_tier.py [--may-be-absent NAME]... README QUICK_LIST ALL_LIST

QUICK_LIST and ALL_LIST are the outputs of `ctest -N -L '^quick$'` and
`ctest -N`. README's paragraph that starts with "`scripts/run-tests
--quick`" names the lit suites of the tier after "lit suites" (up to the end
of that sentence) and what it leaves out after "It leaves out": lit suite
names (`Compile`: the test lit-Compile) or CTest test names, a trailing `*`
standing for any ending. Checked:
  - the quick lit suites are exactly the documented ones;
  - every test left out exists and none of them is quick; a name given with
    --may-be-absent may name no test (this build does not define it: the
    CMake consumer and the MPI runs need the CUDA runtime, dist-* also MPI);
  - every quick test is one of the whole suite's (the tier is a subset).
Each failure prints as one line; the exit status is 1 if there is any.
"""
import re
import sys


def ctest_names(path):
    """The test names of a `ctest -N` listing ("  Test  #12: lit-Driver")."""
    with open(path, encoding="utf-8") as listing:
        return [m.group(1) for m in re.finditer(r"Test\s+#\d+: (\S+)", listing.read())]


def quick_paragraph(readme):
    """README's paragraph that describes `scripts/run-tests --quick`."""
    with open(readme, encoding="utf-8") as text:
        for paragraph in re.split(r"\n\s*\n", text.read()):
            if paragraph.lstrip().startswith("`scripts/run-tests --quick`"):
                return " ".join(paragraph.split())
    return None


def spans(text):
    return re.findall(r"`([^`]+)`", text)


def documented(paragraph):
    """(the quick lit suites, what the tier leaves out) as the paragraph says."""
    suites = re.search(r"lit suites (.*?)\.(\s|$)", paragraph)
    left_out = re.search(r"It leaves out (.*?)\.(\s|$)", paragraph)
    return (spans(suites.group(1)) if suites else [],
            spans(left_out.group(1)) if left_out else [])


def matching(name, tests):
    """The tests a documented name stands for: a lit suite, a test, a prefix*."""
    if name.endswith("*"):
        return [t for t in tests if t.startswith(name[:-1])]
    return [t for t in tests if t in (name, "lit-" + name)]


def check(readme, quick, every, may_be_absent=()):
    paragraph = quick_paragraph(readme)
    if paragraph is None:
        return [f"{readme}: no paragraph starting with `scripts/run-tests --quick`"]
    suites, left_out = documented(paragraph)
    failures = []
    quick_suites = sorted(t[len("lit-"):] for t in quick if t.startswith("lit-"))
    for suite in sorted(set(suites) - set(quick_suites)):
        failures.append(f"{readme}: documents lit suite '{suite}' as quick; CTest's lit-{suite} "
                        "is not labelled quick")
    for suite in sorted(set(quick_suites) - set(suites)):
        failures.append(f"lit-{suite} is labelled quick; {readme} does not name '{suite}' "
                        "among the quick suites")
    for name in left_out:
        if not matching(name, every) and name not in may_be_absent:
            failures.append(f"{readme}: the tier leaves out '{name}', which names no CTest test")
        for test in matching(name, quick):
            failures.append(f"{test} is labelled quick; {readme} says the tier leaves out '{name}'")
    for test in sorted(set(quick) - set(every)):
        failures.append(f"{test} is quick but not in the whole suite")
    return failures


def main(argv):
    args, may_be_absent = argv[1:], []
    while len(args) >= 2 and args[0] == "--may-be-absent":
        may_be_absent.append(args[1])
        args = args[2:]
    if len(args) != 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    readme, quick, every = args[0], ctest_names(args[1]), ctest_names(args[2])
    failures = check(readme, quick, every, may_be_absent)
    print("\n".join(failures + [f"{len(quick)} quick tests of {len(every)}, "
                                 f"{len(failures)} problems"]))
    return int(bool(failures))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
