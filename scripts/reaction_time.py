#!/usr/bin/env python3
"""Measures how fast a UCI engine answers `stop` with `bestmove` (and `isready` with `readyok`
during a search), beside another engine in the same run, so that both see the same machine load.

Usage: scripts/reaction_time.py [--rounds 40] [--seed S] [--engine CMD] [--other CMD]
                                [--option NAME=VALUE ...] [--other-option NAME=VALUE ...]

By default the engine is Pivot built from this checkout (target/release/pivot) and the other one
is /usr/games/stockfish; the other engine always gets Threads=1 unless --other-option sets Threads.
Each round, for each engine in turn (A, B, A, B ...): `go infinite` on one of a few fixed positions,
a random wait of 50-300 ms (the same for both engines in that round), then `stop`; the time is
from the flush of `stop` to the arrival of the `bestmove` line. Then the same again with
`isready` sent during the search, timed until `readyok`, after which the search is stopped.
After every search it checks that exactly one `bestmove` came. Percentiles are nearest-rank.
Replies are read in the measuring thread (select and os.read, so POSIX only), each line timed
at the read that brought it.
"""
import argparse
import atexit
import collections
import math
import os
import random
import select
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HANG_SECONDS = 10
POSITIONS = [
    "startpos",
    "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",      # Kiwipete
    "fen r1b2rk1/2q1bppp/p2p1n2/npp1p3/3PP3/2P2N1P/PPB2PP1/RNBQR1K1 w - - 1 12",      # Ruy Lopez
    "fen r2q1rk1/3nbppp/p2pbn2/1p2p3/4P1P1/1NN1BP2/PPPQ3P/2KR1B1R w - - 0 12",        # Najdorf
    "fen r1bq1rk1/ppp1n1bp/3p1np1/3Pp3/2P1Pp2/2NN1P2/PP1BB1PP/R2Q1RK1 w - - 0 13",    # King's Indian
    "fen r1b2rk1/pp1nqppp/2p5/4p3/2BP4/2R1PN2/PP3PPP/3Q1RK1 w - - 0 13",              # QGD
    "fen r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",   # Italian
]


class Engine:
    def __init__(self, cmd, options):
        words = cmd.split()
        if not words or shutil.which(words[0]) is None:
            sys.exit(f"reaction_time.py: engine not found: {cmd!r}")
        self.proc = subprocess.Popen(words, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.fd = self.proc.stdout.fileno()  # read with select/os.read, never through the text wrapper
        self.pending = b""
        self.lines = collections.deque()
        atexit.register(self._reap)  # also when a check fails with sys.exit
        self.name = cmd
        self.send("uci")
        for _, line in self.until("uciok"):
            if line.startswith("id name "):
                self.name = line[len("id name "):].strip()
        for name, value in options.items():
            self.send(f"setoption name {name} value {value}")
        self.check_single("after setoption")

    def _reap(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()

    def _fill(self, timeout):
        """One read from the pipe; complete lines are queued with the time of that read. The read
        happens in this thread after any command was flushed, so no time can come out negative."""
        if not select.select([self.fd], [], [], timeout)[0]:
            return False
        chunk = os.read(self.fd, 1 << 16)
        stamp = time.perf_counter()
        if not chunk:
            self.lines.append((stamp, None))
            return True
        *complete, self.pending = (self.pending + chunk).split(b"\n")
        self.lines.extend((stamp, line.decode(errors="replace").strip()) for line in complete)
        return True

    def next_line(self, timeout):
        """(timestamp, line), line None at end of output; None on timeout (0 = only what is there)."""
        deadline = time.perf_counter() + timeout
        while not self.lines:
            if not self._fill(max(0.0, deadline - time.perf_counter())) and time.perf_counter() >= deadline:
                return None
        return self.lines.popleft()

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def until(self, prefix, forbid=None):
        """Yields (timestamp, line) up to and including the first line starting with `prefix`."""
        while True:
            got = self.next_line(HANG_SECONDS)
            if got is None:
                sys.exit(f"reaction_time.py: {self.name}: no '{prefix}' within {HANG_SECONDS} s")
            stamp, line = got
            if line is None:
                sys.exit(f"reaction_time.py: {self.name}: the engine exited (waiting for '{prefix}')")
            if forbid and line.startswith(forbid):
                sys.exit(f"reaction_time.py: {self.name}: unexpected '{line}' while waiting for '{prefix}'")
            yield stamp, line
            if line.startswith(prefix):
                return

    def wait_for(self, prefix, forbid=None):
        stamp = None
        for stamp, _ in self.until(prefix, forbid):
            pass
        return stamp

    def check_single(self, when):
        """isready/readyok with no `bestmove` in between: the search sent exactly one."""
        self.send("isready")
        for _, line in self.until("readyok"):
            if line.startswith("bestmove"):
                sys.exit(f"reaction_time.py: {self.name}: a second bestmove {when}: '{line}'")

    def start_search(self, position, delay):
        self.send(f"position {position}")
        self.send("go infinite")
        time.sleep(delay)
        while (got := self.next_line(0)) is not None:  # what the search printed so far
            line = got[1]
            if line is None or line.startswith("bestmove"):
                sys.exit(f"reaction_time.py: {self.name}: {line or 'exit'} during go infinite before stop")

    def stop_time(self, position, delay):
        self.start_search(position, delay)
        self.proc.stdin.write("stop\n")
        self.proc.stdin.flush()
        sent = time.perf_counter()
        answered = self.wait_for("bestmove")
        self.check_single("after stop")
        return answered - sent

    def ready_time(self, position, delay):
        self.start_search(position, delay)
        self.proc.stdin.write("isready\n")
        self.proc.stdin.flush()
        sent = time.perf_counter()
        answered = self.wait_for("readyok", forbid="bestmove")
        self.send("stop")
        self.wait_for("bestmove")
        self.check_single("after stop")
        return answered - sent

    def quit(self):
        self.send("quit")
        try:
            self.proc.wait(timeout=HANG_SECONDS)
        except subprocess.TimeoutExpired:
            print(f"{self.name}: did not quit within {HANG_SECONDS} s, killed", file=sys.stderr)
            self.proc.kill()
            self.proc.wait()


def parse_options(pairs, defaults=None):
    options = dict(defaults or {})
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            sys.exit(f"reaction_time.py: option {pair!r} is not NAME=VALUE")
        options[name.strip()] = value.strip()
    return options


def percentile(values, p):
    """Nearest-rank percentile: the smallest value with at least p% of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(1, math.ceil(p / 100 * len(ordered))) - 1]


def table(title, rows):
    """rows: (engine name, list of seconds). Returns the p99 of each row, in ms."""
    width = max(len("engine"), *(len(name) for name, _ in rows))
    print(title)
    print(f"  {'engine':<{width}}  {'rounds':>6}  {'p50 ms':>9}  {'p90 ms':>9}  {'p99 ms':>9}  {'max ms':>9}")
    p99s = []
    for name, seconds in rows:
        ms = [s * 1000 for s in seconds]
        cells = [percentile(ms, 50), percentile(ms, 90), percentile(ms, 99), max(ms)]
        print(f"  {name:<{width}}  {len(ms):>6}  " + "  ".join(f"{c:>9.3f}" for c in cells))
        p99s.append(cells[2])
    return p99s


def ratio(a, b):
    return f"{a / b:.2f}" if b > 0 else "n/a"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "pivot"))
    ap.add_argument("--other", default="/usr/games/stockfish")
    ap.add_argument("--option", action="append", default=[], help="UCI option NAME=VALUE for --engine")
    ap.add_argument("--other-option", action="append", default=[],
                    help="UCI option NAME=VALUE for --other (Threads=1 unless given)")
    args = ap.parse_args()
    if args.rounds < 1:
        sys.exit("reaction_time.py: --rounds must be at least 1")

    rng = random.Random(args.seed)
    engines = [Engine(args.engine, parse_options(args.option)),
               Engine(args.other, parse_options(args.other_option, {"Threads": "1"}))]
    if engines[0].name == engines[1].name:
        engines[1].name += " (other)"
    stops = [[], []]
    readies = [[], []]
    for r in range(args.rounds):
        position = POSITIONS[r % len(POSITIONS)]
        delay = rng.uniform(0.05, 0.3)
        for i, engine in enumerate(engines):
            stops[i].append(engine.stop_time(position, delay))
        delay = rng.uniform(0.05, 0.3)
        for i, engine in enumerate(engines):
            readies[i].append(engine.ready_time(position, delay))
    for engine in engines:
        engine.quit()

    names = [e.name for e in engines]
    stop_p99 = table("stop -> bestmove", list(zip(names, stops)))
    ready_p99 = table("isready -> readyok during go infinite", list(zip(names, readies)))
    print(f"p99 ratio ({names[0]} / {names[1]}): stop -> bestmove {ratio(*stop_p99)}, "
          f"isready -> readyok {ratio(*ready_p99)}")


if __name__ == "__main__":
    main()
