#!/usr/bin/env python3
"""Prints the shape of Pivot's source: the largest files, the longest functions, and every
import that runs from a lower layer to a higher one.

Usage: scripts/code_stats.py [ROOT]   (ROOT defaults to the repository this script is in)

Layers, bottom up (a module may import its own layer and the ones below):
  0 score                         shared vocabulary
  1 game perft tt tb nnue         board helpers, table, tablebases, network
  2 eval                          the evaluation the engine plays with, the WDL model
  3 search                        the search (reports through search::report)
  4 bench pvcheck                 tools that drive the search
  5 engine options                the engine: game, options, search thread
  6 uci out frontend              the UCI text: parsing, formatting, the input loop
  7 main                          the binary
The training tools (tools/) sit above all of them. Modules not listed (say from an older
tree) are reported as such.
"""

import os
import re
import sys

LAYERS = {
    "score": 0,
    "game": 1, "perft": 1, "tt": 1, "tb": 1, "nnue": 1,
    "eval": 2,
    "search": 3,
    "bench": 4, "pvcheck": 4,
    "engine": 5, "options": 5,
    "uci": 6, "out": 6, "frontend": 6,
    "main": 7, "lib": 7,
}

USE = re.compile(r"\bcrate::([a-z_0-9]+)")
FN = re.compile(r"^\s*(pub(\([a-z]+\))?\s+)?(const\s+)?fn\s+([a-z_0-9]+)")


def module_of(path, src):
    rel = os.path.relpath(path, src)
    top = rel.split(os.sep)[0]
    return top[:-3] if top.endswith(".rs") else top


def functions(lines):
    """(name, first line, length) of every fn with a body, by brace counting."""
    out = []
    i = 0
    while i < len(lines):
        m = FN.match(lines[i])
        if not m:
            i += 1
            continue
        depth, started, j = 0, False, i
        while j < len(lines):
            code = lines[j].split("//")[0]
            depth += code.count("{") - code.count("}")
            if "{" in code:
                started = True
            if started and depth <= 0:
                break
            if not started and code.rstrip().endswith(";"):
                break
            j += 1
        if started:
            out.append((m.group(4), i + 1, j - i + 1))
        i += 1
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    src = os.path.join(root, "src")
    files, funcs, upward, unknown = [], [], [], set()
    for dirpath, _, names in os.walk(src):
        for name in names:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(dirpath, name)
            text = open(path, encoding="utf-8").read()
            # Tests may reach anywhere: only the code before `#[cfg(test)]` counts for imports.
            code = text.split("#[cfg(test)]")[0]
            lines = text.splitlines()
            rel = os.path.relpath(path, root)
            files.append((len(lines), rel))
            for fname, line, length in functions(lines):
                funcs.append((length, f"{rel}:{line} {fname}"))
            here = module_of(path, src)
            if here not in LAYERS:
                unknown.add(here)
                continue
            for target in sorted(set(USE.findall(code))):
                if target not in LAYERS:
                    unknown.add(target)
                elif LAYERS[target] > LAYERS[here]:
                    upward.append(f"{rel} ({here}, layer {LAYERS[here]}) imports {target} (layer {LAYERS[target]})")
    print("largest files (lines):")
    for n, rel in sorted(files, reverse=True)[:8]:
        print(f"  {n:5} {rel}")
    print("longest functions (lines):")
    for n, what in sorted(funcs, reverse=True)[:8]:
        print(f"  {n:5} {what}")
    print(f"imports from a lower layer to a higher one: {len(upward)}")
    for u in upward:
        print(f"  {u}")
    if unknown:
        print(f"modules in no layer: {', '.join(sorted(unknown))}")


if __name__ == "__main__":
    main()
