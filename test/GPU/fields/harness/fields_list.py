#!/usr/bin/env python3
"""Writes the test program of the stencils of fields in a generated header.

Usage: fields_list.py GEN.h > TEST.cu

For each stencil of the header that has a NAME_fields_info, an `Api` struct
that calls NAME_step, NAME_run and NAME_coefficients with the fields,
sizes and parameters taken from arrays (fields_test.cuh's runStencil; a
per-step parameter's values of every step for NAME_run; source points and
amplitudes, for a stencil with point sources; receiver points and records,
for a stencil that records them), and a
main() that runs them all and prints RESULT: PASS or FAIL (exit status 1 on a
failure, 77 without a GPU)."""
import re
import sys


def prototype(text, name, function):
    match = re.search(r"cudaError_t %s_%s\(([^)]*)\);" % (name, function), text)
    if not match:
        sys.exit(f"fields_list.py: no {name}_{function} in the header")
    return [p.strip() for p in match.group(1).split(",")]


def main():
    path = sys.argv[1]
    text = open(path).read()
    names = re.findall(r"static const stencilc_fields_info (\w+)_fields_info", text)
    if not names:
        sys.exit("fields_list.py: the header has no stencil of fields")
    print(f'#include "{path}"')
    print('#include "fields_test.cuh"\n')
    for name in names:
        step = prototype(text, name, "step")
        run = prototype(text, name, "run")
        element = re.match(r"const (\w+)\*", step[0]).group(1)
        fields = step.index(f"{element}* out")
        sizes = [p for p in step if p.startswith("int n")]
        params = [p for p in step if p.startswith("double ")]
        # A per-step parameter (`param amp per step;`) is `const double* amp`
        # in NAME_run: it takes the values of every step, v[i].
        per_step = [f"const double* {p.split()[1]}" in run for p in params]
        dims = len(sizes)
        size_args = ", ".join(f"n[{a}]" for a in range(dims))
        field_args = ", ".join(f"f[{i}]" for i in range(fields))
        param_args = "".join(f", p[{i}]" for i in range(len(params)))
        run_param_args = "".join(
            f", v[{i}]" if per_step[i] else f", p[{i}]" for i in range(len(params)))
        param_first = "".join(f"p[{i}], " for i in range(len(params)))
        print(f"struct Api_{name} {{")
        print(f"  using T = {element};")
        print(f'  static constexpr const char *name = "{name}";')
        print(f"  static const stencilc_stencil_info &info() {{ return {name}_info; }}")
        print(f"  static const stencilc_fields_info &fieldsInfo() {{ return {name}_fields_info; }}")
        pn = "p" if params else "/*p*/"
        print(f"  static cudaError_t step(T *const *f, T *out, const int *n, const double *{pn}, cudaStream_t s) {{")
        print(f"    return {name}_step({field_args}, out, {size_args}{param_args}, s);")
        print("  }")
        vn = "v" if any(per_step) else "/*v*/"
        flags = ", ".join("true" if x else "false" for x in per_step) or "false"
        print(f"  static bool perStep(int i) {{ static const bool flags[] = {{{flags}}}; return flags[i]; }}")
        # A stencil that records receivers (`record u;`) takes their points,
        # count and records after the parameters; the others ignore them.
        records = "const int* receivers" in run
        print(f"  static constexpr bool records = {'true' if records else 'false'};")
        rn = ("r", "rc", "rec") if records else ("/*r*/", "/*rc*/", "/*rec*/")
        # A stencil with point sources (`source u;`) takes their points,
        # count and amplitudes before the receivers; the others ignore them.
        sources = "const int* sources" in run
        print(f"  static constexpr bool sources = {'true' if sources else 'false'};")
        sn = ("sp", "sc", "sa") if sources else ("/*sp*/", "/*sc*/", "/*sa*/")
        # NAME_run reads p only for the constant parameters.
        pr = "p" if not all(per_step) else "/*p*/"
        print(f"  static cudaError_t run(T *const *f, T *scratch, const int *n, const double *{pr}, const double *const *{vn}, int steps, cudaStream_t s,")
        print(f"                         const int *{rn[0]} = nullptr, int {rn[1]} = 0, T *{rn[2]} = nullptr,")
        print(f"                         const int *{sn[0]} = nullptr, int {sn[1]} = 0, const double *{sn[2]} = nullptr) {{")
        source_args = ", sp, sc, sa" if sources else ""
        receiver_args = ", r, rc, rec" if records else ""
        print(f"    return {name}_run({field_args}, scratch, {size_args}{run_param_args}{source_args}{receiver_args}, steps, s);")
        print("  }")
        print(f"  static void coefficients(const double *{pn}, double *k) {{ {name}_coefficients({param_first}k); }}")
        print("};\n")
    print("int main() {")
    print("  int devices = 0;")
    print("  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {")
    print('    std::printf("no GPU\\n");')
    print("    return 77;")
    print("  }")
    print("  fieldtest::Counts counts;")
    for name in names:
        print(f"  fieldtest::runStencil<Api_{name}>(counts);")
    print('  std::printf("%d cases, %d failed\\nRESULT: %s\\n", counts.cases, counts.failures,')
    print('              counts.failures ? "FAIL" : "PASS");')
    print("  return counts.failures ? 1 : 0;")
    print("}")


if __name__ == "__main__":
    main()
