#!/bin/bash
# What a living world costs (issue 32), in instructions, which a loaded machine does not move:
# for each backend given, the instructions per agent step of `sim bench`'s crowd in the frozen
# and the living world (cachegrind: steps 30 to 90 of 1,000 agents on one thread, less the open
# world's crowd that every run also steps), and the movers' compile beside the world's
# (callgrind: `Models::build` against `BackendKind::build_for`). Beside the instructions, an
# estimate of the cycles that also counts cachegrind's simulated first-level cache misses
# (instruction and data) at 10 cycles each, about what a miss served by the second level costs:
# the living step runs more code per agent than fits the instruction cache, which instructions
# alone do not see (at 576f6df this estimate gave the onion 0.839 where wall clock gave
# 0.843-0.846).
#
#   tools/living-cost.sh MAP [BACKEND...]      (default backends: onion exact melax-exact)
#
# Needs valgrind and a release `sim` (cargo build --release -p cspace-cli). Run from the
# repository's root.
set -euo pipefail
MAP=${1:?usage: tools/living-cost.sh MAP [BACKEND...]}
shift
BACKENDS=${*:-onion exact melax-exact}
SIM=${SIM:-target/release/sim}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
# "instructions estimated-cycles" of one run.
refs() {
    valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null \
        "$SIM" bench --agents 1000 --threads 1 "$@" 2>&1 >/dev/null |
        awk '/ I +refs:/ { gsub(",", "", $4); i = $4 }
             / I1 +misses:/ { gsub(",", "", $4); m += $4 }
             / D1 +misses:/ { gsub(",", "", $4); m += $4 }
             END { printf "%.0f %.0f\n", i, i + 10 * m }'
}
inclusive() {
    callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
        awk -v f="$2" '!done && index($0, "=> ") && index($0, f " (") { gsub(",", "", $1); print $1; done = 1 }'
}
for B in $BACKENDS; do
    O30=$(refs --backends "$B" --steps 30); O90=$(refs --backends "$B" --steps 90)
    F30=$(refs --backends "$B" --steps 30 --map "$MAP"); F90=$(refs --backends "$B" --steps 90 --map "$MAP")
    L30=$(refs --backends "$B" --steps 30 --map "$MAP" --living)
    L90=$(refs --backends "$B" --steps 90 --map "$MAP" --living)
    valgrind --tool=callgrind --callgrind-out-file="$OUT/open" "$SIM" bench --agents 10 \
        --threads 1 --backends "$B" --steps 1 >/dev/null 2>&1
    valgrind --tool=callgrind --callgrind-out-file="$OUT/living" "$SIM" bench --agents 10 \
        --threads 1 --backends "$B" --steps 1 --map "$MAP" --living >/dev/null 2>&1
    WO=$(inclusive "$OUT/open" BackendKind::build_for)
    WL=$(inclusive "$OUT/living" BackendKind::build_for)
    MV=$(inclusive "$OUT/living" Models::build)
    # shellcheck disable=SC2086 # each run gives two numbers
    python3 - "$B" "$WO" "$WL" "${MV:-0}" $O30 $O90 $F30 $F90 $L30 $L90 <<'PY'
import sys
b, wo, wl, mv, *runs = sys.argv[1], *(int(a or 0) for a in sys.argv[2:])
steps = 60 * 1000
def per_step(k):
    o30, o90, f30, f90, l30, l90 = runs[k::2]
    frozen = ((f90 - f30) - (o90 - o30)) / steps
    living = ((l90 - l30) - (f90 - f30)) / steps
    return frozen, living
(fi, li), (fc, lc) = per_step(0), per_step(1)
# The living run builds the open world, the frozen map and the living map: the map's two
# worlds are the run's builds less the open world's, each about the same.
world = (wl - wo) / 2
line = (f"{b}: {fi:.0f} instructions per agent step frozen, {li:.0f} living "
        f"(living / frozen {li / fi:.3f}); estimated cycles {fc:.0f} frozen, {lc:.0f} living "
        f"(frozen / living {fc / lc:.3f})")
if world > 1e6 and mv > 0:
    line += (f"; movers' compile {mv / 1e6:.1f}M instructions, {100 * mv / world:.1f} % of the "
             f"world's {world / 1e6:.0f}M")
else:
    line += "; nothing to compile"
print(line)
PY
done
