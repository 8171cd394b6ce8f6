"""Benchmark: one loop of the generated code's shape, interpreted and built with Cython.

The loop is that of a rule listing the cells whose piece's owner differs from a given
piece's and lie within its reach (Cleromancy's D8, the hottest function of its module):
for each cell of a board, items of lists by Python integers, a comparison, an append.
It is run by Python's own interpreter, built with Cython as compile/native.py builds a
rule file (the same Cython options and C flags, `native._build`), built again with its
lists typed `list` (as a typed backend might declare them), and built with its loop
variable declared a C integer (`Py_ssize_t`), as the text built declares the loop
variables over the cells of a board (compile/typedloops.py). Each timing is the best of
5 repeats; the ratios say what building buys on code made of Python objects.

Usage, from the repository root:

    python -m benchmarks.native_loop [--number N] [--json]
"""

import argparse
import json
import os
import timeit

from rulesdsl.compile import native

UNTYPED = '''
def untyped(V, B0, a0):
    r = []
    for c in CELLS:
        if B0[c] is not None and V[57 + B0[c]] != V[57 + B0[a0]] and DISTANCE[a0][c] <= 3:
            r.append(c)
    return r
'''
# the same loop with its lists typed `list`, and with its loop variable a C integer
TYPED = UNTYPED.replace("def untyped(V, B0, a0)", "def typed(V: list, B0: list, a0)")
INDEX_TYPED = "@cython.locals(c=cython.Py_ssize_t)\n" + UNTYPED.replace("untyped", "index_typed")
TABLES = ("CELLS = list(range(100))\n"
          "DISTANCE = [[abs(i - j) % 9 for j in range(100)] for i in range(100)]\n")
# a module-level nested comprehension, built, aborts Python 3.11 at exit under Cython
# 3.3.1 (none_dealloc): the built module gets its tables from the interpreted one instead
BUILT = "import cython\nCELLS = None\nDISTANCE = None\n" + UNTYPED + TYPED + INDEX_TYPED
ARGS = (list(range(200)), [i % 7 if i % 3 else None for i in range(100)], 5)


def best(function, number: int) -> float:
    return min(timeit.repeat(lambda: function(*ARGS), number=number, repeat=5))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.native_loop",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=20000, help="calls a repeat")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    lacking = native.missing()
    if lacking:
        raise SystemExit(f"no build: {lacking}")
    interpreted: dict = {}
    exec(compile(TABLES + UNTYPED, "<loop>", "exec"), interpreted)
    text = f"{native.DIRECTIVES}\n{BUILT}"
    built = native._instance("native_loop", native._build("native_loop", text))
    built.CELLS, built.DISTANCE = interpreted["CELLS"], interpreted["DISTANCE"]
    times = {"interpreted": best(interpreted["untyped"], args.number),
             "built": best(built.untyped, args.number),
             "built, lists typed": best(built.typed, args.number),
             "built, loop variable typed": best(built.index_typed, args.number)}
    assert built.index_typed(*ARGS) == interpreted["untyped"](*ARGS)
    base = times["interpreted"]
    result = {"seconds": {k: round(v, 4) for k, v in times.items()},
              "speed against interpreted": {k: round(base / v, 3) for k, v in times.items()},
              "load": round(os.getloadavg()[0], 1)}
    if args.json:
        print(json.dumps(result, indent=1))
        return
    for name, seconds in times.items():
        print(f"{name:<28}{seconds:>9.4f} s{base / seconds:>8.3f}x")
    print(f"load {result['load']}")


if __name__ == "__main__":
    main()
