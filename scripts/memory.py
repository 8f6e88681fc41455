#!/usr/bin/env python3
"""Resident memory of Pivot against its Hash setting (Linux: reads /proc/PID/status).

Usage: scripts/memory.py [--hash 16 256 1024] [--seconds 10] [--engine CMD]

For each Hash size N, a fresh process is started and taken through: `setoption Hash N`, a
search of the given length from a middlegame position, a resize to N/2 and back to N (the old
table must be freed before the new one is taken), and a second search. RSS is sampled every
20 ms; the peak (VmHWM) is read at the end. Prints, per N, the baseline RSS at Hash 1, the peak,
and the peak minus N MiB: the constant that must stay small.
"""
import argparse
import os
import subprocess
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FEN = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9"


def status(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024  # kB -> MiB
    return 0.0


class Engine:
    def __init__(self, cmd):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.samples = []
        self.running = True
        threading.Thread(target=self._sample, daemon=True).start()

    def _sample(self):
        while self.running:
            try:
                self.samples.append(status(self.proc.pid, "VmRSS"))
            except OSError:
                return
            time.sleep(0.02)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix):
        for line in self.proc.stdout:
            if line.startswith(prefix):
                return line
        raise RuntimeError(f"engine exited before '{prefix}'")

    def sync(self):
        self.send("isready")
        self.wait_for("readyok")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hash", type=int, nargs="+", default=[16, 256, 1024])
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "pivot"))
    args = ap.parse_args()
    ms = int(args.seconds * 1000)
    for n in args.hash:
        e = Engine(args.engine.split())
        e.send("uci")
        e.wait_for("uciok")
        e.send("setoption name Hash value 1")
        e.sync()
        time.sleep(0.1)
        base = status(e.proc.pid, "VmRSS")
        e.send(f"setoption name Hash value {n}")
        e.send(f"position fen {FEN}")
        e.send(f"go movetime {ms}")
        e.wait_for("bestmove")
        after_search = status(e.proc.pid, "VmRSS")
        e.send(f"setoption name Hash value {max(1, n // 2)}")
        e.send(f"setoption name Hash value {n}")
        e.send("go movetime %d" % ms)
        e.wait_for("bestmove")
        e.sync()
        peak = status(e.proc.pid, "VmHWM")
        e.running = False
        e.send("quit")
        e.proc.wait(timeout=30)
        sampled = max(e.samples) if e.samples else 0
        print(f"Hash {n:5d} MB: baseline (Hash 1) {base:6.1f} MiB, after first search "
              f"{after_search:7.1f}, peak sampled {sampled:7.1f}, peak VmHWM {peak:7.1f} "
              f"= Hash + {peak - n:5.1f} MiB")


if __name__ == "__main__":
    main()
