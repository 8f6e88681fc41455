#!/usr/bin/env python3
"""Runs a UCI engine over an EPD test suite (bm/am opcodes) and counts the solved positions.

Usage: scripts/epd_solve.py EPD_FILE [--engine CMD] [--movetime SECONDS] [--option NAME=VALUE ...]

By default the engine is Pivot built from this checkout (target/release/pivot). A position is
solved when the move played is one of its `bm` moves and none of its `am` moves.
Needs python-chess (pip install chess).
"""
import argparse
import os
import sys
import time

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("epd_solve.py: python-chess is missing (pip install chess)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("epd")
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "pivot"))
    ap.add_argument("--movetime", type=float, default=0.2)
    ap.add_argument("--option", action="append", default=[], help="UCI option NAME=VALUE")
    ap.add_argument("--quiet", action="store_true", help="print only the summary")
    args = ap.parse_args()

    options = {}
    for opt in args.option:
        name, _, value = opt.partition("=")
        options[name] = value
    engine = chess.engine.SimpleEngine.popen_uci(args.engine.split())
    if options:
        engine.configure(options)
    name = engine.id.get("name", args.engine)

    solved = total = 0
    failed = []
    started = time.time()
    with open(args.epd) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            board, ops = chess.Board.from_epd(line)
            total += 1
            result = engine.play(board, chess.engine.Limit(time=args.movetime))
            move = result.move
            good = ("bm" not in ops or move in ops["bm"]) and move not in ops.get("am", [])
            if good:
                solved += 1
            else:
                failed.append(ops.get("id", board.fen()))
            if not args.quiet:
                print(f"{ops.get('id', board.fen())}: {board.san(move) if move else '-'} {'ok' if good else 'FAIL'}", flush=True)
    engine.quit()
    print(f"{name}: solved {solved}/{total} at {args.movetime} s per position ({time.time() - started:.0f} s)")
    if failed and not args.quiet:
        print("failed: " + " ".join(failed))


if __name__ == "__main__":
    main()
