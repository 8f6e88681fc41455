#!/usr/bin/env python3
"""Prints the shape of Pivot's source: the largest files, the longest functions, and every
import that runs from a lower layer to a higher one.

Usage: scripts/code_stats.py [ROOT]   (ROOT defaults to the repository this script is in)

The layers are the table in tests/architecture.rs (README, "Architecture"), read from the
repository this script is in, so an older tree (ROOT) is measured against today's layers;
its modules that have no layer are listed as such.
"""

import os
import re
import sys

def layers(root):
    """The layer table of tests/architecture.rs (module -> layer)."""
    text = open(os.path.join(root, "tests", "architecture.rs"), encoding="utf-8").read()
    return {m: int(l) for m, l in re.findall(r'\("([a-z_0-9]+)", (\d+)\)', text)}

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
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    root = sys.argv[1] if len(sys.argv) > 1 else here
    LAYERS = layers(here)
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
