#!/usr/bin/env python3
"""Dame search speed of a brett binary through its engine protocol.

    python3 scripts/dame_nps.py BINARY DEPTH [dame|international]

Searches the start and the first seven positions of the shot suite of the
board (crates/engine/tests/dame_shots_{8,10}.txt) to DEPTH, one thread,
without databases, a new game before each, and prints each position's
nodes and milliseconds (the last completed depth), then the totals and
nodes per second. At a fixed depth the nodes are exact: two builds with
the same search print the same nodes, and the time compares their speed.
"""

import pathlib
import subprocess
import sys


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, depth = sys.argv[1], sys.argv[2]
    game = sys.argv[3] if len(sys.argv) > 3 else "dame"
    board = "8" if game in ("dame", "dame-fr") else "10"
    suite = pathlib.Path(__file__).resolve().parent.parent / (
        f"crates/engine/tests/dame_shots_{board}.txt"
    )
    positions = ["startpos"]
    for line in suite.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        positions.append("fen " + line.split(";")[2].strip())
        if len(positions) == 8:
            break
    engine = subprocess.Popen(
        [binary, "--no-tablebase", "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )

    def send(command: str) -> None:
        engine.stdin.write(command + "\n")
        engine.stdin.flush()

    send(f"setoption name Game value {game}")
    total_nodes = total_ms = 0
    for position in positions:
        send("ucinewgame")
        send(f"position {position}")
        send(f"go depth {depth}")
        last = None
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit("the engine ended")
            if "error" in line:
                sys.exit(line.strip())
            if line.startswith("info depth"):
                last = line.split()
            if line.startswith("bestmove"):
                break
        nodes = int(last[last.index("nodes") + 1])
        ms = int(last[last.index("time") + 1])
        total_nodes += nodes
        total_ms += ms
        print(f"{nodes:>10} nodes {ms:>6} ms  {position}")
    send("quit")
    engine.wait()
    print(f"total {total_nodes} nodes {total_ms} ms {total_nodes * 1000 // max(total_ms, 1)} nodes/s")


if __name__ == "__main__":
    main()
