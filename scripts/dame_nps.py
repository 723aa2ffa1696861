#!/usr/bin/env python3
"""Dame search speed of a brett binary through its engine protocol.

    python3 scripts/dame_nps.py BINARY DEPTH [dame|international] [THREADS]
    python3 scripts/dame_nps.py BINARY 1000ms [dame|international] [THREADS]

Searches the start and the first seven positions of the shot suite of the
board (crates/engine/tests/dame_shots_{8,10}.txt) to DEPTH, one thread,
without databases, a new game before each, and prints each position's
nodes and milliseconds (the last completed depth), then the totals and
nodes per second. At a fixed depth the nodes are exact: two builds with
the same search print the same nodes, and the time compares their speed.
With a time (`1000ms`) in place of the depth, each position is searched
for that time and the depth reached is printed with the nodes; THREADS
(default 1) sets the engine's Threads option.
"""

import pathlib
import subprocess
import sys


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, depth = sys.argv[1], sys.argv[2]
    game = sys.argv[3] if len(sys.argv) > 3 else "dame"
    threads = sys.argv[4] if len(sys.argv) > 4 else "1"
    go = f"go movetime {depth[:-2]}" if depth.endswith("ms") else f"go depth {depth}"
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
    send(f"setoption name Threads value {threads}")
    total_nodes = total_ms = 0
    depths = []
    for position in positions:
        send("ucinewgame")
        send(f"position {position}")
        send(go)
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
        reached = int(last[last.index("depth") + 1])
        depths.append(reached)
        total_nodes += nodes
        total_ms += ms
        print(f"{nodes:>10} nodes {ms:>6} ms depth {reached:>2}  {position}")
    send("quit")
    engine.wait()
    depths.sort()
    print(
        f"total {total_nodes} nodes {total_ms} ms {total_nodes * 1000 // max(total_ms, 1)} nodes/s"
        f", depth median {depths[len(depths) // 2]} (min {depths[0]}, max {depths[-1]})"
    )


if __name__ == "__main__":
    main()
