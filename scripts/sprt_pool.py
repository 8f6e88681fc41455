#!/usr/bin/env python3
"""Pools the games of one engine over several cutechess-cli PGN files and scores them.

An SPRT that a session's end or a restart cut short is continued with the same builds and a new
`-srand`; its verdict belongs to all of its games together. This script reads every finished
game of ENGINE (a comma-separated list of names, for runs that named the same build
differently) against whoever it played, and prints

- wins, losses and draws, the score, the Elo difference with its 95% interval, and the
  likelihood of superiority (LOS);
- the log-likelihood ratio of the sequential test between ELO0 and ELO1 (logistic Elo, normal
  approximation, as cutechess-cli and OpenBench compute it) from single games (trinomial) and,
  where both games of an opening were played (`-repeat -games 2`: the two games share a
  `Round`), from game pairs (pentanomial, which counts an opening's bias only once);
- from the game pairs, their mean score and standard deviation and the ratio of the mean's
  distance from 1/2 to that deviation: for one pair of builds, the games a test needs go as
  the inverse square of that ratio, so it compares how well two opening books (or time
  controls) tell the same builds apart;
- the bounds for the error rates ALPHA and BETA and the verdict so far (from the game pairs
  when there are some, else from single games);
- time forfeits per engine.

When an earlier part's PGN is gone (it was written on a machine that did not last), its counts
from an earlier report stand in for it: `--add-games W,L,D` (the tested engine's wins, losses
and draws) and `--add-pairs N0,N1,N2,N3,N4` (its game pairs scoring 0, 1/4, 1/2, 3/4 and 1).

Usage:
    scripts/sprt_pool.py --engine new,new_b run1.pgn run2.pgn [--elo0 0 --elo1 10]
    scripts/sprt_pool.py --engine new run2.pgn --add-games 275,237,616 --add-pairs 25,124,234,150,31
"""
import argparse
import math
import re
import sys
from collections import defaultdict

TAG = re.compile(r'^\[(\w+) "(.*)"\]$', re.MULTILINE)
FORFEIT = re.compile(r"\{[^}]*(loses on time|forfeit)[^}]*\}|\[Termination \"time forfeit\"\]", re.I)
# The two-sided 95% quantile of the normal distribution.
Z95 = 1.959964
RESULT_POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def games(path):
    """Yields (tags, text) for every game of a PGN file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for chunk in re.split(r"\n(?=\[Event )", text):
        tags = dict(TAG.findall(chunk))
        if "Result" in tags:
            yield tags, chunk


def expected_score(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of(score):
    if score <= 0.0 or score >= 1.0:
        return math.copysign(math.inf, score - 0.5)
    return -400.0 * math.log10(1.0 / score - 1.0)


def llr(samples, elo0, elo1):
    """GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) for samples of the score per
    game (single games, or a pair's mean), by the normal approximation."""
    n = len(samples)
    if n < 2:
        return 0.0
    mean = sum(samples) / n
    var = sum((x - mean) ** 2 for x in samples) / n
    if var == 0.0:
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)


def counts_of(size):
    """A parser for `size` comma-separated counts (non-negative integers)."""
    def parse(text):
        try:
            values = [int(v) for v in text.split(",")]
        except ValueError:
            values = []
        if len(values) != size or min(values) < 0:
            raise argparse.ArgumentTypeError(f"not {size} comma-separated counts: {text!r}")
        return values
    return parse


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+", help="PGN files written by cutechess-cli (-pgnout)")
    ap.add_argument("--engine", required=True, help="the tested engine's name(s), comma-separated")
    ap.add_argument("--elo0", type=float, default=0.0)
    ap.add_argument("--elo1", type=float, default=10.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--add-games", type=counts_of(3), metavar="W,L,D",
                    help="wins, losses and draws of an earlier part whose PGN is gone")
    ap.add_argument("--add-pairs", type=counts_of(5), metavar="N0,N1,N2,N3,N4",
                    help="that part's game pairs by score 0, 1/4, 1/2, 3/4, 1 (pentanomial)")
    args = ap.parse_args()
    names = set(args.engine.split(","))

    singles = []
    rounds = defaultdict(list)  # (file, round) -> the tested engine's points in that round
    forfeits = defaultdict(int)
    wins = losses = draws = unfinished = 0
    for path in args.pgn:
        for tags, text in games(path):
            white, black, result = tags.get("White"), tags.get("Black"), tags["Result"]
            if white in names and black in names:
                sys.exit(f"sprt_pool.py: {white} played {black}: both are named by --engine")
            if white not in names and black not in names:
                continue
            if result not in RESULT_POINTS:
                unfinished += 1
                continue
            points = RESULT_POINTS[result][0 if white in names else 1]
            singles.append(points)
            rounds[(path, tags.get("Round", str(len(singles))))].append(points)
            wins += points == 1.0
            losses += points == 0.0
            draws += points == 0.5
            if FORFEIT.search(text):
                loser = white if result == "0-1" else black
                forfeits[loser] += 1

    earlier_pairs = []
    if args.add_games:
        w, l, d = args.add_games
        singles += [1.0] * w + [0.0] * l + [0.5] * d
        wins, losses, draws = wins + w, losses + l, draws + d
    if args.add_pairs:
        for value, count in zip((0.0, 0.25, 0.5, 0.75, 1.0), args.add_pairs):
            earlier_pairs += [value] * count

    n = len(singles)
    if n == 0:
        sys.exit(f"sprt_pool.py: no finished game of {args.engine} in the files given")
    score = sum(singles) / n
    var = sum((x - score) ** 2 for x in singles) / n
    half = Z95 * math.sqrt(var / n)
    lo, hi = elo_of(max(1e-9, score - half)), elo_of(min(1 - 1e-9, score + half))
    los = 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses)))) if wins + losses else 0.5
    pairs = [sum(p) / 2.0 for p in rounds.values() if len(p) == 2] + earlier_pairs
    lower = math.log(args.beta / (1.0 - args.alpha))
    upper = math.log((1.0 - args.beta) / args.alpha)

    print(f"{n} games of {args.engine}: {wins} - {losses} - {draws}, score {score:.4f}")
    print(f"Elo {elo_of(score) + 0.0:+.1f} +- {(hi - lo) / 2:.1f} (95%), LOS {100 * los:.1f}%")
    tri = llr(singles, args.elo0, args.elo1)
    print(f"LLR [{args.elo0:g}, {args.elo1:g}] from single games: {round(tri, 2) + 0.0:.2f} (bounds {lower:.2f}, {upper:.2f})")
    penta = None
    if pairs:
        counts = [sum(1 for p in pairs if p == v) for v in (0.0, 0.25, 0.5, 0.75, 1.0)]
        penta = llr(pairs, args.elo0, args.elo1)
        print(f"LLR from {len(pairs)} game pairs: {round(penta, 2) + 0.0:.2f} (pentanomial {counts[0]}, {counts[1]}, {counts[2]}, {counts[3]}, {counts[4]})")
        if len(pairs) > 1:
            mean = sum(pairs) / len(pairs)
            sd = math.sqrt(sum((p - mean) ** 2 for p in pairs) / len(pairs))
            if sd > 0:
                t = (mean - 0.5) / sd
                print(f"per pair: score {mean:.4f}, sd {sd:.4f}, (score - 1/2) / sd = {t:+.3f} "
                      f"+- {Z95 / math.sqrt(len(pairs)):.3f} (95%)")
    verdict = penta if penta is not None else tri
    if verdict >= upper:
        print(f"H1 accepted: the engine gains {args.elo1:g} Elo or more")
    elif verdict <= lower:
        print(f"H0 accepted: the engine gains {args.elo0:g} Elo or less")
    else:
        print("undecided")
    print("time forfeits:", ", ".join(f"{k} {v}" for k, v in sorted(forfeits.items())) or "none")
    if unfinished:
        print(f"{unfinished} unfinished games left out")


if __name__ == "__main__":
    main()
