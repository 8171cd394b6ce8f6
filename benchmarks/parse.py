"""Benchmark: parse a rule file into its syntax tree, as a check does when nothing is kept.

Times `rulesdsl.grammar.parse(text, path)`: lark's parse with each tree's place, the
syntax tree's nodes built from it (with the expressions of strings' `{...}`), and the
check of its depth; the parser itself made once before (as it is read from the user's
cache), one untimed parse first (lark builds the lexer of each parser state when it is
first needed). Each parse with Python's cycle collector paused, as `rulesdsl.load` and
`check` parse (rulesdsl/loader.py). Then rounds of parses for `--seconds` each; the
figure is the median of the rounds' rates, parses a second of CPU time. No tree is kept
or recalled (the tree cache is for the command line: this is the parse it saves).

Usage, from the repository root:

    python -m benchmarks.parse [--rules FILE] [--seconds S] [--rounds N] [--json]

and, against another version, `python -m benchmarks.paired --rounds 9 BEFORE . -- parse`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from rulesdsl.grammar import parse
from rulesdsl.loader import collector_paused


def rate(text: str, path: str, seconds: float) -> float:
    """Parses of the text a second of CPU time, for about `seconds`."""
    done = 0
    start = time.process_time()
    while True:
        with collector_paused():  # as the loader parses
            parse(text, path)
        done += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return done / elapsed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.parse",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="games/cromlech/cromlech.rules",
                        help="the rule file (default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="CPU seconds a round (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=3, help="default: %(default)s")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    text = Path(args.rules).read_text(encoding="utf-8")
    parse(text, args.rules)  # the parser made and each state's lexer built
    rates = [rate(text, args.rules, args.seconds) for _ in range(args.rounds)]
    figures = {"rules": args.rules, "lines": text.count("\n"),
               "per_sec": round(statistics.median(rates), 2),
               "ms_per_parse": round(1000 / statistics.median(rates), 2),
               "low": round(min(rates), 2), "high": round(max(rates), 2)}
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"{args.rules} ({figures['lines']} lines): {figures['ms_per_parse']} ms a parse, "
              f"{figures['per_sec']} a second (rounds {figures['low']} - {figures['high']})")


if __name__ == "__main__":
    main()
