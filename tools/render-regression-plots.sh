#!/usr/bin/env bash
# Renders what a reviewer needs when the snapshot test fails, into plots/ (or the folder given):
# `report.html`, one self-contained page (`sim report`) that says what failed and shows, for every
# trace that differs from its snapshot, the diff beside the regression plot; and for each such
# trace `BACKEND@SCENARIO.png` (`sim plot --against`) and `BACKEND@SCENARIO.diff`. CI runs it when
# the snapshot test fails and uploads the folder; it works the same locally.
#
#   tools/render-regression-plots.sh [OUT_DIR]
#
# Exit status: 0 when every trace matches its snapshot, 1 when some differ (the folder then holds
# their plots), 2 on an error.
set -euo pipefail
# Paths the user gave are relative to where the command was typed: resolve them before moving.
out="${1:-plots}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
if [ -n "${CSPACE_MAPS:-}" ]; then
  maps="$(cd "$CSPACE_MAPS" && pwd)" || { echo "CSPACE_MAPS=$CSPACE_MAPS cannot be read" >&2; exit 2; }
  export CSPACE_MAPS="$maps"
fi
cd "$(dirname "$0")/.."
cargo build -q -p cspace-cli --bin sim
sim=target/debug/sim
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Scenarios that need the corpus are left out when CSPACE_MAPS is unset (and said so).
scenarios=()
for s in scenarios/*.toml; do
  if grep -q '${CSPACE_MAPS}' "$s" && [ -z "${CSPACE_MAPS:-}" ]; then
    echo "skipped: $s (CSPACE_MAPS unset)"
  else
    scenarios+=("$s")
  fi
done
status=0
"$sim" report "${scenarios[@]}" -o "$out/report.html" > "$tmp/report.txt" || status=$?
cat "$tmp/report.txt"
[ "$status" -le 1 ] || exit 2

changed=0
for snap in snapshots/traces/*@*.toml.snap; do
  name="$(basename "$snap" .snap)"      # BACKEND@SCENARIO.toml
  backend="${name%%@*}"
  scenario="scenarios/${name#*@}"
  [ -f "$scenario" ] || { echo "orphan snapshot (no $scenario): $snap"; continue; }
  if grep -q '${CSPACE_MAPS}' "$scenario" && [ -z "${CSPACE_MAPS:-}" ]; then continue; fi
  if ! "$sim" run "$scenario" --backend "$backend" --trace "$tmp/now.trace" > /dev/null 2> "$tmp/err"; then
    # Exit 1 (an expectation failed) still writes the trace; anything else is an error.
    [ -f "$tmp/now.trace" ] || { cat "$tmp/err"; exit 2; }
  fi
  # The snapshot's body is everything after its second `---` line.
  awk 'n >= 2 { print } /^---$/ { n++ }' "$snap" > "$tmp/then.trace"
  if ! cmp -s "$tmp/now.trace" "$tmp/then.trace"; then
    changed=$((changed + 1))
    "$sim" plot "$scenario" --backend "$backend" --against "$snap" -o "$out/${name%.toml}.png"
    diff -u "$tmp/then.trace" "$tmp/now.trace" > "$out/${name%.toml}.diff" || true
  fi
  rm -f "$tmp/now.trace"
done
echo "$changed trace(s) differ from their snapshots; the report, plots and diffs are in $out/"
[ "$changed" -eq 0 ] && [ "$status" -eq 0 ]
