#!/usr/bin/env python3
"""Plots Pivot's score and node count against search depth for one position, from the `info`
lines of a real search (`go depth N`).

Usage: scripts/plot_depth.py [--fen FEN] [--depth 16] [-o depth.png] [--engine CMD]

The score is from the side to move's point of view, in pawns; mate scores are drawn at ±20 and
labelled. The output format follows the file name (.png or .svg). Needs matplotlib.
"""
import argparse
import os
import subprocess
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot_depth.py: matplotlib is missing (pip install matplotlib)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def search(engine, fen, depth):
    """Per completed depth: (score in pawns or None, mate or None, nodes, first PV move)."""
    script = f"uci\nposition fen {fen}\ngo depth {depth}\n"
    proc = subprocess.Popen(engine.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    proc.stdin.write(script)
    proc.stdin.flush()
    per_depth = {}
    for line in proc.stdout:
        words = line.split()
        if words[:1] == ["bestmove"]:
            break
        if words[:1] != ["info"] or "pv" not in words or "lowerbound" in words or "upperbound" in words:
            continue
        field = {words[i]: words[i + 1] for i in range(len(words) - 1)}
        d = int(field["depth"])
        kind, value = words[words.index("score") + 1], int(words[words.index("score") + 2])
        per_depth[d] = (value / 100 if kind == "cp" else None, value if kind == "mate" else None,
                        int(field["nodes"]), words[words.index("pv") + 1])
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait()
    return per_depth


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fen", default=KIWIPETE)
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("-o", "--output", default="depth.png")
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "pivot"))
    args = ap.parse_args()
    data = search(args.engine, args.fen, args.depth)
    if not data:
        sys.exit("plot_depth.py: no info lines")
    depths = sorted(data)
    scores = [data[d][0] if data[d][0] is not None else (20 if data[d][1] > 0 else -20) for d in depths]
    nodes = [data[d][2] for d in depths]

    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(depths, scores, marker="o", color="tab:blue", label="score (pawns)")
    for d, s in zip(depths, scores):
        label = data[d][3] if data[d][1] is None else f"#{data[d][1]} {data[d][3]}"
        ax.annotate(label, (d, s), textcoords="offset points", xytext=(0, 7), ha="center", fontsize=7)
    ax.set_xlabel("depth")
    ax.set_ylabel("score for the side to move (pawns)")
    ax.grid(alpha=0.3)
    ax2 = ax.twinx()
    ax2.semilogy(depths, nodes, marker=".", linestyle="--", color="tab:gray", label="nodes")
    ax2.set_ylabel("nodes (log scale)")
    lines = ax.get_legend_handles_labels()[0] + ax2.get_legend_handles_labels()[0]
    ax.legend(lines, ["score (pawns), labelled with the best move", "nodes searched"], loc="upper left")
    ax.set_title(f"Pivot: score and nodes by depth\n{args.fen}", fontsize=9)
    fig.tight_layout()
    fig.savefig(args.output)
    print(f"written: {args.output}")


if __name__ == "__main__":
    main()
