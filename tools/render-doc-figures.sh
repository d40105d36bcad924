#!/usr/bin/env bash
# Renders the figures of the README and the docs that `sim` draws, from the repository's own
# scenarios and snapshots (run it from anywhere; it writes into docs/):
#
#   docs/tunnel.png              the README's picture: sim plot of the tunnel on every backend
#   docs/goto-obstacle-course.png docs/navigation.md: the goto agents and their planned paths
#   docs/regression-plot.png     CONTRIBUTING.md: the tunnel's riser turning at 1.5 s instead of
#                                standing up at 2 s, against the onion's snapshot
#   docs/report.png              CONTRIBUTING.md: sim report of that change, in headless Chromium
#                                (left as it is, and said, when Chromium is not installed)
#
#   tools/render-doc-figures.sh
#
# The same inputs give the same bytes (the plots are byte-stable; the screenshot depends on
# Chromium's version and fonts).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q -p cspace-cli --bin sim
sim=target/debug/sim
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

"$sim" plot scenarios/tunnel.toml -o docs/tunnel.png
"$sim" plot scenarios/goto_obstacle_course.toml --backend onion -o docs/goto-obstacle-course.png

# The change a reviewer meets in CONTRIBUTING.md: the riser turns instead of standing up.
mkdir -p "$tmp/scenarios"
sed 's/{ at = 2, stand = true }/{ at = 1.5, move = [1, 0.4] }/' scenarios/tunnel.toml \
  > "$tmp/scenarios/tunnel.toml"
"$sim" plot "$tmp/scenarios/tunnel.toml" --backend onion \
  --against snapshots/traces/onion@tunnel.toml.snap -o docs/regression-plot.png
# The report as a reviewer runs it, from a copy of the repository's layout (its paths relative).
mkdir -p "$tmp/snapshots"
cp -r snapshots/traces "$tmp/snapshots/"
(cd "$tmp" && "$OLDPWD/$sim" report scenarios/tunnel.toml -o report.html > /dev/null) || [ $? -eq 1 ]
browser="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
if [ -z "$browser" ]; then
  echo "docs/report.png left as it is: no Chromium (apt-get install chromium)" >&2
  exit 0
fi
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1500 \
  --user-data-dir="$tmp/profile" --screenshot="$tmp/report.png" "file://$tmp/report.html" \
  2> /dev/null
cp "$tmp/report.png" docs/report.png
echo "wrote docs/tunnel.png, docs/goto-obstacle-course.png, docs/regression-plot.png, docs/report.png"
