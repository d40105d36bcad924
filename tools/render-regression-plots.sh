#!/usr/bin/env bash
# Renders `sim plot --against` for every scenario and backend whose trace no longer matches its
# snapshot, into plots/ (or the folder given). CI runs it when the snapshot test fails; it works
# the same locally after `cargo build -p cspace-sim`.
#
#   tools/render-regression-plots.sh [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-plots}"
mkdir -p "$out"
cargo build -q -p cspace-sim --bin sim
sim=target/debug/sim
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
changed=0
for snap in snapshots/traces/*@*.toml.snap; do
  name="$(basename "$snap" .snap)"      # BACKEND@SCENARIO.toml
  backend="${name%%@*}"
  scenario="scenarios/${name#*@}"
  [ -f "$scenario" ] || { echo "orphan snapshot (no $scenario): $snap"; continue; }
  if ! "$sim" run "$scenario" --backend "$backend" --trace "$tmp/now.trace" > /dev/null 2> "$tmp/err"; then
    # Exit 1 (an expectation failed) still writes the trace; anything else is an error.
    [ -f "$tmp/now.trace" ] || { cat "$tmp/err"; exit 2; }
  fi
  # The snapshot's body is everything after its second `---` line.
  awk 'n >= 2 { print } /^---$/ { n++ }' "$snap" > "$tmp/then.trace"
  if ! cmp -s "$tmp/now.trace" "$tmp/then.trace"; then
    changed=$((changed + 1))
    plot="$out/${name%.toml}.png"
    "$sim" plot "$scenario" --backend "$backend" --against "$snap" -o "$plot"
    diff -u "$tmp/then.trace" "$tmp/now.trace" > "$out/${name%.toml}.diff" || true
  fi
  rm -f "$tmp/now.trace"
done
echo "$changed trace(s) differ from their snapshots; plots and diffs in $out/"
