#!/usr/bin/env python3
"""Exact-result check for Syzygy support: does Pivot convert tablebase wins and hold
tablebase draws, with its tables and without them?

Usage: scripts/tb_check.py --tables DIR [--positions 100] [--movetime 100] [--seed 1]
                           [--materials KQvKR KRvKP ...] [--engine CMD]

Random legal positions of the given 4-piece materials are drawn (side to move not in check,
no immediate capture for the side to move, so the material is the one named), and classified
by the tables (python-chess reads them too). Each won or drawn position is then played out by
Pivot against itself, the stronger side (or either side, for draws) with `SyzygyPath` set in
one run and unset in another, the other side always with tables, up to 150 plies at the
given movetime. A game counts as correct when it ends as the tables say: a win is mated (or
reaches a tablebase-won position for the winner after a conversion), a draw is not lost. Prints
the counts per material and per setting. Needs python-chess.
"""
import argparse
import os
import random
import sys

try:
    import chess
    import chess.engine
    import chess.syzygy
except ImportError:
    sys.exit("tb_check.py: python-chess is missing (pip install chess)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIECES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT, "P": chess.PAWN}


def random_position(material, rng):
    white, black = material.split("v")
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), len(white) + len(black))
        ok = True
        for letter, sq in zip(white + black, squares):
            color = chess.WHITE if squares.index(sq) < len(white) else chess.BLACK
            if letter == "P" and chess.square_rank(sq) in (0, 7):
                ok = False
                break
            board.set_piece_at(sq, chess.Piece(PIECES[letter], color))
        if not ok:
            continue
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if not board.is_valid() or board.is_check() or board.is_game_over():
            continue
        if any(board.is_capture(m) for m in board.legal_moves):
            continue
        return board


def play(engines, board, movetime):
    """Plays to the end or 150 plies; returns the final board."""
    board = board.copy()
    for _ in range(150):
        if board.is_game_over(claim_draw=True):
            break
        engine = engines[board.turn]
        result = engine.play(board, chess.engine.Limit(time=movetime / 1000))
        board.push(result.move)
    return board


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", required=True)
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--movetime", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--materials", nargs="+", default=["KQvKR", "KRvKP", "KPvKP", "KRvKB", "KBPvK", "KRvKN"])
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "pivot"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    tables = chess.syzygy.open_tablebase(args.tables)
    with_tb = chess.engine.SimpleEngine.popen_uci(args.engine)
    with_tb.configure({"SyzygyPath": os.path.abspath(args.tables)})
    without = chess.engine.SimpleEngine.popen_uci(args.engine)
    helper = chess.engine.SimpleEngine.popen_uci(args.engine)
    helper.configure({"SyzygyPath": os.path.abspath(args.tables)})
    counts = {}
    try:
        for i in range(args.positions):
            material = args.materials[i % len(args.materials)]
            board = random_position(material, rng)
            wdl = tables.probe_wdl(board)
            if wdl is None:
                continue
            # The side under test: the winner of a won position, the side to move of a draw,
            # the loser's opponent for a lost one.
            side = board.turn if wdl >= 0 else not board.turn
            expected = "win" if abs(wdl) == 2 else "draw"
            for name, tested in (("with tables", with_tb), ("without tables", without)):
                engines = {side: tested, not side: helper}
                for e in (tested, helper):
                    e.protocol.send_line("ucinewgame")
                end = play(engines, board, args.movetime)
                outcome = end.outcome(claim_draw=True)
                if expected == "win":
                    ok = outcome is not None and outcome.winner == side
                    if outcome is None:
                        probe = tables.get_wdl(end)
                        ok = probe is not None and (probe == 2 if end.turn == side else probe == -2)
                else:
                    ok = outcome is None or outcome.winner != (not side)
                key = (material, expected, name)
                good, total = counts.get(key, (0, 0))
                counts[key] = (good + int(ok), total + 1)
        print(f"{'material':8} {'result':6} {'setting':16} correct")
        for (material, expected, name), (good, total) in sorted(counts.items()):
            print(f"{material:8} {expected:6} {name:16} {good}/{total}")
        for name in ("with tables", "without tables"):
            good = sum(g for (m, e, n), (g, t) in counts.items() if n == name)
            total = sum(t for (m, e, n), (g, t) in counts.items() if n == name)
            print(f"{name}: {good}/{total} correct")
    finally:
        for e in (with_tb, without, helper):
            e.quit()
        tables.close()


if __name__ == "__main__":
    main()
