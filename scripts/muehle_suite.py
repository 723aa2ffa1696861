#!/usr/bin/env python3
"""Solve a Mühle value suite with a brett binary through `brett engine`.

usage: muehle_suite.py BRETT SUITE.txt DEPTH[,DEPTH…] [BRETT OPTION…]

SUITE.txt is a file like crates/engine/tests/lost_games.txt: a position
string, a tab, the moves that keep the value (space-separated), a tab, a
note. Each position is searched to each DEPTH with a fresh table
(ucinewgame, one thread), without databases and without the book; the
options after the depths go before `engine` (e.g. `--mill-network FILE`).
Prints `depth D: N of M` for each depth.
"""
import subprocess
import sys


def main():
    brett, suite, depths = sys.argv[1], sys.argv[2], sys.argv[3]
    extra = sys.argv[4:]
    cases = []
    for line in open(suite, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        fen, good, _note = line.rstrip("\n").split("\t")
        cases.append((fen, good.split()))
    engine = subprocess.Popen(
        [brett, "--no-tablebase", "--no-book", *extra, "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )

    def send(text):
        engine.stdin.write(text + "\n")
        engine.stdin.flush()

    def wait(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit("the engine stopped")
            if line.startswith(prefix):
                return line.split()

    send("uci")
    wait("uciok")
    for depth in (int(d) for d in depths.split(",")):
        solved = 0
        for fen, good in cases:
            send("ucinewgame")
            send("position fen " + fen)
            send(f"go depth {depth}")
            solved += wait("bestmove")[1] in good
        print(f"depth {depth}: {solved} of {len(cases)}", flush=True)
    send("quit")


if __name__ == "__main__":
    main()
