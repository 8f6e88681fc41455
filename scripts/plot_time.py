#!/usr/bin/env python3
"""Plots the time each engine used per move number, from cutechess-cli PGN files (one panel per
file), and prints per file and engine: games, mean seconds per move, median clock left at the
end (and, under a repeating control, just before each of the first four controls).

Usage: scripts/plot_time.py PGN [PGN ...] [-o time.png] [--title T] [--label L ...] [--max-move 100]
                            [--median]

The time of a move is read from cutechess's move comment, e.g. {+0.25/12 0.213s}; book moves
({book}) and moves without a time are skipped. A panel is titled with the file's TimeControl tag
unless --label is given (once per file). The clock left is computed the way cutechess keeps it:
base + increment at the start, minus each move's time, plus the increment after each timed move
(book moves get none), plus the base again every `moves` moves for `moves/base`; n/a for time
controls it cannot read (inf, N/move, hourglass). The output format follows the file name
(.png or .svg). Needs matplotlib.
"""
import argparse
import os
import re
import statistics
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
except ImportError:
    sys.exit("plot_time.py: matplotlib is missing (pip install matplotlib)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKEN = re.compile(r"""
    \[\s*(?P<tag>\w+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\]   # [Name "value"]
  | \{(?P<comment>[^}]*)\}                                  # {comment}
  | ;[^\n]*                                                 # rest-of-line comment
  | (?P<result>1-0|0-1|1/2-1/2|\*)
  | (?P<number>\d+)(?P<dots>\.+)                            # 12. or 12...
  | \$\d+                                                   # NAG
  | (?P<paren>[()])                                         # variation
  | (?P<move>[^\s{}()\[\];]+)                               # SAN move
""", re.VERBOSE)
SECONDS = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)s\b")
SIDES = ("White", "Black")


def parse_pgn(path):
    """Games as {"tags": {...}, "moves": [(full move number, 0 white / 1 black, seconds or None)]}."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = "\n".join(line for line in f.read().splitlines() if not line.startswith("%"))
    games, game, depth = [], None, 0
    number, side, last_move = 1, 0, False
    for m in TOKEN.finditer(text):
        if m.group("tag"):
            if game is None or game["moves"] or game["done"]:
                game = {"tags": {}, "moves": [], "done": False}
                games.append(game)
                number, side, depth, last_move = 1, 0, 0, False
            game["tags"][m.group("tag")] = m.group("value").replace('\\"', '"')
            if m.group("tag") == "FEN" and len(m.group("value").split()) >= 6:
                fields = m.group("value").split()
                side, number = (1 if fields[1] == "b" else 0), int(fields[5])
            continue
        if game is None or game["done"]:
            continue
        if m.group("paren"):
            depth += 1 if m.group("paren") == "(" else -1  # a comment after ")" is the main line's
        elif depth > 0:
            continue
        elif m.group("comment") is not None:
            if last_move:
                found = SECONDS.search(m.group("comment"))
                if found and game["moves"][-1][2] is None:
                    game["moves"][-1] = game["moves"][-1][:2] + (float(found.group(1)),)
        elif m.group("result"):
            game["done"] = True
        elif m.group("number"):
            number, side = int(m.group("number")), (1 if len(m.group("dots")) >= 3 else 0)
        elif m.group("move"):
            game["moves"].append((number, side, None))
            number, side, last_move = number + side, 1 - side, True
    return games


def clock_trace(tc, moves):
    """Seconds left after the side's moves (list of seconds or None for book) and, for a repeating
    control `moves/base`, the seconds left at each control reached, before its time is added;
    (None, []) for a time control it cannot read."""
    found = re.fullmatch(r"(?:(\d+)/)?(\d+(?:\.\d+)?)(?::(\d+(?:\.\d+)?))?(?:\+(\d+(?:\.\d+)?))?", tc or "")
    if not found:
        return None, []
    per, base, inc = found.group(1), float(found.group(2)), float(found.group(4) or 0)
    if found.group(3):  # minutes:seconds
        base = base * 60 + float(found.group(3))
    clock, at_controls = base + inc, []
    for i, seconds in enumerate(moves, 1):
        if seconds is not None:
            clock += inc - seconds
        if per and int(per) > 0 and i % int(per) == 0:
            at_controls.append(clock)
            clock += base
    return clock, at_controls


def collect(games):
    """Per engine: games, all move times, times by move number, clocks left at the end."""
    stats = {}
    for game in games:
        for side, colour in enumerate(SIDES):
            name = game["tags"].get(colour, "?")
            own = [(n, t) for n, s, t in game["moves"] if s == side]
            if not own:
                continue
            entry = stats.setdefault(name, {"games": 0, "times": [], "by_move": {}, "clocks": [], "controls": {}})
            entry["games"] += 1
            for n, t in own:
                if t is not None:
                    entry["times"].append(t)
                    entry["by_move"].setdefault(n, []).append(t)
            tc = game["tags"].get(colour + "TimeControl", game["tags"].get("TimeControl"))
            clock, at_controls = clock_trace(tc, [t for _, t in own])
            if clock is not None:
                entry["clocks"].append(clock)
            for k, left in enumerate(at_controls, 1):
                entry["controls"].setdefault(k, []).append(left)
    return stats


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("-o", "--output", default="time.png")
    ap.add_argument("--title")
    ap.add_argument("--label", action="append", help="panel title, once per PGN file")
    ap.add_argument("--max-move", type=int, default=100)
    ap.add_argument("--median", action="store_true", help="also draw the median (dashed)")
    args = ap.parse_args()
    if args.label and len(args.label) != len(args.pgn):
        sys.exit(f"plot_time.py: {len(args.label)} --label for {len(args.pgn)} PGN files")
    if os.path.splitext(args.output)[1].lower() not in (".png", ".svg"):
        sys.exit("plot_time.py: the output must end in .png or .svg")

    panels = []
    for i, path in enumerate(args.pgn):
        if not os.path.isfile(path):
            sys.exit(f"plot_time.py: no such file: {path}")
        games = parse_pgn(path)
        if not games:
            sys.exit(f"plot_time.py: no games in {path}")
        tcs = sorted({g["tags"].get("TimeControl") or "{}/{}".format(g["tags"].get("WhiteTimeControl", "?"),
                                                                      g["tags"].get("BlackTimeControl", "?"))
                      for g in games})
        label = args.label[i] if args.label else "tc " + ", ".join(tcs)
        panels.append((path, label, collect(games)))

    names = sorted({name for _, _, stats in panels for name in stats})
    colours = {name: f"C{i % 10}" for i, name in enumerate(names)}
    cols = min(len(panels), 3)
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5.5 * cols, 4.2 * rows), squeeze=False)
    for ax, (path, label, stats) in zip(axes.flat, panels):
        print(f"{path} ({label})")
        width = max(len("engine"), *(len(name) for name in stats))
        print(f"  {'engine':<{width}}  {'games':>5}  {'moves':>5}  {'mean s/move':>11}  {'median clock left s':>19}")
        for name, entry in sorted(stats.items()):
            mean = f"{statistics.mean(entry['times']):.3f}" if entry["times"] else "n/a"
            clock = f"{statistics.median(entry['clocks']):.2f}" if entry["clocks"] else "n/a"
            print(f"  {name:<{width}}  {entry['games']:>5}  {len(entry['times']):>5}  {mean:>11}  {clock:>19}")
            if entry["controls"]:
                print(" " * (width + 4) + "median clock left at control "
                      + ", ".join(f"{k} ({len(c)} games) {statistics.median(c):.2f} s"
                                  for k, c in sorted(entry["controls"].items())[:4]))
            xs = sorted(n for n in entry["by_move"] if n <= args.max_move)
            if not xs:
                continue
            ax.plot(xs, [statistics.mean(entry["by_move"][n]) for n in xs], color=colours[name],
                    marker=".", label=f"{name} (mean)" if args.median else name)
            if args.median:
                ax.plot(xs, [statistics.median(entry["by_move"][n]) for n in xs], color=colours[name],
                        linestyle="--", label=f"{name} (median)")
        ax.set_title(label)
        ax.set_xlabel("move number")
        ax.set_ylabel("seconds per move")
        ax.set_xlim(left=0)
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    if args.title:
        fig.suptitle(args.title)
    fig.tight_layout()
    fig.savefig(args.output)
    print(f"written: {args.output}")


if __name__ == "__main__":
    main()
