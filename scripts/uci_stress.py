#!/usr/bin/env python3
"""Protocol stress test: random UCI traffic against one Pivot process.

Usage: scripts/uci_stress.py [--rounds N] [--seed S] [--engine CMD]

Each round sends one of: `position` (random legal game prefix, sometimes a FEN from the test
data), `go` with random limits followed at a random moment by `stop` (or nothing), `isready`,
`ucinewgame`, `setoption` of Hash, MultiPV, Threads or UCI_ShowWDL (MultiPV sometimes out of
range). Some positions end the search at once or reach the maximum depth quickly (bare kings,
a mate in one, checkmate, stalemate, a single legal move, a fifty-move draw). It checks that every `go` gets exactly one `bestmove`, that every
`bestmove` is legal in the position it was searched from (or 0000 when there is none), that
`go infinite` and `go ponder` send no `bestmove` before `stop` (waiting up to 0.3 s first, and
sometimes asking `isready` meanwhile), that every `isready` gets `readyok`, and that the process
is alive at the end.
Needs python-chess (pip install chess).
"""
import argparse
import os
import queue
import random
import subprocess
import sys
import threading
import time

try:
    import chess
except ImportError:
    sys.exit("uci_stress.py: python-chess is missing (pip install chess)")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HANG_SECONDS = 30
# Positions where the search ends at once or runs to the maximum depth within milliseconds.
QUICK_FENS = [
    "8/8/4k3/8/8/3K4/8/8 w - - 0 1",            # bare kings
    "7k/8/6K1/8/8/8/Q7/8 w - - 0 1",            # mate in one (Qa8#)
    "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",           # checkmated
    "7k/8/6QK/8/8/8/8/8 b - - 0 1",             # stalemate
    "k7/8/1K6/8/8/8/8/7R b - - 0 1",            # a single legal move
    "8/8/4k3/8/8/3KR3/8/8 b - - 100 80",        # fifty-move rule reached
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",            # mate in one (Rh8#)
]


def read_fens():
    fens = []
    for name in ("wac.epd", "mates_subset.epd"):
        with open(os.path.join(ROOT, "tests", "data", name)) as f:
            for line in f:
                fields = line.split()[:4]
                fens.append(chess.Board(" ".join(fields) + " 0 1").fen())
    return fens


class Engine:
    def __init__(self, cmd):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def drain(self):
        """Every line received so far, without waiting."""
        got = []
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return got
            if line is None:
                raise AssertionError("engine exited")
            got.append(line)

    def expect(self, prefix):
        """Lines up to and including the first starting with prefix."""
        got = []
        deadline = time.time() + HANG_SECONDS
        while True:
            try:
                line = self.lines.get(timeout=max(0.1, deadline - time.time()))
            except queue.Empty:
                raise AssertionError(f"no '{prefix}' within {HANG_SECONDS} s; got {got[-5:]}")
            if line is None:
                raise AssertionError(f"engine exited while waiting for '{prefix}'")
            got.append(line)
            if line.startswith(prefix):
                return got


def random_go(rng):
    kind = rng.choice(["depth", "nodes", "movetime", "clock", "infinite", "mate", "ponder"])
    if kind == "depth":
        return f"go depth {rng.randint(1, 12)}", rng.random() < 0.3
    if kind == "nodes":
        return f"go nodes {rng.choice([1, 10, 1000, 50000, 300000])}", rng.random() < 0.3
    if kind == "movetime":
        return f"go movetime {rng.randint(1, 60)}", rng.random() < 0.3
    if kind == "clock":
        t = rng.choice([0, 5, 50, 500, 3000])
        return (f"go wtime {t} btime {t} winc {rng.choice([0, 10, 100])} binc 10"
                + (f" movestogo {rng.randint(1, 40)}" if rng.random() < 0.5 else "")), rng.random() < 0.3
    if kind == "mate":
        return f"go mate {rng.randint(1, 3)} movetime 100", False
    if kind == "ponder":
        return "go ponder wtime 1000 btime 1000", True
    return "go infinite", True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "pivot"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    for fen in QUICK_FENS:
        assert chess.Board(fen).is_valid(), fen
    fens = read_fens()
    engine = Engine(args.engine.split())
    engine.send("uci")
    engine.expect("uciok")

    board = chess.Board()
    position_cmd = "position startpos"
    stats = {"go": 0, "bestmove": 0, "isready": 0, "illegal": 0, "violations": 0, "early": 0,
             "held": 0}
    started = time.time()
    for round_number in range(args.rounds):
        action = rng.choices(["position", "go", "isready", "newgame", "hash"], [30, 45, 15, 5, 5])[0]
        if action == "position":
            if rng.random() < 0.1:
                board = chess.Board(rng.choice(QUICK_FENS))
                position_cmd = "position fen " + board.fen()
            elif rng.random() < 0.3:
                board = chess.Board(rng.choice(fens))
                position_cmd = "position fen " + board.fen()
            else:
                board = chess.Board()
                position_cmd = "position startpos"
            moves = []
            for _ in range(rng.randint(0, 60)):
                legal = list(board.legal_moves)
                if not legal:
                    break
                m = rng.choice(legal)
                board.push(m)
                moves.append(m.uci())
            if moves:
                position_cmd += " moves " + " ".join(moves)
            engine.send(position_cmd)
        elif action == "go":
            go, needs_stop = random_go(rng)
            stats["go"] += 1
            engine.send(go)
            waits = go.startswith("go infinite") or go.startswith("go ponder")
            if waits:
                stats["held"] += 1
                time.sleep(rng.choice([0, 0.01, 0.1, 0.3]))
                if rng.random() < 0.3:
                    engine.send("isready")
                    early = engine.expect("readyok")
                    stats["isready"] += 1
                else:
                    early = engine.drain()
                if any(l.startswith("bestmove") for l in early):
                    stats["early"] += 1
                    print(f"round {round_number}: bestmove before stop after '{position_cmd}' / '{go}'")
                    break
            if needs_stop or rng.random() < 0.3:
                time.sleep(rng.choice([0, 0, 0.001, 0.01, 0.05]))
                engine.send("ponderhit" if go.startswith("go ponder") and rng.random() < 0.5 else "stop")
                if go.startswith("go ponder"):
                    engine.send("stop")
            lines = engine.expect("bestmove")
            stats["bestmove"] += 1
            if any(l.startswith("bestmove") for l in lines[:-1]):
                stats["violations"] += 1
            best = lines[-1].split()[1]
            legal = {m.uci() for m in board.legal_moves}
            if (best == "0000" and legal) or (best != "0000" and best not in legal):
                stats["illegal"] += 1
                print(f"round {round_number}: illegal bestmove {best} after '{position_cmd}' / '{go}'")
        elif action == "isready":
            engine.send("isready")
            lines = engine.expect("readyok")
            stats["isready"] += 1
            if any(l.startswith("bestmove") for l in lines):
                stats["violations"] += 1
                print(f"round {round_number}: stray bestmove {lines}")
        elif action == "newgame":
            engine.send("ucinewgame")
        else:
            engine.send(rng.choice([
                f"setoption name Hash value {rng.choice([1, 2, 16, 64])}",
                f"setoption name MultiPV value {rng.choice([1, 1, 3, 300 if rng.random() < 0.1 else 2])}",
                f"setoption name Threads value {rng.choice([1, 1, 2, 3])}",
                f"setoption name UCI_ShowWDL value {rng.choice(['true', 'false'])}",
            ]))
    engine.send("isready")
    engine.expect("readyok")
    alive = engine.proc.poll() is None
    engine.send("quit")
    engine.proc.wait(timeout=HANG_SECONDS)
    print(f"rounds {args.rounds} in {time.time() - started:.0f} s: go {stats['go']}, bestmove {stats['bestmove']}, "
          f"illegal bestmove {stats['illegal']}, extra bestmove {stats['violations']}, "
          f"bestmove before stop {stats['early']} (of {stats['held']} infinite/ponder), "
          f"isready answered {stats['isready']}, alive at end {alive}, exit code {engine.proc.returncode}")
    ok = (stats["go"] == stats["bestmove"] and not stats["illegal"] and not stats["violations"]
          and not stats["early"] and alive)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
