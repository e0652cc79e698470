#!/bin/sh
# Whole-process speed of `geneu disasm` and `geneu asm` on a 200,000-
# instruction Gen8 program: every Gen8 corpus word, repeated.
#
#   cargo build --release -p geneu-cli && benches/whole-process.sh [N] [RUNS]
#
# Writes the inputs to $TMPDIR (default /tmp): geneu-N.bin (raw words) and
# geneu-N.asm (its disassembly, the input of `asm`). Times each command
# RUNS times (default 5) with hyperfine if installed, else with `time`,
# and prints instructions per second for the best run.
set -eu
N=${1:-200000}
RUNS=${2:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GENEU=${GENEU:-$ROOT/target/release/geneu}
CORPUS=$ROOT/../shared/corpus/mesa/gen8
T=${TMPDIR:-/tmp}
BIN=$T/geneu-$N.bin
ASM=$T/geneu-$N.asm

# N lines of .expected hex, cycling through the corpus, then to binary.
cat "$CORPUS"/*.expected | awk -v n="$N" 'NF == 16 { w[c++] = $0 } END { for (i = 0; i < n; i++) print w[i % c] }' |
    xxd -r -p >"$BIN"
test "$(wc -c <"$BIN")" -eq $((N * 16))
"$GENEU" disasm --gen bdw "$BIN" >"$ASM"

run() { # name, command...
    name=$1
    shift
    if command -v hyperfine >/dev/null 2>&1; then
        hyperfine -N -w 1 -r "$RUNS" "$*"
        return
    fi
    best=
    i=0
    while [ $i -lt "$RUNS" ]; do
        s=$(date +%s%N)
        "$@" >/dev/null
        e=$(date +%s%N)
        ms=$(((e - s) / 1000000))
        if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
        i=$((i + 1))
    done
    echo "$name: best of $RUNS: ${best} ms, $((N * 1000 / (best > 0 ? best : 1))) instructions/s"
}

run "disasm $N" "$GENEU" disasm --gen bdw "$BIN"
run "asm $N" "$GENEU" asm --gen bdw "$ASM" -o /dev/null
run "asm --type bin $N" "$GENEU" asm --gen bdw --type bin "$ASM" -o /dev/null
