#!/usr/bin/env python3
"""Solve a Dame suite file with a brett binary through `brett engine`.

usage: dame_suite.py BRETT SUITE.txt DEPTH|nNODES

Each case (`name ; rules ; fen ; depth ; moves`) is searched to DEPTH (or for
NODES nodes: `n3000`) with a fresh table (ucinewgame, one thread); the case
is solved when `bestmove` is one of the listed moves. Prints the misses and
`solved N/M`.
"""
import subprocess
import sys


def main():
    brett, suite, limit = sys.argv[1], sys.argv[2], sys.argv[3]
    go = f"nodes {int(limit[1:])}" if limit.startswith("n") else f"depth {int(limit)}"
    cases = []
    for line in open(suite, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, rules, fen, _, moves = [f.strip() for f in line.split(";")]
        cases.append((name, rules, fen, moves.split()))
    p = subprocess.Popen([brett, "engine"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1)
    solved = 0
    nodes_total = 0
    for name, rules, fen, moves in cases:
        p.stdin.write(f"setoption name Game value {rules}\nucinewgame\n"
                      f"position fen {fen}\ngo {go}\n")
        p.stdin.flush()
        nodes = 0
        while True:
            out = p.stdout.readline()
            if not out:
                sys.exit("the engine ended")
            words = out.split()
            if words and words[0] == "info" and "nodes" in words:
                nodes = int(words[words.index("nodes") + 1])
            if out.startswith("bestmove"):
                best = out.split()[-1]
                break
        nodes_total += nodes
        if best in moves:
            solved += 1
        else:
            print(f"miss {name}: played {best}, expected {' '.join(moves)}")
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    print(f"solved {solved}/{len(cases)} at {go}, nodes {nodes_total}")


if __name__ == "__main__":
    main()
