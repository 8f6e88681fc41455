#!/usr/bin/env python3
"""The final position of each game of a PGN opening book as an EPD line (four FEN fields, no
operations), the form `datagen --book` and cutechess-cli's `-openings format=epd` read.

Usage: scripts/pgn_to_epd.py BOOK.pgn [--skip N] [--count N] > BOOK.epd

  --skip N    leave out the book's first N games (say, the openings the milestone games use)
  --count N   stop after N positions

Needs python-chess (pip install chess). A game whose moves python-chess rejects is reported on
stderr and skipped.
"""
import argparse
import sys

try:
    import chess.pgn
except ImportError:
    sys.exit("pgn_to_epd.py: python-chess is missing (pip install chess)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pgn")
    ap.add_argument("--skip", type=int, default=0)
    ap.add_argument("--count", type=int, default=None)
    args = ap.parse_args()
    if args.skip < 0 or (args.count is not None and args.count < 0):
        sys.exit("pgn_to_epd.py: --skip and --count take a number of games, 0 or more")
    seen = written = 0
    with open(args.pgn, encoding="utf-8", errors="replace") as f:
        while args.count is None or written < args.count:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            seen += 1
            if seen <= args.skip:
                continue
            if game.errors:
                print(f"pgn_to_epd.py: game {seen} skipped: {game.errors[0]}", file=sys.stderr)
                continue
            print(game.end().board().epd())
            written += 1
    print(f"pgn_to_epd.py: {written} positions from {seen} games", file=sys.stderr)


if __name__ == "__main__":
    main()
