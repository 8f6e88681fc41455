#!/usr/bin/env python3
"""Tunes Pivot's search parameters by SPSA with cutechess-cli games.

Each iteration perturbs every tuned parameter by +c or -c at random, plays game pairs
(same opening, colours swapped) between the two perturbed engines, and moves the parameters
towards the side that scored better. The schedule is OpenBench's: per parameter the final
perturbation c_end and learning rate r_end (the last two fields of `pivot tunables`), with
c_k = c / k^0.101 and a_k = a / (A + k)^0.602 over the planned iterations.

Build the engine with the parameters as UCI options first:

    cargo build --release --features tune --target-dir target/tune

then, for example,

    scripts/spsa.py --engine target/tune/release/pivot --iterations 2000 --tc 5+0.05 \\
        --only rfp_margin,futility_base,futility_margin --state spsa.json

The state file keeps the parameters and the iteration reached, so a run stopped at any point
resumes where it was; `--log spsa.csv` records every iteration. At the end (and with --show
at any time) it prints the tuned values in `pivot tunables` form. Needs cutechess-cli on PATH.

A tuning run outlives a working session: `--minutes M` stops it after the first iteration that
ends M minutes after the start, and a state file kept in the repository (`tuning/`) carries it to
the next session and machine. The state records the engine's `bench` signature; a run resumes
only with an engine of the same signature (the same search), since a changed search makes the
values tuned so far a guess about another program.
"""

import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALPHA, GAMMA = 0.602, 0.101


def nearest(x):
    """x rounded half up, the same way for a step up as for a step down."""
    return math.floor(x + 0.5)


def read_tunables(engine):
    """The engine's `tunables` lines: name, int, value, min, max, c_end, r_end."""
    out = subprocess.run([engine, "tunables"], capture_output=True, text=True, check=True)
    params = {}
    for line in out.stdout.splitlines():
        f = [x.strip() for x in line.split(",")]
        if len(f) != 7:
            continue
        params[f[0]] = {
            "value": float(f[2]), "min": float(f[3]), "max": float(f[4]),
            "c_end": float(f[5]), "r_end": float(f[6]),
        }
    if not params:
        sys.exit(f"spsa.py: {engine} printed no tunables")
    return params


def bench_signature(engine):
    """The node count that `engine bench` ends with (the search's signature)."""
    out = subprocess.run([engine, "bench"], capture_output=True, text=True, check=True)
    m = re.search(r"^(\d+) nodes", out.stdout.strip().splitlines()[-1])
    if not m:
        sys.exit(f"spsa.py: {engine} bench printed no signature")
    return int(m.group(1))


def play(args, plus, minus, seed):
    """Plays args.pairs game pairs between the two settings; returns (wins, losses, draws)
    of `plus`."""
    def engine(name, values):
        opts = [f"option.{k}={nearest(v)}" for k, v in values.items()]
        return ["-engine", f"name={name}", f"cmd={args.engine}", "proto=uci",
                f"option.Hash={args.hash}", *opts]
    book = args.book
    fmt = "pgn" if book.endswith(".pgn") else "epd"
    cmd = ["cutechess-cli", *engine("plus", plus), *engine("minus", minus),
           "-each", f"tc={args.tc}", "timemargin=0",
           "-openings", f"file={book}", f"format={fmt}", "order=random",
           "-srand", str(seed), "-repeat", "-games", "2", "-rounds", str(args.pairs),
           "-concurrency", str(args.concurrency), "-recover",
           "-draw", "movenumber=40", "movecount=8", "score=10",
           "-resign", "movecount=4", "score=800", "twosided=true"]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    scores = re.findall(r"^Score of plus vs minus: (\d+) - (\d+) - (\d+)", out, re.M)
    if not scores:
        sys.exit("spsa.py: cutechess-cli reported no score:\n" + out[-2000:])
    forfeits = len(re.findall(r"^Finished game .*\{.*(?:on time|illegal|disconnects|stalls)", out, re.M))
    w, l, d = map(int, scores[-1])
    return w, l, d, forfeits


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="a Pivot built with --features tune")
    ap.add_argument("--iterations", type=int, default=1000, help="planned iterations")
    ap.add_argument("--pairs", type=int, default=2, help="game pairs per iteration")
    ap.add_argument("--tc", default="5+0.05")
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--book", default=os.path.join(ROOT, "tests/data/8moves_v3_first1000.epd"))
    ap.add_argument("--only", help="comma-separated names to tune (default: all)")
    ap.add_argument("--state", default="spsa_state.json")
    ap.add_argument("--log", help="append one CSV row per iteration here")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--r-end", type=float,
                    help="learning rate r_end of every parameter of a new state (default: the "
                         "engine's, OpenBench's 0.002, made for tens of thousands of games)")
    ap.add_argument("--minutes", type=float,
                    help="stop after the iteration that ends this many minutes from the start")
    ap.add_argument("--show", action="store_true", help="print the state's values and stop")
    args = ap.parse_args()
    args.engine = os.path.abspath(args.engine)
    if not args.show and shutil.which("cutechess-cli") is None:
        sys.exit("spsa.py: cutechess-cli is not on PATH (https://github.com/cutechess/cutechess)")

    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
        if args.r_end is not None and any(p["r_end"] != args.r_end
                                          for p in state["params"].values()):
            sys.exit(f"spsa.py: {args.state} keeps its own r_end; --r-end applies to a new state")
    else:
        params = read_tunables(args.engine)
        if args.only:
            names = args.only.split(",")
            unknown = [n for n in names if n not in params]
            if unknown:
                sys.exit(f"spsa.py: no such tunables: {', '.join(unknown)}")
            params = {n: params[n] for n in names}
        if args.r_end is not None:
            for p in params.values():
                p["r_end"] = args.r_end
        state = {"iteration": 0, "planned": args.iterations, "params": params,
                 "wins": 0, "losses": 0, "draws": 0, "forfeits": 0}
    params = state["params"]
    if args.show:
        report(state)
        return
    signature = bench_signature(args.engine)
    if state.setdefault("bench", signature) != signature:
        sys.exit(f"spsa.py: {args.state} was tuned on bench {state['bench']}, "
                 f"{args.engine} has bench {signature}: start a new state for a changed search")
    started = time.monotonic()

    planned = state["planned"]
    rng = random.Random(args.seed * 1_000_003 + state["iteration"])
    log = open(args.log, "a") if args.log else None
    if log and log.tell() == 0:
        log.write("iteration,wins,losses,draws," + ",".join(params) + "\n")
    while state["iteration"] < planned:
        k = state["iteration"] + 1
        plus, minus, deltas, steps = {}, {}, {}, {}
        for name, p in params.items():
            c_k, move = schedule(p, planned, k)
            delta = rng.choice((-1, 1))
            plus[name] = min(p["max"], max(p["min"], p["value"] + c_k * delta))
            minus[name] = min(p["max"], max(p["min"], p["value"] - c_k * delta))
            deltas[name], steps[name] = delta, move
        w, l, d, forfeits = play(args, plus, minus, seed=args.seed * 100_000 + k)
        for name, p in params.items():
            p["value"] = min(p["max"], max(p["min"], p["value"] + steps[name] * (w - l) * deltas[name]))
        state["iteration"] = k
        state["wins"] += w
        state["losses"] += l
        state["draws"] += d
        state["forfeits"] += forfeits
        with open(args.state + ".tmp", "w") as f:
            json.dump(state, f, indent=1)
        os.replace(args.state + ".tmp", args.state)
        if log:
            log.write(f"{k},{w},{l},{d}," + ",".join(f"{p['value']:.3f}" for p in params.values()) + "\n")
            log.flush()
        print(f"iteration {k}/{planned}: {w}-{l}-{d}" + (f", {forfeits} forfeits" if forfeits else ""),
              flush=True)
        if args.minutes is not None and time.monotonic() - started >= 60 * args.minutes:
            print(f"stopped after {args.minutes:g} minutes; the state resumes from here",
                  flush=True)
            break
    report(state)


def schedule(p, planned, k):
    """OpenBench's schedule at iteration k of `planned`: the perturbation c_k, and how far
    the parameter moves per game of difference between the two sides (r_k c_k, with
    r_k = a_k / c_k^2)."""
    big_a = 0.1 * planned
    c = p["c_end"] * planned ** GAMMA
    a = p["r_end"] * p["c_end"] ** 2 * (big_a + planned) ** ALPHA
    c_k = c / k ** GAMMA
    a_k = a / (big_a + k) ** ALPHA
    return c_k, a_k / c_k


def report(state):
    print(f"bench {state.get('bench', '?')}, "
          f"after {state['iteration']} of {state['planned']} iterations "
          f"({state['wins']} - {state['losses']} - {state['draws']} between the perturbed pairs, "
          f"{state['forfeits']} forfeits):")
    planned = state["planned"]
    print("# after the value: how far the rest of the schedule moves the parameter if one side "
          "wins every iteration by one game")
    for name, p in state["params"].items():
        reach = sum(schedule(p, planned, k)[1] for k in range(state["iteration"] + 1, planned + 1))
        print(f"{name}, int, {nearest(p['value'])}, {p['min']:g}, {p['max']:g}, {p['c_end']:g}, "
              f"{p['r_end']:g}   # {p['value']:.2f}, reach {reach:.1f}")


if __name__ == "__main__":
    main()
