#!/usr/bin/env python3
"""Summarises a cutechess-cli soak run: games, score, and every game lost to a time forfeit,
an illegal move, a stalled connection or a crash/disconnect, by engine.

Usage: scripts/soak_summary.py --engine pivot [--tc TC] LOG [PGN]

LOG is cutechess-cli's output ("Finished game N (White vs Black): result {reason}" lines);
PGN, if given, adds how many games lasted 40 and 80 moves a side (the time-control
boundaries of 40/N, counted from the opening position as cutechess-cli counts them). Exits 1 if the engine lost any game in one of those ways.
"""
import argparse
import collections
import re
import sys

FINISHED = re.compile(r"^Finished game (\d+) \((.+) vs (.+)\): (\S+) \{(.*)\}")
# cutechess-cli's wording for each kind of failure; the side named is the one at fault.
FAILURES = [
    ("time forfeit", re.compile(r"^(White|Black) loses on time")),
    ("illegal move", re.compile(r"^(White|Black) makes an illegal move")),
    ("stall", re.compile(r"^(White|Black)'s connection stalls")),
    ("crash/disconnect", re.compile(r"^(White|Black) (disconnects|terminates|crashes)")),
]


def plies(pgn_path):
    counts = []
    try:
        import chess.pgn
    except ImportError:
        return counts
    with open(pgn_path) as f:
        while True:
            headers = chess.pgn.read_headers(f)
            if headers is None:
                break
            if "PlyCount" in headers:
                counts.append(int(headers["PlyCount"]))
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="pivot")
    ap.add_argument("--tc", default="?")
    ap.add_argument("log")
    ap.add_argument("pgn", nargs="?")
    args = ap.parse_args()

    games = 0
    score = collections.Counter()
    failures = collections.Counter()
    examples = []
    reasons = collections.Counter()
    with open(args.log, errors="replace") as f:
        for line in f:
            m = FINISHED.match(line.strip())
            if not m:
                continue
            _, white, black, result, reason = m.groups()
            if args.engine not in (white, black):
                continue
            games += 1
            ours_white = white == args.engine
            if result == "1/2-1/2":
                score["draw"] += 1
            elif (result == "1-0") == ours_white and result in ("1-0", "0-1"):
                score["win"] += 1
            elif result in ("1-0", "0-1"):
                score["loss"] += 1
            else:
                score["unfinished"] += 1
            reasons[re.sub(r"(White|Black)", "X", reason).split(":")[0]] += 1
            for kind, pattern in FAILURES:
                fm = pattern.match(reason)
                if fm:
                    culprit = white if fm.group(1) == "White" else black
                    who = "ours" if culprit == args.engine else "theirs"
                    failures[(kind, who)] += 1
                    examples.append(line.strip())
    lengths = plies(args.pgn) if args.pgn else []

    print(f"time control {args.tc}: {games} games with {args.engine}: "
          f"+{score['win']} -{score['loss']} ={score['draw']}"
          + (f" unfinished {score['unfinished']}" if score["unfinished"] else ""))
    for who, label in (("ours", args.engine), ("theirs", "opponents")):
        counts = ", ".join(f"{kind} {failures[(kind, who)]}" for kind, _ in FAILURES)
        print(f"  {label}: {counts}")
    if lengths:
        print(f"  games of 40+ moves a side: {sum(p >= 80 for p in lengths)}, of 80+: "
              f"{sum(p >= 160 for p in lengths)}, longest {(max(lengths) + 1) // 2} moves a side")
    print("  endings: " + ", ".join(f"{r} {n}" for r, n in reasons.most_common()))
    for line in examples:
        print("    " + line)
    bad = sum(n for (kind, who), n in failures.items() if who == "ours")
    sys.exit(1 if bad or games == 0 else 0)


if __name__ == "__main__":
    main()
