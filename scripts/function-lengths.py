#!/usr/bin/env python3
"""Lists every C++/CUDA function whose body is over the limit (80 lines).

A function fits on a screen: issue 34 asks for functions under about 80
lines. This checker fails, printing `FILE:LINE: NAME is N lines` for each
function over the limit that the allowlist does not name, and prints the
allowlist's count so that it shrinks visibly.

The rule, measured without compiling (no include paths, works on CUDA
headers): a function's length is the number of physical lines from the line
of its body's `{` to the line of its `}`, both included (blank and comment
lines count: they are on the screen too). A brace-matching scanner finds the
bodies: comments, string and character literals (raw strings, digit
separators) and preprocessor lines are skipped, then a `{` at namespace or
class scope opens a function body when the declaration before it has a
parameter list `(...)` at its top level and no `=` before it (which makes it
an initialiser, such as a table). Constructors' member initialisers
(`: x{1}`) are not bodies. Whatever is nested in a function (lambdas, local
classes) counts as part of it; a lambda stored at namespace scope is an
initialiser and is not measured.

Files: the tracked *.cpp, *.cc, *.h, *.hpp, *.cu and *.cuh under compiler/,
runtime/, test/support/, fuzz/ and python/ (code templates, *.tpl, and the
tables *.inc and *.def are no functions), or the FILEs named.

The allowlist (scripts/function-lengths-allowlist.txt by default) names
functions that are over the limit for now, one `PATH NAME` a line; an entry
that is no longer over the limit, or no longer found, is an error too, so
that it is removed.

Usage: function-lengths.py [--root DIR] [--limit N] [--allowlist FILE] [FILE...]
Exit status: 0 when none is over the limit outside the allowlist, 1 when
some are (or the allowlist is stale), 2 when a file cannot be scanned.
"""

import argparse
import os
import re
import subprocess
import sys

LIMIT = 80
FOLDERS = ("compiler/", "runtime/", "test/support/", "fuzz/", "python/")
SUFFIXES = (".cpp", ".cc", ".h", ".hpp", ".cu", ".cuh")
CLASS_KEYS = {"class", "struct", "union", "enum"}
ACCESS = {"public", "private", "protected"}
# Words before a `(` that is not the parameter list.
NOT_A_NAME = {"decltype", "__attribute__", "__launch_bounds__", "alignas", "noexcept",
              "__declspec", "requires", "sizeof", "alignof", "throw"}


class ScanError(Exception):
    pass


TOKEN = re.compile(r"""
    (?P<space>[ \t\r\f\v]+)
  | (?P<newline>\n)
  | (?P<line_comment>//[^\n]*)
  | (?P<block_comment>/\*.*?\*/)
  | (?P<raw>(?:u8|[uUL])?R"(?P<delim>[^()\\ \n]{0,16})\()
  | (?P<string>(?:u8|[uUL])?"(?:[^"\\\n]|\\.)*")
  | (?P<char>(?:u8|[uUL])?'(?:[^'\\\n]|\\.)+')
  | (?P<number>\.?[0-9](?:[eEpP][+-]|'[0-9a-zA-Z_]|[0-9a-zA-Z_.])*)
  | (?P<word>[A-Za-z_$][A-Za-z0-9_$]*)
  | (?P<punct>::|->|\.\.\.|[^\s])
""", re.VERBOSE | re.DOTALL)


def tokens(text, path):
    """Yields (text, line) of each significant token: what the compiler would
    see of the braces and declarations, with comments, literals and
    preprocessor lines gone (their braces do not count)."""
    pos, line, line_start = 0, 1, True
    while pos < len(text):
        if line_start:
            # A preprocessor directive runs to the first newline that is not
            # escaped and not inside a comment.
            m = re.compile(r"[ \t]*#").match(text, pos)
            if m:
                end = pos
                while True:
                    nl = re.compile(r"\\\n|/\*.*?\*/|//[^\n]*|\n", re.DOTALL).search(text, end)
                    if nl is None:
                        end = len(text)
                        break
                    line += nl.group().count("\n")
                    end = nl.end()
                    if nl.group() == "\n":
                        break
                pos = end
                continue
        m = TOKEN.match(text, pos)
        if m is None:
            raise ScanError(f"{path}:{line}: cannot read {text[pos:pos + 20]!r}")
        kind = m.lastgroup if m.lastgroup != "delim" else "raw"
        end = m.end()
        if kind == "raw":
            close = text.find(")" + m.group("delim") + '"', end)
            if close < 0:
                raise ScanError(f"{path}:{line}: raw string not closed")
            end = close + len(m.group("delim")) + 2
        piece = text[pos:end]
        if kind == "newline":
            line_start = True
        elif kind != "space":
            line_start = False
        if kind in ("string", "raw", "char"):
            yield ('"', line)
        elif kind not in ("space", "newline", "line_comment", "block_comment"):
            yield (piece, line)
        line += piece.count("\n")
        pos = end
    return


def merge_operator(head):
    """head with each operator's name as one word (`operator<<`,
    `operator()`, `operator bool`), so that its symbols open nothing."""
    out, i = [], 0
    while i < len(head):
        tok, line = head[i]
        if tok != "operator":
            out.append(head[i])
            i += 1
            continue
        name, i = tok, i + 1
        if head[i:i + 2] and [t for t, _ in head[i:i + 2]] == ["(", ")"]:
            name, i = name + "()", i + 2
        while i < len(head) and head[i][0] != "(":
            name += (" " if re.match(r"\w", head[i][0]) else "") + head[i][0]
            i += 1
        out.append((name, line))
    return out


def top_level(words):
    """The indices of the words outside (), [] and <> (the brackets that
    open and close at the top level included)."""
    depth = 0
    for i, tok in enumerate(words):
        if tok in ("(", "[", "<"):
            if depth == 0:
                yield i
            depth += 1
        elif tok in (")", "]", ">"):
            depth = max(depth - 1, 0)
            if depth == 0:
                yield i
        elif depth == 0:
            yield i


def strip_template(words):
    """words without a leading `template <...>` (and any access label)."""
    i = 0
    while i < len(words):
        if words[i] in ACCESS and words[i + 1:i + 2] == [":"]:
            i += 2
        elif words[i] == "template" and words[i + 1:i + 2] == ["<"]:
            depth, i = 0, i + 1
            while i < len(words):
                depth += {"<": 1, ">": -1}.get(words[i], 0)
                i += 1
                if depth <= 0:
                    break
        else:
            break
    return words[i:]


def parameter_lists(words):
    """The indices of the top-level `(`s that may open a parameter list:
    not those of attributes, decltype or alignas."""
    return [i for i in top_level(words)
            if words[i] == "(" and i > 0 and words[i - 1] not in NOT_A_NAME]


def classify(head):
    """What a `{` opens at namespace or class scope, given the tokens of the
    declaration before it: 'scope' (namespace, class, extern "C"), 'body' (a
    function's) or 'init' (an initialiser, a member initialiser)."""
    words = strip_template([t for t, _ in merge_operator(head)])
    if not words or words.count("(") != words.count(")"):
        return "init"  # nothing, or a brace inside a call's arguments
    top = [words[i] for i in top_level(words)]
    if "namespace" in top or words == ["extern", '"']:
        return "scope"
    if "=" in top:
        return "init"  # a table, a lambda stored in a variable
    params = parameter_lists(words)
    if not params:
        return "scope" if words[0] in CLASS_KEYS | {"typedef"} else "init"
    # After the parameter list, a `:` starts member initialisers; there a
    # `{` after a name initialises a member, one after `)` or `}` opens the
    # body.
    close = next(i for i in top_level(words) if i > params[0])
    if ":" in words[close + 1:] and words[-1] not in (")", "}", "..."):
        return "init"
    return "body"


def function_name(head):
    """The (qualified) name before the parameter list, and its line."""
    pairs = merge_operator(head)
    words = [t for t, _ in pairs]
    skipped = len(words) - len(strip_template(words))
    words, pairs = words[skipped:], pairs[skipped:]
    for i in parameter_lists(words):
        if not re.match(r"[A-Za-z_~]", words[i - 1]):
            continue
        j = i - 1
        while j >= 2 and words[j - 1] == "::" and re.match(r"[A-Za-z_]", words[j - 2]):
            j -= 2
        if j >= 1 and words[j - 1] == "~":
            j -= 1
        return "".join(words[j:i]), pairs[j][1]
    return "<unnamed>", pairs[0][1]


def functions(path, text):
    """Yields (name, line of the name, lines of the body) of every function
    defined in text."""
    stack = []  # one kind a `{`: 'scope', 'body', 'init', 'block'
    head = []  # the tokens of the declaration being read at this scope
    opened = []  # (name, line) of each function body being read
    last_line = 0
    for tok, line in tokens(text, path):
        last_line = line
        in_function = any(k in ("body", "init") for k in stack)
        if tok == "{":
            if in_function:
                stack.append("block")
                continue
            kind = classify(head)
            stack.append(kind)
            if kind == "body":
                opened.append((*function_name(head), line))
            if kind != "init":
                head = []
        elif tok == "}":
            if not stack:
                raise ScanError(f"{path}:{line}: '}}' closes no '{{'")
            kind = stack.pop()
            if kind == "body":
                name, name_line, first = opened.pop()
                yield name, name_line, line - first + 1
            if kind in ("body", "scope"):
                head = []
        elif not in_function:
            if tok == ";":
                head = []
            else:
                head.append((tok, line))
    if stack:
        raise ScanError(f"{path}:{last_line}: {len(stack)} '{{' not closed at the end of the file")


def tracked_sources(root):
    """The tracked C++/CUDA sources in FOLDERS (every file, outside git)."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "--", *FOLDERS],
                             capture_output=True, text=True, check=True).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        out = [os.path.relpath(os.path.join(d, f), root)
               for folder in FOLDERS for d, _, fs in os.walk(os.path.join(root, folder))
               for f in fs]
    return sorted(p for p in out if p.endswith(SUFFIXES))


def read_allowlist(path):
    """{(file, name)} of the allowlist: `PATH NAME` a line, # comments."""
    entries = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if line:
                file, _, name = line.partition(" ")
                entries[(file, name.strip())] = number
    return entries


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    parser.add_argument("--limit", type=int, default=LIMIT)
    parser.add_argument("--allowlist")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    root = os.path.normpath(args.root)
    allowlist_path = args.allowlist
    if allowlist_path is None and not args.files:
        allowlist_path = os.path.join(root, "scripts", "function-lengths-allowlist.txt")
    allowed = read_allowlist(allowlist_path) if allowlist_path else {}

    over, still_over = [], set()
    for rel in args.files or tracked_sources(root):
        path = rel if args.files else os.path.join(root, rel)
        try:
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                found = list(functions(rel, f.read()))
        except ScanError as e:
            print(f"function-lengths: {e}", file=sys.stderr)
            return 2
        for name, line, lines in found:
            if lines <= args.limit:
                continue
            if (rel, name) in allowed:
                still_over.add((rel, name))
            else:
                over.append(f"{rel}:{line}: {name} is {lines} lines")

    stale = [f"{allowlist_path}:{number}: {file} {name} is no longer over {args.limit} lines"
             " (or no longer found): remove it"
             for (file, name), number in allowed.items() if (file, name) not in still_over]
    for message in over + stale:
        print(message)
    if allowed:
        print(f"function-lengths: {len(still_over)} allowlisted functions over {args.limit} "
              f"lines still to split ({allowlist_path})")
    if over:
        print(f"function-lengths: {len(over)} functions over {args.limit} lines")
    return 1 if over or stale else 0


if __name__ == "__main__":
    sys.exit(main())
