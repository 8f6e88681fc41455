#!/usr/bin/env python3
"""Compares an engine's judgement with its opponent's, from the scores in cutechess-cli PGNs.

cutechess-cli writes each engine's last reported score after its move (`{+0.35/17 0.31s}`,
from the mover's point of view). This script turns both engines' scores to ENGINE's point of
view and prints

- for each half-pawn band of the opponent's score, the median and mean of ENGINE's own score
  one ply later (the same game, the next position): where the two engines judge alike, the
  medians follow the bands;
- for the games ENGINE lost, the ply from which the opponent's score stays at or below
  -LOST pawns to the end, ENGINE's own score at its next move, and how many plies later
  ENGINE's score also stays at or below -LOST (its lag in seeing the loss).

Scores beyond +-CLIP pawns (mates included) are left out of the bands. Needs python-chess.

Usage:
    scripts/eval_gap.py --engine pivot m1_2moves.pgn m1_8moves.pgn [--lost 1.0]
"""
import argparse
import re
import statistics
import sys
from collections import defaultdict

import chess.pgn

SCORE = re.compile(r"^\s*([+-]?)(M?)(\d+(?:\.\d+)?)/\d+")
CLIP = 6.0
MATE = 100.0


def score(comment):
    """The mover's score in pawns from a cutechess-cli comment (a mate as +-100), or None."""
    m = SCORE.match(comment)
    if not m:
        return None
    sign = -1.0 if m.group(1) == "-" else 1.0
    return sign * (MATE if m.group(2) else float(m.group(3)))


def read_games(paths, engine):
    """Yields (points of ENGINE, [(ply, engine's score)], [(ply, opponent's score)]), both
    from ENGINE's point of view, for every game ENGINE played."""
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                white, black = game.headers.get("White"), game.headers.get("Black")
                if engine not in (white, black):
                    continue
                points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(game.headers.get("Result"))
                if points is None:
                    continue
                engine_white = white == engine
                if not engine_white:
                    points = 1.0 - points
                own, theirs = [], []
                first_white = game.board().turn == chess.WHITE
                for ply, node in enumerate(game.mainline()):
                    s = score(node.comment)
                    if s is None:
                        continue
                    mover_white = (ply % 2 == 0) == first_white
                    if mover_white == engine_white:
                        own.append((ply, s))
                    else:
                        theirs.append((ply, -s))
                yield points, own, theirs


def settled_at(scores, limit):
    """The first ply from which every score stays at or below -limit, or None."""
    first = None
    for ply, s in reversed(scores):
        if s > -limit:
            break
        first = ply
    return first


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", required=True, help="the engine's name in the PGN")
    ap.add_argument("--lost", type=float, default=1.0, help="pawns down that count as lost")
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()

    bands = defaultdict(list)
    lost = []
    games = 0
    for points, own, theirs in read_games(args.pgn, args.engine):
        games += 1
        by_ply = dict(own)
        for ply, s in theirs:
            mine = by_ply.get(ply + 1)
            if mine is not None and abs(s) <= CLIP and abs(mine) <= CLIP:
                bands[round(s * 2) / 2].append(mine)
        if points == 0.0:
            seen = settled_at(theirs, args.lost)
            if seen is None:
                continue
            later = [s for ply, s in own if ply > seen]
            own_seen = settled_at(own, args.lost)
            lag = None if own_seen is None else max(0, own_seen - seen)
            lost.append((seen, later[0] if later else None, lag))
    if not games:
        sys.exit(f"eval_gap.py: no finished game of {args.engine}")

    print(f"{games} games of {args.engine}")
    print("opponent's score   engine's median   mean   positions")
    for band in sorted(bands):
        v = bands[band]
        if len(v) >= 20:
            print(f"{band:+15.1f}   {statistics.median(v):+15.2f}   {statistics.mean(v):+5.2f}   {len(v):9d}")
    if lost:
        plies = [p for p, _, _ in lost]
        then = [s for _, s, _ in lost if s is not None]
        lags = [g for _, _, g in lost if g is not None]
        print(f"{len(lost)} lost games: the opponent's score stays at or below -{args.lost:g} "
              f"from ply {statistics.median(plies):g} (median)")
        if then:
            print(f"  the engine's own score then: median {statistics.median(then):+.2f}")
        if lags:
            print(f"  plies until the engine's score stays there too: median "
                  f"{statistics.median(lags):g}")


if __name__ == "__main__":
    main()
