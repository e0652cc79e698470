#!/usr/bin/env python3
"""Instructions (callgrind Ir) per simulated instruction of a `benches/sim.rs`
bench, from a callgrind output file:

    cargo bench --bench sim --no-run     # prints the binary, target/release/deps/sim-HASH
    valgrind --tool=callgrind --callgrind-out-file=cg.out \\
        target/release/deps/sim-HASH --bench --profile-time 2 sim/simd8_mixed
    python3 benches/sim-ir.py cg.out 12002

The second argument is the simulated instructions of one thread's run (what
the bench's program returns: 13001 for the ALU loops, 12002 for the mixed
loops, 2402 for each thread of the dispatch benches). Prints the inclusive
Ir of the simulator's step loop (`Resumable::resume`, `run_from` before it
existed) divided by its calls times that, and the Ir per SEND
(`send::execute`). Every thread's calls count, so a parallel dispatch gives
the total work of all its workers.
"""
import re
import sys

LOOP = ("geneu::sim::Resumable::resume", "geneu::sim::run_from")
SEND = "geneu::sim::send::execute"


def main(path, steps):
    lines = open(path).read().split("\n")
    names, calls, incl = {}, {}, {}
    for i, line in enumerate(lines[:-2]):
        m = re.match(r"(cfn|fn)=\((\d+)\)(?: (.*))?", line)
        if not m:
            continue
        if m.group(3):
            names[m.group(2)] = m.group(3)
        name = names.get(m.group(2), "")
        if m.group(1) == "cfn" and lines[i + 1].startswith("calls=") and name in LOOP + (SEND,):
            calls[name] = calls.get(name, 0) + int(lines[i + 1].split("=")[1].split()[0])
            incl[name] = incl.get(name, 0) + int(lines[i + 2].split()[1])
    loop = next(n for n in LOOP if n in calls)
    print(f"{incl[loop] / (calls[loop] * steps):.0f} Ir per simulated instruction ({calls[loop]} runs)")
    if SEND in calls:
        print(f"{incl[SEND] / calls[SEND]:.0f} Ir per SEND ({calls[SEND]} SENDs)")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
