#!/bin/bash
# What a living world costs (issue 32), in instructions, which a loaded machine does not move:
# for each backend given, the instructions per agent step of `sim bench`'s crowd in the frozen
# and the living world (cachegrind: steps 30 to 90 of 1,000 agents on one thread, less the open
# world's crowd that every run also steps), and the movers' compile beside the world's
# (callgrind: `Models::build` against `BackendKind::build_for`).
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
refs() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        "$SIM" bench --agents 1000 --threads 1 "$@" 2>&1 >/dev/null |
        awk '/I *refs/ { gsub(",", "", $4); print $4 }'
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
    python3 - "$B" "$O30" "$O90" "$F30" "$F90" "$L30" "$L90" "$WO" "$WL" "${MV:-0}" <<'PY'
import sys
b, o30, o90, f30, f90, l30, l90, wo, wl, mv = sys.argv[1], *(int(a or 0) for a in sys.argv[2:])
steps = 60 * 1000
frozen = ((f90 - f30) - (o90 - o30)) / steps
living = ((l90 - l30) - (f90 - f30)) / steps
# The living run builds the open world, the frozen map and the living map: the map's two
# worlds are the run's builds less the open world's, each about the same.
world = (wl - wo) / 2
line = (f"{b}: {frozen:.0f} instructions per agent step frozen, {living:.0f} living "
        f"(living / frozen {living / frozen:.3f})")
if world > 1e6 and mv > 0:
    line += (f"; movers' compile {mv / 1e6:.1f}M instructions, {100 * mv / world:.1f} % of the "
             f"world's {world / 1e6:.0f}M")
else:
    line += "; nothing to compile"
print(line)
PY
done
