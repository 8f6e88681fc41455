#!/usr/bin/env python3
"""A python-chess client session against Pivot: open, configure, analyse by depth, time, mate
and MultiPV, play a short game on a clock, play Chess960, quit. python-chess is a strict UCI
client: it rejects malformed info lines, illegal PV moves and late or missing bestmoves.

Usage: python_chess_session.py PATH_TO_PIVOT
Exits 0 on success; prints what failed otherwise. Run by tests/clients.rs.
"""
import logging
import sys

import chess
import chess.engine


class Errors(logging.Handler):
    """Keeps the errors python-chess logs (it logs, not raises, an info field it cannot parse,
    such as an illegal move in a refutation or currline)."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def check(condition, message):
    if not condition:
        raise SystemExit(f"python-chess session: {message}")


def legal_line(board, moves):
    b = board.copy()
    for m in moves:
        if m not in b.legal_moves:
            return False
        b.push(m)
    return True


def refutations_and_current_lines(engine):
    """UCI_ShowRefutations and UCI_ShowCurrLine through python-chess's own parser."""
    errors = Errors()
    logging.getLogger("chess.engine").addHandler(errors)
    engine.configure({"UCI_ShowRefutations": True, "UCI_ShowCurrLine": True, "Threads": 2})
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    refutations, currlines = {}, []
    with engine.analysis(board, chess.engine.Limit(time=1.0), info=chess.engine.INFO_ALL) as analysis:
        for info in analysis:
            refutations.update(info.get("refutation", {}))
            if "currline" in info:
                currlines.append(info["currline"])
    engine.configure({"UCI_ShowRefutations": False, "UCI_ShowCurrLine": False, "Threads": 1})
    logging.getLogger("chess.engine").removeHandler(errors)
    check(not errors.messages, f"python-chess could not parse: {errors.messages[:3]}")
    check(set(refutations) == set(board.legal_moves),
          f"refutations for {len(refutations)} of {board.legal_moves.count()} moves")
    for move, line in refutations.items():
        after = board.copy()
        after.push(move)
        check(line and legal_line(after, line), f"refutation {move}: {line}")
    check(currlines, "no currline")
    for lines in currlines:
        for cpu, line in lines.items():
            check(cpu in (1, 2) and legal_line(board, line), f"currline {cpu}: {line}")


def main():
    engine = chess.engine.SimpleEngine.popen_uci(sys.argv[1])
    try:
        check(engine.id.get("name", "").startswith("Pivot"), f"id name {engine.id}")
        for option in ("Hash", "Move Overhead", "Ponder", "MultiPV", "UCI_Chess960"):
            check(option in engine.options, f"option {option} not declared")
        engine.configure({"Hash": 32, "Move Overhead": 10})

        board = chess.Board()
        info = engine.analyse(board, chess.engine.Limit(depth=6))
        check(info.get("depth") == 6, f"depth limit: {info}")
        check(legal_line(board, info["pv"]), f"illegal pv {info['pv']}")

        info = engine.analyse(board, chess.engine.Limit(time=0.2))
        check(info.get("pv") and legal_line(board, info["pv"]), f"timed analysis: {info}")

        mate2 = chess.Board("3R4/8/8/2p3K1/2p5/5B2/R1pPNB2/1b1k4 w - - 0 1")  # mates2000: bm #2
        info = engine.analyse(mate2, chess.engine.Limit(mate=2))
        check(info["score"].pov(chess.WHITE).mate() == 2, f"mate in 2: {info.get('score')}")
        check(legal_line(mate2, info["pv"]), f"illegal mate pv {info['pv']}")

        infos = engine.analyse(board, chess.engine.Limit(depth=5), multipv=3)
        check(len(infos) == 3, f"multipv 3 gave {len(infos)} lines")
        firsts = [i["pv"][0] for i in infos]
        check(len(set(firsts)) == 3, f"multipv lines share a first move: {firsts}")
        scores = [i["score"].pov(chess.WHITE).score(mate_score=100000) for i in infos]
        check(scores == sorted(scores, reverse=True), f"multipv not best first: {scores}")
        for i in infos:
            check(legal_line(board, i["pv"]), f"illegal multipv line {i['pv']}")

        game = chess.Board()
        clock = {chess.WHITE: 5.0, chess.BLACK: 5.0}
        for _ in range(24):
            if game.is_game_over():
                break
            limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                       white_inc=0.05, black_inc=0.05)
            result = engine.play(game, limit)
            check(result.move in game.legal_moves, f"illegal move {result.move} in {game.fen()}")
            game.push(result.move)

        board960 = chess.Board.from_chess960_pos(518 - 1)
        board960.push_uci("g1f3")
        for _ in range(6):
            result = engine.play(board960, chess.engine.Limit(depth=4))
            check(result.move in board960.legal_moves, f"illegal 960 move {result.move}")
            board960.push(result.move)
        castle = chess.Board("rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1", chess960=True)
        info = engine.analyse(castle, chess.engine.Limit(depth=3))
        check(legal_line(castle, info["pv"]), f"illegal 960 pv {info['pv']}")

        refutations_and_current_lines(engine)

        # Strength levels: python-chess knows these option names and checks their ranges.
        engine.configure({"UCI_LimitStrength": True, "UCI_Elo": 1500})
        result = engine.play(board, chess.engine.Limit(time=0.2))
        check(result.move in board.legal_moves, f"limited strength played {result.move}")
        engine.configure({"UCI_LimitStrength": False, "Skill Level": 3})
        result = engine.play(board, chess.engine.Limit(time=0.2))
        check(result.move in board.legal_moves, f"skill level 3 played {result.move}")
        engine.configure({"Skill Level": 20})
    finally:
        engine.quit()
    print("python-chess session: ok")


if __name__ == "__main__":
    main()
