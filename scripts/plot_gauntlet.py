#!/usr/bin/env python3
"""Draws a gauntlet's Elo difference per opponent with 95% error bars.

Usage: scripts/plot_gauntlet.py RESULTS.csv [-o gauntlet.png] [--title TEXT]

RESULTS.csv is what `scripts/gauntlet.sh --csv` writes (opponent,games,score,elo,error).
The output format follows the file name (.png or .svg). Needs matplotlib (pip install matplotlib).
"""
import argparse
import csv
import math
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot_gauntlet.py: matplotlib is missing (pip install matplotlib)")


def number(text):
    try:
        value = float(text)
    except ValueError:
        return math.nan
    return value


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("-o", "--output", default="gauntlet.png")
    ap.add_argument("--title", default="Pivot gauntlet: Elo difference per opponent (95% error)")
    args = ap.parse_args()
    with open(args.csv) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit("plot_gauntlet.py: no rows")
    names = [f"{r['opponent']}\n({r['games']} games, {float(r['score']):.3f})" for r in rows]
    elo = [number(r["elo"]) for r in rows]
    err = [number(r["error"]) for r in rows]
    # An all-won or all-lost match has an infinite Elo: draw it at the edge, marked.
    finite = [e for e in elo if math.isfinite(e)] or [0.0]
    edge = max(abs(e) for e in finite) + 200
    shown = [e if math.isfinite(e) else math.copysign(edge, e if not math.isnan(e) else 1) for e in elo]
    bars = [e if math.isfinite(e) else 0 for e in err]

    fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(rows)), 4.5))
    colors = ["tab:green" if e >= 0 else "tab:red" for e in shown]
    ax.bar(range(len(rows)), shown, yerr=bars, capsize=6, color=colors, alpha=0.8)
    for i, (e, s) in enumerate(zip(elo, shown)):
        label = f"{e:+.0f}" if math.isfinite(e) else ("+inf" if e > 0 else "-inf")
        ax.annotate(label, (i, s), textcoords="offset points", xytext=(0, 8 if s >= 0 else -16),
                    ha="center")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(names)
    ax.set_ylabel("Elo difference (Pivot minus opponent)")
    ax.set_title(args.title)
    fig.tight_layout()
    fig.savefig(args.output)
    print(f"written: {args.output}")


if __name__ == "__main__":
    main()
