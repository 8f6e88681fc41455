#!/usr/bin/env python3
"""Picks the openings of a book where one side stands clearly better, for self-play tests with
fewer draws.

From balanced openings most games between two close builds are drawn, and a draw says nothing
about which build is stronger. From an opening where one side stands about a pawn better, the
better side usually wins and the game turns on whether the other side holds: with `-repeat`
each build plays both sides of it, so a game pair tells the builds apart more often (the idea
of the unbalanced opening books that engine-testing frameworks moved to). This script searches
each opening with Pivot at a fixed node count and keeps those whose score, from White's point
of view and either sign, lies in a window; it writes them as EPD, in the input's order, each
position once. Books of balanced openings hold few such positions; `--random-plies` first
plays that many random legal moves from each opening (the same moves for the same `--seed`),
which often leaves one side a pawn or so ahead.

Measured once (CHANGELOG.md): a book made so from 2moves_v1 (2 random moves, 80 to 160 cp)
halved the draws between two Pivot builds at 2+0.02 (30% against 60% on 8moves_v3), but the
per-pair ratio of `scripts/sprt_pool.py` for a known gain came out lower, 0.102 against 0.135
on 8moves_v3 in the same hours (within the error): no sign that it needs fewer games.

Usage: scripts/unbalanced_book.py IN.epd OUT.epd [--engine PATH] [--nodes 20000]
                                  [--min 80] [--max 160] [--limit N] [--jobs 1]
                                  [--random-plies 0] [--seed 1]

  IN.epd      one FEN (or EPD) per line; lines that do not parse are skipped and counted
  --engine    the Pivot binary (default: target/release/pivot of this checkout)
  --nodes     the search of each opening (default 20000)
  --min/--max the window of |score| in centipawns (default 80 to 160); mates are left out
  --limit     read only the first N openings
  --jobs      engines searching side by side (default 1)
  --random-plies, --seed
              random legal moves played from each opening before its search (default 0),
              and the seed that chooses them

Prints how many openings were read, searched and kept, and how the scores spread. Needs
python-chess.
"""
import argparse
import concurrent.futures
import os
import random
import sys

import chess
import chess.engine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_openings(path, limit, random_plies=0, seed=1):
    """The openings of `path` as (EPD line, board), each after `random_plies` random moves
    (an opening whose random moves end the game is skipped and counted)."""
    rng = random.Random(seed)
    boards, bad = [], 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if len(fields) < 4:
                continue
            fen = " ".join(fields[:4]) + " 0 1"
            try:
                board = chess.Board(fen)
            except ValueError:
                bad += 1
                continue
            for _ in range(random_plies):
                moves = list(board.legal_moves)
                if not moves:
                    break
                board.push(rng.choice(moves))
            if not board.is_valid() or board.is_game_over():
                bad += 1
                continue
            epd = board.epd() if random_plies else line.rstrip("\n")
            boards.append((epd, board))
            if limit and len(boards) >= limit:
                break
    return boards, bad


def score_part(engine_path, nodes, part):
    """White's score of each opening of `part` (None for a mate or no score)."""
    scores = []
    with chess.engine.SimpleEngine.popen_uci(engine_path) as engine:
        engine.configure({"Hash": 16})
        for _, board in part:
            info = engine.analyse(board, chess.engine.Limit(nodes=nodes), game=object())
            score = info.get("score")
            white = score.white().score() if score is not None else None
            scores.append(white)
    return scores


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "pivot"))
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--min", type=int, default=80)
    ap.add_argument("--max", type=int, default=160)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--random-plies", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not os.path.exists(args.engine):
        sys.exit(f"no engine at {args.engine}: build it (cargo build --release) or pass --engine")
    if args.min > args.max:
        sys.exit("--min must not exceed --max")
    openings, bad = read_openings(args.inp, args.limit, args.random_plies, args.seed)
    jobs = max(1, args.jobs)
    size = max(1, -(-len(openings) // jobs))
    parts = [openings[i:i + size] for i in range(0, len(openings), size)]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        results = pool.map(lambda p: score_part(args.engine, args.nodes, p), parts)
        scores = [s for part in results for s in part]
    # Random moves from different openings may meet in one position: it is kept once.
    kept, seen = [], set()
    for (line, _), s in zip(openings, scores):
        if s is not None and args.min <= abs(s) <= args.max and line not in seen:
            seen.add(line)
            kept.append(line)
    with open(args.out, "w", encoding="utf-8") as f:
        for line in kept:
            f.write(line + "\n")
    known = sorted(abs(s) for s in scores if s is not None)
    print(f"{len(openings)} openings read ({bad} skipped), {len(known)} scored, "
          f"{len(kept)} kept with |score| in [{args.min}, {args.max}] at {args.nodes} nodes")
    if known:
        quart = [known[len(known) * q // 4] for q in (1, 2, 3)]
        print(f"|score| quartiles {quart[0]} / {quart[1]} / {quart[2]} cp")


if __name__ == "__main__":
    main()
