#!/usr/bin/env python3
"""Nodes per second of Pivot's `bench` against another engine's (or another Pivot build's),
measured in the same run: the two benches alternate, first one then the other, so both see the
same machine, and the script prints each run, the medians and their ratio.

Usage: scripts/nps_ratio.py [--runs 5] [--pivot PATH] [--other "CMD ARGS"] [--depth D]
       scripts/nps_ratio.py --search N [--movetime MS] [--runs 5] [--pivot PATH] [--other CMD]

  --pivot PATH   the Pivot binary (default: target/release/pivot of this checkout)
  --other CMD    the reference's bench command line (default: "ethereal-chess bench", looked up on
                 PATH and in /usr/games); a second Pivot works too: --other "old/pivot bench"
  --depth D      Pivot's bench depth (default: its own)
  --search N     instead of the benches, both engines search the same N positions (spread over
                 tests/data/8moves_v3_first1000.epd) for --movetime ms each (default 1000), one
                 thread, Hash 64, a new game for each; a run's nps is its nodes over its time, as
                 the engines report them. --other is then the reference's UCI command line
                 (default: ethereal-chess). Needs python-chess.

The figure is meaningful only on an otherwise idle machine. Reads the nps from the last line
of each output that names it: `<n> nodes <nps> nps` (Pivot), `NPS : <nps>` (Ethereal),
`Nodes/second : <nps>` (Stockfish).
"""
import argparse
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NPS = re.compile(r"(?:(\d+)\s+nps\b|\bNPS\s*:\s*(\d+)|Nodes/second\s*:\s*(\d+))", re.I)


def nps_of(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    found = None
    for line in (out.stdout + "\n" + out.stderr).splitlines():
        m = NPS.search(line)
        if m:
            found = int(next(g for g in m.groups() if g))
    if found is None:
        sys.exit(f"nps_ratio.py: no nps in the output of {' '.join(cmd)}")
    return found


def search_nps(cmd, fens, movetime_ms):
    """Nodes over time of searches of `fens`, `movetime_ms` each, as the engine reports them."""
    import chess
    import chess.engine
    nodes = seconds = 0
    with chess.engine.SimpleEngine.popen_uci(cmd) as engine:
        engine.configure({k: v for k, v in (("Hash", 64), ("Threads", 1)) if k in engine.options})
        for fen in fens:
            info = engine.analyse(chess.Board(fen), chess.engine.Limit(time=movetime_ms / 1000),
                                  game=object())
            nodes += info.get("nodes", 0)
            seconds += info.get("time", 0.0)
    if seconds <= 0:
        sys.exit(f"nps_ratio.py: {' '.join(cmd)} reported no search time")
    return int(nodes / seconds)


def book_positions(n):
    """`n` positions spread evenly over the 8moves_v3 sample."""
    path = os.path.join(ROOT, "tests/data/8moves_v3_first1000.epd")
    with open(path) as f:
        lines = [" ".join(line.split()[:4]) + " 0 1" for line in f if line.strip()]
    step = max(1, len(lines) // max(1, n))
    return lines[::step][:n]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--pivot", default=os.path.join(ROOT, "target/release/pivot"))
    ap.add_argument("--other", default=None)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--search", type=int, metavar="N")
    ap.add_argument("--movetime", type=int, default=1000, metavar="MS")
    args = ap.parse_args()
    if args.other:
        other = shlex.split(args.other)
    else:
        exe = shutil.which("ethereal-chess") or shutil.which("ethereal-chess", path="/usr/games")
        if not exe:
            sys.exit("nps_ratio.py: ethereal-chess not found; name a reference with --other")
        other = [exe] if args.search else [exe, "bench"]
    if args.search:
        fens = book_positions(args.search)
        measure = lambda cmd: search_nps(cmd, fens, args.movetime)  # noqa: E731
        pivot = [args.pivot]
    else:
        measure = nps_of
        pivot = [args.pivot, "bench"] + (["--depth", str(args.depth)] if args.depth else [])
    mine, theirs = [], []
    for i in range(args.runs):
        # Alternate which goes first, so that neither always runs on a cooler machine.
        order = [(pivot, mine), (other, theirs)]
        if i % 2:
            order.reverse()
        for cmd, results in order:
            results.append(measure(cmd))
        print(f"run {i + 1}: pivot {mine[-1]:>10,} nps   reference {theirs[-1]:>10,} nps", flush=True)
    a, b = statistics.median(mine), statistics.median(theirs)
    print(f"medians: pivot {a:,.0f} nps, reference {b:,.0f} nps, ratio {a / b:.3f}")


if __name__ == "__main__":
    main()
