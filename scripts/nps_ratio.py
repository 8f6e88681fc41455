#!/usr/bin/env python3
"""Nodes per second of Pivot's `bench` against another engine's (or another Pivot build's),
measured in the same run: the two benches alternate, first one then the other, so both see the
same machine, and the script prints each run's figures and ratio, and the median of the ratios
(steadier than a ratio of medians when the machine's speed drifts between runs).

Usage: scripts/nps_ratio.py [--runs 5] [--pivot PATH] [--other "CMD ARGS"] [--depth D]
       scripts/nps_ratio.py --search N [--movetime MS] [--runs 5] [--pivot PATH] [--other CMD]

  --pivot PATH   the Pivot binary (default: target/release/pivot of this checkout)
  --other CMD    the reference's bench command line (default: "ethereal-chess bench", looked up on
                 PATH and in /usr/games); a second Pivot works too: --other "old/pivot bench"
  --depth D      Pivot's bench depth (default: its own)
  --search N     instead of the benches, both engines search the same N positions (spread over
                 tests/data/8moves_v3_first1000.epd) for --movetime ms each (default 1000), one
                 thread, Hash 64, a new game for each, the two engines taking turns position by
                 position; a run's nps is its nodes over its time, as the engines report them. --other is then the reference's UCI command line
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


def search_nps_pair(cmds, fens, movetime_ms):
    """Nodes over time of searches of `fens`, `movetime_ms` each, as each engine reports them.

    Both engines stay open and take turns position by position, so a machine whose speed drifts
    (a busy neighbour, a clock that changes) slows both alike within a run."""
    import chess
    import chess.engine
    engines = [chess.engine.SimpleEngine.popen_uci(cmd) for cmd in cmds]
    nodes, seconds = [0] * len(cmds), [0.0] * len(cmds)
    try:
        for engine in engines:
            engine.configure({k: v for k, v in (("Hash", 64), ("Threads", 1)) if k in engine.options})
        for k, fen in enumerate(fens):
            order = range(len(engines)) if k % 2 == 0 else reversed(range(len(engines)))
            for j in order:
                info = engines[j].analyse(chess.Board(fen),
                                          chess.engine.Limit(time=movetime_ms / 1000), game=object())
                nodes[j] += info.get("nodes", 0)
                seconds[j] += info.get("time", 0.0)
    finally:
        for engine in engines:
            engine.quit()
    for cmd, s in zip(cmds, seconds):
        if s <= 0:
            sys.exit(f"nps_ratio.py: {' '.join(cmd)} reported no search time")
    return [int(n / s) for n, s in zip(nodes, seconds)]


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
        pivot = [args.pivot]
    else:
        pivot = [args.pivot, "bench"] + (["--depth", str(args.depth)] if args.depth else [])
    mine, theirs, ratios = [], [], []
    for i in range(args.runs):
        # Alternate which goes first (benches by run, searches by position), so that neither
        # always runs on a cooler machine.
        if args.search:
            a, b = search_nps_pair([pivot, other], fens, args.movetime)
        else:
            order = [pivot, other] if i % 2 == 0 else [other, pivot]
            first, second = nps_of(order[0]), nps_of(order[1])
            a, b = (first, second) if i % 2 == 0 else (second, first)
        mine.append(a)
        theirs.append(b)
        ratios.append(a / b)
        print(f"run {i + 1}: pivot {a:>10,} nps   reference {b:>10,} nps   ratio {a / b:.3f}",
              flush=True)
    print(f"medians: pivot {statistics.median(mine):,.0f} nps, "
          f"reference {statistics.median(theirs):,.0f} nps, "
          f"ratio (median of the runs' ratios) {statistics.median(ratios):.3f}")

if __name__ == "__main__":
    main()
