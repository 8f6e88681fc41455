#!/usr/bin/env python3
"""Audits the principal variations Pivot prints: searches every position of an EPD file to a
fixed depth and checks every `info ... pv` line.

Usage: scripts/pv_audit.py EPD_FILE [--depth D] [--engine CMD]

Prints: the number of pv lines, how many contain an illegal move (must be 0), and how many
final per-depth PVs (the last exact line of each completed depth) are shorter than their depth,
split into those whose last move ends the game (mate, stalemate, draw by rule) and the rest.
Needs python-chess (pip install chess).
"""
import argparse
import os
import subprocess
import sys

try:
    import chess
except ImportError:
    sys.exit("pv_audit.py: python-chess is missing (pip install chess)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def field(tokens, key):
    return tokens[tokens.index(key) + 1] if key in tokens else None


def ends_game(board, moves):
    b = board.copy()
    for m in moves:
        b.push(m)
    return b.is_game_over(claim_draw=True) or b.can_claim_draw()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("epd")
    ap.add_argument("--depth", type=int, default=10)
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "pivot"))
    args = ap.parse_args()

    proc = subprocess.Popen(args.engine.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    send("uci")
    for line in proc.stdout:
        if line.strip() == "uciok":
            break

    positions = pv_lines = illegal = finals = short_end = short_other = 0
    examples = []
    for epd in open(args.epd):
        if not epd.strip() or epd.startswith("#"):
            continue
        board, ops = chess.Board.from_epd(epd)
        positions += 1
        send("ucinewgame")
        send("position fen " + board.fen())
        send(f"go depth {args.depth}")
        final = {}
        for line in proc.stdout:
            line = line.strip()
            if line.startswith("bestmove"):
                break
            tokens = line.split()
            if not line.startswith("info") or "pv" not in tokens:
                continue
            pv_lines += 1
            pv_text = tokens[tokens.index("pv") + 1:]
            b = board.copy()
            moves = []
            try:
                for t in pv_text:
                    m = chess.Move.from_uci(t)
                    if m not in b.legal_moves:
                        raise ValueError(t)
                    b.push(m)
                    moves.append(m)
            except ValueError:
                illegal += 1
                examples.append(f"illegal: {ops.get('id')}: {line}")
                continue
            if "lowerbound" in tokens or "upperbound" in tokens:
                continue
            final[int(field(tokens, "depth"))] = moves
        for depth, moves in final.items():
            finals += 1
            if len(moves) < depth:
                if ends_game(board, moves):
                    short_end += 1
                else:
                    short_other += 1
                    if len(examples) < 10:
                        examples.append(f"short: {ops.get('id')} depth {depth}: {len(moves)} moves")
    send("quit")
    proc.wait()
    print(f"positions {positions}, depth {args.depth}")
    print(f"info pv lines {pv_lines}, illegal {illegal}")
    print(f"final per-depth PVs {finals}, shorter than their depth {short_end + short_other} "
          f"({short_end} ending the game, {short_other} otherwise)")
    for e in examples:
        print("  " + e)


if __name__ == "__main__":
    main()
