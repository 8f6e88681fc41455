#!/usr/bin/env python3
"""Fits Pivot's win/draw/loss model (src/eval/wdl.rs) to games Pivot played.

Usage: scripts/fit_wdl.py [--engine pivot] GAMES.pgn ...

--engine names the player whose moves give samples: every player whose name starts with it
(so self-play games between "pivot-a" and "pivot-b" give samples from both sides).

Every move Pivot made carries its score in cutechess-cli's move comment ("{+0.35/12 0.05s}").
Each becomes one sample: the score s (centipawns, Pivot's point of view, mates left out),
the game phase m of the position (0 = bare kings and pawns, 24 = all pieces; knights and
bishops count 1, rooks 2, queens 4) and the game's result for Pivot. The model is

    win(s, m)  = 1 / (1 + exp((a(m) - s) / b(m)))
    loss(s, m) = 1 / (1 + exp((a(m) + s) / b(m)))
    draw       = 1 - win - loss,      a(m) = a0 + a1 m / 24,  b(m) = b0 + b1 m / 24

fitted by maximum likelihood (gradient descent with numpy). It prints the four parameters,
the log-likelihood per sample against a flat model, and the predicted against the observed
result rates in score buckets. Needs python-chess and numpy.
"""
import argparse
import re
import sys

try:
    import chess
    import chess.pgn
    import numpy as np
except ImportError:
    sys.exit("fit_wdl.py: needs python-chess and numpy (pip install chess numpy)")

COMMENT = re.compile(r"^([+-]?)(\d+\.\d+|M\d+)/\d+")
PHASE = {chess.KNIGHT: 1, chess.BISHOP: 1, chess.ROOK: 2, chess.QUEEN: 4}


def samples(paths, engine):
    s, m, r = [], [], []
    for path in paths:
        with open(path) as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                result = game.headers.get("Result")
                if result not in ("1-0", "0-1", "1/2-1/2"):
                    continue
                white = game.headers.get("White", "").startswith(engine)
                black = game.headers.get("Black", "").startswith(engine)
                if not (white or black):
                    continue
                board = game.board()
                for node in game.mainline():
                    mover = board.turn
                    board.push(node.move)
                    ours = (mover == chess.WHITE and white) or (mover == chess.BLACK and black)
                    cm = COMMENT.match(node.comment.strip())
                    if not ours or not cm or cm.group(2).startswith("M"):
                        continue
                    cp = float(cm.group(2)) * 100 * (-1 if cm.group(1) == "-" else 1)
                    phase = sum(PHASE.get(p.piece_type, 0) for p in board.piece_map().values())
                    won = result == ("1-0" if mover == chess.WHITE else "0-1")
                    lost = result == ("0-1" if mover == chess.WHITE else "1-0")
                    s.append(cp)
                    m.append(min(phase, 24) / 24)
                    r.append(2 if won else 0 if lost else 1)
    return np.array(s), np.array(m), np.array(r)


def probabilities(p, s, m):
    a = p[0] + p[1] * m
    b = np.maximum(p[2] + p[3] * m, 1.0)
    win = 1 / (1 + np.exp((a - s) / b))
    loss = 1 / (1 + np.exp((a + s) / b))
    draw = np.clip(1 - win - loss, 1e-9, 1)
    return win, draw, loss


def nll(p, s, m, r):
    win, draw, loss = probabilities(p, s, m)
    chosen = np.where(r == 2, win, np.where(r == 0, loss, draw))
    return -np.mean(np.log(np.clip(chosen, 1e-9, 1)))


def fit(s, m, r):
    p = np.array([150.0, 0.0, 80.0, 0.0])
    best = nll(p, s, m, r)
    # Coordinate search with shrinking steps: robust, and fast enough for 10^5 samples.
    step = np.array([64.0, 64.0, 32.0, 32.0])
    while step.max() > 0.05:
        improved = False
        for i in range(4):
            for sign in (1, -1):
                q = p.copy()
                q[i] += sign * step[i]
                if q[2] <= 5 or q[2] + q[3] <= 5:
                    continue
                v = nll(q, s, m, r)
                if v < best:
                    p, best, improved = q, v, True
        if not improved:
            step /= 2
    return p, best


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="pivot")
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()
    s, m, r = samples(args.pgn, args.engine)
    if len(s) < 100:
        sys.exit(f"fit_wdl.py: only {len(s)} samples")
    s = np.clip(s, -3000, 3000)
    p, best = fit(s, m, r)
    counts = np.bincount(r, minlength=3) / len(r)
    flat = -np.mean(np.log(np.where(r == 2, counts[2], np.where(r == 0, counts[0], counts[1]))))
    print(f"samples {len(s)} from {len(args.pgn)} file(s); results W {counts[2]:.3f} D {counts[1]:.3f} L {counts[0]:.3f}")
    print(f"a0 {p[0]:.1f}  a1 {p[1]:.1f}  b0 {p[2]:.1f}  b1 {p[3]:.1f}")
    print(f"log-likelihood per sample {-best:.4f} (flat model {-flat:.4f})")
    print("score bucket (cp)   n      predicted W/D/L        observed W/D/L")
    for lo, hi in [(-3000, -300), (-300, -150), (-150, -50), (-50, 50), (50, 150), (150, 300), (300, 3001)]:
        sel = (s >= lo) & (s < hi)
        if sel.sum() == 0:
            continue
        w, d, l = (x.mean() for x in probabilities(p, s[sel], m[sel]))
        ow, od, ol = ((r[sel] == k).mean() for k in (2, 1, 0))
        print(f"[{lo:5d}, {hi:5d})  {sel.sum():6d}   {w:.2f} {d:.2f} {l:.2f}       {ow:.2f} {od:.2f} {ol:.2f}")


if __name__ == "__main__":
    main()
