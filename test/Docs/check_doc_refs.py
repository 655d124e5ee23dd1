#!/usr/bin/env python3
"""Checks that the files and the code names the Markdown docs cite exist.

Why: the docs name files (`bench/results/...txt`, `TensorPlanner.cpp`) and
code (`TensorBlock::enterPlane`, `planTensorFields`) so that a reader can go
and look. Code moves and results are pruned; a name left behind sends the
reader nowhere. This check finds them.

    check_doc_refs.py paths ROOT     every cited path names a tracked file or folder
    check_doc_refs.py symbols ROOT   every cited code name occurs in a tracked source

ROOT is the repository's top folder. Each failure prints as
`DOC:LINE: missing path 'X'` or `DOC:LINE: missing symbol 'X'`; the exit
status is 1 if there is any, 0 if none, 2 if ROOT's files cannot be listed.
The repository is what `git ls-files` lists (what it holds, not what lies
in the work tree), so a doc naming a deleted file fails.

The docs are the tracked `*.md` files but test/Docs/'s (the inputs of this
check's own tests, stale on purpose). Fenced code blocks (``` or ~~~) are
examples, not citations, and are not read.

What a doc cites
----------------
- Every inline code span (CommonMark: a run of N backticks up to the next
  run of exactly N, possibly on the next line of the paragraph).
- Every Markdown link or image target, `[text](target)`, other than a URL or
  an `#anchor`.
- In the prose (outside code spans and links), only words that can hardly be
  anything else: a word ending in an extension of EXTENSIONS (`Planner.cpp`);
  a word starting with a top-level folder of the repository and a `/`
  (`docs/performance.md`); a camelCase word of five characters or more
  (lower case first, a capital later: `readInput`; shorter ones are
  formulas, `rTk`); a qualified name (`Plan::schedule`).

Paths
-----
A link's target must name a tracked file or folder relative to the doc's
folder, as a Markdown viewer resolves it.

A word of a code span (the span split at blanks, `<...>` read as one word)
or of the prose is a path when it has a `/` or ends in an extension of
EXTENSIONS, and is not:
  - outside the repository: starting with `/`, `~` or `$`, or with `://`;
  - an option or an assignment: starting with `-`, or with a `=`;
  - the word after `-o`: an output the command writes;
  - a bare extension or a list of them (`.cpp`, `.c/.cc/.cpp/.cxx`);
  - without a letter: a comment marker or arithmetic (`/*`, `1/2`);
  - in a build tree: starting with `build/` or `build-NAME/`;
  - in another tree git ignores: `.peers/` (the peers' sources,
    scripts/fetch-peers.sh) or `.gpu/` (files made here for the GPU
    machine);
  - a bare name (no `/`) ending in an extension of OUTPUT_EXTENSIONS, unless
    it starts with a date: a file a script or a run writes (`bench.csv`);
  - in OUTSIDE (the whole span or the word): a file that is not the
    repository's (a CUDA, MPI or NCCL header, what an install or an example
    writes), each with its reason.

Such a path exists when, with its placeholders read as wildcards, it names a
tracked file or folder (a folder: the path of one up to a `/`)
  1. relative to the doc's own folder (`../` and `./` allowed), or
  2. as a trailing part of a tracked path that starts at a `/`, or the whole
     path (`Simt/FusedEmulator.cpp`, `TensorPlanner.cpp`, `device/tensor.cuh`,
     `Compile/fields-tensor-3d`). This one rule stands for the roots the docs
     write paths from (the repository, compiler/lib/, compiler/lib/Backends/,
     runtime/include/, runtime/include/stencilc/, test/) without a list of
     them, at the price of accepting a name that is unique nowhere (a bare
     `Plan.h` is any tracked Plan.h); or
  3. as 1 or 2, where its last part has no extension, for a file of that
     name with one (lit tests are named without: `Compile/fields-tensor-3d`
     is test/Compile/fields-tensor-3d.stencil).
A path ending in `/` must be a folder.
A path of a former file is written COMMIT:PATH (`14df5fe:bench/tcfuse/`, as
git show takes it) and exists when that commit holds it (git cat-file -e):
how a doc says where something was once it is removed. In a clone without
the commit (a shallow one) it cannot be checked and a note says so.
Placeholders: `*`, `?` and `[...]` are glob wildcards (`*` also spans `/`);
`...` and `…` stand for any text (`...-1508-bench-h100.txt`: a log in
bench/results/); `{a,b}` for a or b (`wave2d-{fp32,fp64}-every-boundary`); a
word of capitals only (`NAME`, `OUT`, `STEP`, `I` and `N` in
`bench-I-of-N.csv`) and `<...>` for any name.

Symbols
-------
A code span is a symbol when the whole span is a C++ name, qualified with
`::` or not, followed by template arguments `<...>` or `()` or not, and the
name looks like code rather than a word:
  - qualified: `TensorBlock::enterPlane`, `simt::launch<Stencil>`;
  - camelCase: `sliceGemms3D`, `kChunkY`, `l2PrefetchBytes`;
  - PascalCase of two or more capitals: `StencilSpec`, `TensorBlock`, `Lines1D`;
  - with a `_` inside or starting with `__`: `stencilc_dist_run`,
    `kernel_fields_2d`, `STENCILC_DIST_PROFILE`, `__syncthreads`.
A single lower-case or capitalised word (`launch`, `Plan`, `radius`) is not
checked: it is as likely English, a flag's value or a keyword of the
.stencil language. Dotted names (`stencilc.compile()`, `torch.library`) are
Python attribute paths and are not checked; nor are flags (`--emit=plan`),
which are not names.

Skipped:
  - a generated name, with a part in PLACEHOLDERS (`NAME_run`, `ID_step`,
    `stencilc::NAME_KEY_step`): the user picks NAME;
  - a name of a library or tool the tree uses, which it need not spell
    itself: CUDA's, MPI's, NCCL's and CMake's by the prefixes of
    OUTSIDE_PREFIX (`cudaFuncGetAttributes`, `MPI_Irecv`, `ncclSend`,
    `CMAKE_PREFIX_PATH`) and OUTSIDE_SYMBOLS, each with its reason.

A symbol exists when each of its parts (`TensorBlock` and `enterPlane`) occurs
as a whole word in one and the same tracked source file: every tracked file
but the docs (`*.md`), bench/results/ (logs of runs, not code), images and
archives, and test/Docs/ (this check, whose lists and examples would
otherwise make every name exist). Whether `enterPlane` is a member of
`TensorBlock` is not checked. Also:
  - a name in capitals with `_` exists when a word of the sources ends with
    `_` and it (`CANNOT_SPLIT` for STENCILC_DIST_CANNOT_SPLIT: the docs
    shorten enumerators so);
  - a stencil's name exists: the name of a tracked .stencil file (`-` read
    as `_`), alone or with a suffix (`simt_heat1d_fp32_fixed`, the program of
    test/GPU/simt-heat1d-fp32-fixed.stencil; `star2d5p_fp64_periodic`, a
    variant of examples/suite/star2d5p_fp64.stencil).
"""

import fnmatch
import os
import re
import subprocess
import sys

# The tree's files as git lists them, one way for both checks.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_banners import tracked_files  # noqa: E402

# Extensions that make a word a path.
EXTENSIONS = (".cpp", ".h", ".cuh", ".cu", ".c", ".cc", ".def", ".inc", ".tpl", ".md", ".py",
              ".cmake", ".sh", ".stencil", ".test", ".txt", ".csv", ".png", ".tgz", ".json",
              ".toml", ".tsv", ".in")

# A bare name (no `/`) with one of these is a file a script or a run writes
# (`bench.csv`, `scaling.png`, `jobs.tsv`), unless it starts with a date
# (`2026-11-22-1508-bench-h100.csv`: a log kept in bench/results/).
OUTPUT_EXTENSIONS = (".csv", ".png", ".log", ".tsv", ".tgz", ".json")

# The parts of a generated name that the user or the tool picks (`NAME_run`,
# `stencilc::NAME_KEY_step`, `ID_step`).
PLACEHOLDERS = {"NAME", "KEY", "ID"}

# Paths that are not the repository's, as the docs write them (the word, or
# the whole code span), each with its reason.
OUTSIDE = {
    # Headers and files of CUDA, MPI and NCCL.
    "cuda.h": "CUDA's driver API header",
    "cuda_fp16.h": "CUDA's fp16 header", "cuda_bf16.h": "CUDA's bf16 header",
    "mpi.h": "MPI's header", "mpi-ext.h": "Open MPI's extensions header",
    "show_help.c": "a source file of Open MPI", "nccl.h": "NCCL's header",
    "nvidia/nccl/include": "the include folder of NCCL's pip wheel",
    # What an install writes (docs/cmake.md), outside the source tree.
    "bin/stencilc": "the installed compiler", "bin/stencilc-cfront": "the installed C front end",
    "lib/libstencilc_runtime.a": "the installed runtime library",
    "lib/cmake/stencilc/": "the installed CMake package's folder",
    "stencilcConfigVersion.cmake": "a file of the installed CMake package",
    # The installed Python package (docs/python.md), inside site-packages.
    "stencilc/_core*.so": "the package's native core",
    "stencilc/_pipeline*.so": "the package's pipeline module",
    "stencilc/bin/stencilc": "the compiler in the package",
    "stencilc/bin/stencilc-cfront": "the C front end in the package",
    "stencilc/include/": "the runtime's headers in the package",
    "stencilc/_kinds.py": "the kinds module the package's build writes (python/tools/write_kinds.py)",
    "stencilc/cmake/StencilcPython.cmake": "the CMake function in the package",
    "<current binary dir>/<target>.stencilc/": "stencilc_add_library's output folder",
    "blurTargets.cmake": "what the install of examples/consumer's library writes",
    # Ignored by git (.gitignore): built by runtime/dist/test/gpu/build-cuda-ompi.sh.
    "runtime/dist/test/gpu/ompi-cuda.tar.xz": "Open MPI built here, ignored by git",
    # Files in the docs' examples: a user's input and what stencilc writes from it.
    "a.stencil": "an example input", "a.cu": "its output", "a.h": "its output",
    "heat.cu": "stencilc's output for heat.c", "heat.h": "stencilc's output for heat.c",
    "heat2d.cu": "stencilc's output for heat2d.stencil", "heat2d.h": "the same",
    "source.stencil": "the file name diagnostics give text passed as a string",
    "bad.stencil": "an example input", "fields_bench_stencils.cu": "a command's output",
    "stdin.h": "the header a .cu generated from standard input includes",
}

# Code names of the libraries and tools the tree uses, which it need not spell
# itself: by prefix (CUDA runtime and driver API, MPI and Open MPI, NCCL,
# CMake's variables: `cudaFuncGetAttributes`, `cuMemHostRegister`,
# `CUDA_ERROR_INVALID_VALUE`, cuFFT's `CUFFT_PARSE_ERROR`, `MPI_Irecv`,
# `opal_built_with_cuda_support`,
# `ncclSend`, `CMAKE_PREFIX_PATH`) ...
OUTSIDE_PREFIX = re.compile(r"(cuda|cu|nccl)[A-Z]|(CUDA|CUFFT|MPI|MPIX|NCCL|ompi|opal|mpi|CMAKE)_")
# ... and one by one, each with its reason.
OUTSIDE_SYMBOLS = {
    "shfl_xor": "CUDA's __shfl_xor_sync, by its short name",
    "mirror_interior": "Halide's boundary condition (docs/language.md compares)",
    "stencilc_DIR": "the variable CMake's find_package(stencilc) reads",
}


# ---------------------------------------------------------------------------
# Reading the docs: code spans and prose, with line numbers.


def blocks(text):
    """The doc's text outside fenced code blocks, as (first line, text) paragraphs."""
    paragraph, start, fence = [], 0, None
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        if fence:
            if stripped.startswith(fence):
                fence = None
            continue
        if stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            if paragraph:
                yield start, "\n".join(paragraph)
            paragraph = []
            continue
        if not stripped:
            if paragraph:
                yield start, "\n".join(paragraph)
            paragraph = []
            continue
        if not paragraph:
            start = number
        paragraph.append(line)
    if paragraph:
        yield start, "\n".join(paragraph)


def spans(start, text):
    """The code spans of a paragraph as (line, content), and its prose as (line, text)."""
    found, prose = [], []
    prose_from = 0
    runs = list(re.finditer(r"`+", text))
    index = 0
    while index < len(runs):
        opening = runs[index]
        closing = next((later for later in runs[index + 1:]
                        if len(later.group()) == len(opening.group())), None)
        if closing is None:
            index += 1
            continue
        content = text[opening.end():closing.start()].replace("\n", " ")
        if content.startswith(" ") and content.endswith(" ") and content.strip():
            content = content[1:-1]
        line = start + text.count("\n", 0, opening.start())
        found.append((line, content))
        prose.append((start + text.count("\n", 0, prose_from), text[prose_from:opening.start()]))
        prose_from = closing.end()
        index = runs.index(closing) + 1
    prose.append((start + text.count("\n", 0, prose_from), text[prose_from:]))
    return found, prose


def references(text):
    """The doc's code spans and prose parts, each as (line, text)."""
    code, prose = [], []
    for start, paragraph in blocks(text):
        found, plain = spans(start, paragraph)
        code += found
        prose += plain
    return code, prose


# ---------------------------------------------------------------------------
# Paths.

LEADING = "([\"'"
TRAILING = ")],;:.'\"!?"


def clean(word):
    """A word without the punctuation around it (a trailing `/` and leading
    `.` stay) and without pip's extras (`./python[test]` is `./python`)."""
    word = re.sub(r"\[[a-z,]+\]", "", word.lstrip(LEADING))
    return word if word.endswith("/") else word.rstrip(TRAILING)


def path_words(span):
    """The words of a code span that are paths (see the docstring)."""
    if span.strip() in OUTSIDE:
        return []
    words = re.sub(r"<[^<>/]*>", "NAME", span).split()  # `<target>`: a placeholder
    result = []
    for position, word in enumerate(words):
        if position > 0 and words[position - 1] == "-o":
            continue
        word = clean(word)
        if looks_like_path(word):
            result.append(word)
    return result


def looks_like_path(word):
    if not ("/" in word or word.endswith(EXTENSIONS)):
        return False
    written = word.endswith(OUTPUT_EXTENSIONS) and not re.match(r"\d{4}-\d\d-", word)
    if "/" not in word and written:
        return False  # a file a script writes: `bench.csv`, `scaling.png`
    if re.match(r"build(-[\w-]+)?/", word):
        return False  # in a build tree
    if word.startswith((".peers/", ".gpu/")):
        return False  # ignored by git: the peers' fetched sources, what the GPU machine is given
    if word.startswith(("/", "~", "$", "-")) or "://" in word or "=" in word:
        return False
    if not re.search(r"[A-Za-z]", word):
        return False
    # A bare extension or a list of them: `.cpp`, `.c/.cc/.cpp/.cxx`.
    if all(re.fullmatch(r"\.[A-Za-z0-9]+", part) for part in word.split("/") if part):
        return False
    return True


def prose_paths(text, top_folders):
    """Words of prose that are paths: with a known extension, or under a top folder."""
    for match in re.finditer(r"(?:\b[0-9a-f]{7,40}:)?[\w./*{},…-]+", text):
        word = clean(match.group())
        if not word or "://" in text[max(0, match.start() - 12):match.end()]:
            continue  # a URL
        path = re.sub(r"^[0-9a-f]{7,40}:", "", word)  # COMMIT:PATH
        named = word.endswith(EXTENSIONS) and re.search(r"\w\.[a-z]+$", word)
        under_top = "/" in path and path.split("/", 1)[0] in top_folders
        if (named or under_top) and looks_like_path(word):
            yield match.start(), word


# A Markdown link or image: [text](target) or [text](target "title").
LINK = re.compile(r"\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")


def pattern_of(path):
    """The glob pattern of a cited path: placeholders and `...` as wildcards."""
    path = path.replace("…", "*").replace("...", "*")
    path = re.sub(r"<[^<>/]*>", "*", path)
    path = re.sub(r"(?<![A-Za-z0-9])[A-Z]+(?![A-Za-z0-9])", "*", path)
    while path.startswith("./"):
        path = path[2:]
    return path


def alternatives(pattern):
    """`{a,b}` expanded."""
    match = re.search(r"\{([^{}]*,[^{}]*)\}", pattern)
    if not match:
        return [pattern]
    return [expanded for choice in match.group(1).split(",")
            for expanded in alternatives(pattern[:match.start()] + choice + pattern[match.end():])]


class Tree:
    def __init__(self, root, files):
        self.root = root
        self.files = set(files)
        self.folders = set()
        for path in files:
            parts = path.split("/")
            for end in range(1, len(parts)):
                self.folders.add("/".join(parts[:end]))
        self.top = {path.split("/", 1)[0] for path in files}

    def exists(self, cited, doc_folder):
        historic = re.fullmatch(r"([0-9a-f]{7,40}):(.+)", cited)
        if historic:
            return self.existed(*historic.groups())
        folder_only = cited.endswith("/")
        cited = cited.rstrip("/")
        names = self.folders if folder_only else self.files | self.folders
        for pattern in alternatives(pattern_of(cited)):
            candidates = [pattern]
            local = os.path.normpath(os.path.join(doc_folder, pattern))
            if not local.startswith(".."):
                candidates.append(local)
            for candidate in candidates:
                if self.matches(candidate, names):
                    return True
            last = pattern.rsplit("/", 1)[-1]
            if not folder_only and "." not in last.lstrip("."):
                if any(self.matches(candidate + ".*", self.files) for candidate in candidates):
                    return True
        return False

    def existed(self, commit, path):
        """Whether commit holds path (a file or a folder): git cat-file -e.

        A clone without the commit (a shallow one) cannot tell: the path is
        taken as there, and a note says it was not checked."""
        if not self.git("cat-file", "-e", f"{commit}^{{commit}}"):
            print(f"note: commit {commit} is not in this clone; {commit}:{path} not checked")
            return True
        return self.git("cat-file", "-e", f"{commit}:{path.rstrip('/')}")

    def git(self, *args):
        return subprocess.run(["git", "-C", self.root, *args], capture_output=True).returncode == 0

    def exists_at(self, target, doc_folder):
        """Whether a link's target, relative to the doc's folder, is tracked."""
        path = os.path.normpath(os.path.join(doc_folder, target))
        return path in self.files or path in self.folders

    @staticmethod
    def matches(pattern, names):
        if not any(char in pattern for char in "*?["):
            return pattern in names or any(name.endswith("/" + pattern) for name in names)
        return bool(fnmatch.filter(names, pattern) or fnmatch.filter(names, "*/" + pattern))


def check_paths(root, docs, files):
    tree = Tree(root, files)
    failures = []
    for doc in docs:
        found = []  # (line, path): this doc's failures, sorted by line below
        text = open(os.path.join(root, doc), encoding="utf-8").read()
        code, prose = references(text)
        doc_folder = os.path.dirname(doc)
        cited = [(line, word) for line, span in code for word in path_words(span)]
        for line, part in prose:
            for match in LINK.finditer(part):
                target = match.group(1).split("#", 1)[0]
                if target and not re.match(r"[a-z]+:", target) and \
                        not tree.exists_at(target, doc_folder):
                    found.append((line + part.count("\n", 0, match.start()), target))
            part = LINK.sub(lambda m: " " * len(m.group()), part)
            for offset, word in prose_paths(part, tree.top):
                cited.append((line + part.count("\n", 0, offset), word))
        for line, word in cited:
            if word in OUTSIDE or word.rstrip("/") + "/" in OUTSIDE:
                continue
            if not tree.exists(word, doc_folder):
                found.append((line, word))
        found.sort(key=lambda failure: failure[0])
        failures += [f"{doc}:{line}: missing path '{word}'" for line, word in found]
    return failures


# ---------------------------------------------------------------------------
# Symbols.

NAME = r"~?[A-Za-z_][A-Za-z0-9_]*"
QUALIFIED = re.compile(rf"({NAME}(?:::{NAME})*)(?:<[^<>]*>)?(?:\(\))?")


def code_like(name):
    """Whether a (possibly qualified) name looks like code rather than a word."""
    if "::" in name:
        return True
    bare = name.lstrip("~")
    if re.fullmatch(r"[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*", bare):
        return True  # camelCase
    if re.fullmatch(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+", bare) or \
            re.fullmatch(r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*[A-Z][A-Za-z0-9]*", bare):
        return True  # PascalCase, two or more capitals
    if "_" in bare.strip("_") or bare.startswith("__"):
        return True  # snake_case, upper case with _
    return False


def generated(name):
    return any(part in PLACEHOLDERS for part in re.split(r"::|_", name))


def span_symbol(span):
    match = QUALIFIED.fullmatch(span.strip())
    if match and code_like(match.group(1)):
        return match.group(1)
    return None


# In prose: a qualified name or a camelCase word, not part of a path or a
# dotted name.
PROSE_SYMBOL = re.compile(
    rf"(?<![\w.:/-])({NAME}(?:::{NAME})+|[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*)(?![\w/-])")


def prose_symbols(text):
    """(offset, name) of the code names of prose (see the docstring)."""
    for match in PROSE_SYMBOL.finditer(text):
        name = match.group(1)
        if "::" in name or len(name) >= 5:  # shorter: a formula, `rTk`
            yield match.start(), name


SOURCE_SKIP = re.compile(r"(\.md$|^bench/results/|^test/Docs/|\.(png|tgz|xz|gz|jpg|pdf)$)")


def source_words(root, files):
    """For each word of the tracked sources, the set of files (by index) it occurs in."""
    words = {}
    for index, path in enumerate(files):
        if SOURCE_SKIP.search(path):
            continue
        try:
            text = open(os.path.join(root, path), encoding="utf-8", errors="replace").read()
        except (IsADirectoryError, FileNotFoundError):
            continue
        for word in set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)):
            words.setdefault(word, set()).add(index)
    return words


def outside(name):
    """Whether a name is one of OUTSIDE_SYMBOLS or starts as OUTSIDE_PREFIX says."""
    if name in OUTSIDE_SYMBOLS:
        return True
    return bool(OUTSIDE_PREFIX.match(name))


def symbol_exists(name, words, stencils):
    if re.fullmatch(r"[A-Z][A-Z0-9_]*", name) and any(word.endswith("_" + name) for word in words):
        return True  # `CANNOT_SPLIT` for STENCILC_DIST_CANNOT_SPLIT
    if any(name == stem or name.startswith(stem + "_") for stem in stencils):
        return True  # a stencil, or a variant of one: `star2d5p_fp64_periodic`
    parts = [part.lstrip("~") for part in name.split("::")]
    common = None
    for part in parts:
        found = words.get(part, set())
        common = found if common is None else common & found
        if not common:
            return False
    return True


def check_symbols(root, docs, files):
    words = source_words(root, files)
    stencils = {os.path.basename(path)[:-len(".stencil")].replace("-", "_")
                for path in files if path.endswith(".stencil")}
    failures = []
    for doc in docs:
        text = open(os.path.join(root, doc), encoding="utf-8").read()
        code, prose = references(text)
        cited = [(line, symbol) for line, span in code for symbol in [span_symbol(span)] if symbol]
        for line, part in prose:
            for offset, symbol in prose_symbols(part):
                cited.append((line + part.count("\n", 0, offset), symbol))
        cited.sort(key=lambda citation: citation[0])
        for line, symbol in cited:
            if generated(symbol) or outside(symbol):
                continue
            if not symbol_exists(symbol, words, stencils):
                failures.append(f"{doc}:{line}: missing symbol '{symbol}'")
    return failures


def main(argv):
    if len(argv) != 3 or argv[1] not in ("paths", "symbols"):
        sys.exit(__doc__)
    mode, root = argv[1], argv[2]
    files = tracked_files(root)
    docs = sorted(path for path in files
                  if path.endswith(".md") and not path.startswith("test/Docs/"))
    if not docs:
        sys.exit(f"check_doc_refs.py: no Markdown files under {root}: wrong ROOT?")
    check = check_paths if mode == "paths" else check_symbols
    failures = check(root, docs, files)
    for failure in failures:
        print(failure)
    print(f"{len(docs)} docs checked, {len(failures)} missing {mode}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
