#!/bin/sh
# nextup demo: the TUI on a throw-away store, next to a simulated second
# machine (a "laptop" with its own store) that edits tasks every few seconds
# and syncs through a temporary peer folder — so the screen changes by itself.
#
# Usage: Resources/demo.sh [path/to/nextup]     (make demo does this)
# Everything lives in one temporary folder, removed when the TUI quits.
set -eu

BIN=${1:-.build/debug/nextup}
HERE_DIR=$(CDPATH= cd "$(dirname "$0")" && pwd)
SAMPLE="$HERE_DIR/demo-tasks.json"
DEMO=$(mktemp -d "${TMPDIR:-/tmp}/nextup-demo.XXXXXX")
mkdir -p "$DEMO/peer"

desktop() { NEXTUP_CONFIG="$DEMO/none.toml" "$BIN" --store "$DEMO/desktop" --peer "$DEMO/peer" "$@"; }
laptop() { NEXTUP_CONFIG="$DEMO/none.toml" "$BIN" --store "$DEMO/laptop" --peer "$DEMO/peer" "$@"; }

LAPTOP_PID=
cleanup() {
    [ -n "$LAPTOP_PID" ] && kill "$LAPTOP_PID" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$DEMO"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Both machines start from the same sample tasks (same ids, as after an
# earlier sync), then exchange logs once.
desktop import "$SAMPLE" >/dev/null
laptop import "$SAMPLE" >/dev/null
laptop sync >/dev/null 2>&1 || true
desktop sync >/dev/null 2>&1 || true

# The simulated laptop: every 3–5 s one edit, published to the peer folder.
random() { echo $(( $(od -An -N2 -tu2 /dev/urandom) % $1 )); }
sample_id() { printf '0de70000-0000-4000-8000-%012d' $(( $(random 16) + 1 )); }
simulate() {
    n=0
    while :; do
        sleep $(( 3 + $(random 3) ))
        n=$((n + 1))
        id=$(sample_id)
        case $(random 7) in
            0) laptop add "Laptop idea #$n: $(echo 'water the plants|email the landlord|back up photos|stretch|order coffee beans' | tr '|' '\n' | sed -n "$(( $(random 5) + 1 ))p")" ;;
            1) laptop edit "$id" --urgency "$(echo 'urgent not-urgent none' | cut -d' ' -f$(( $(random 3) + 1 )))" ;;
            2) laptop edit "$id" --importance "$(( $(random 3) + 1 ))" ;;
            3) laptop edit "$id" --duration "$(( ($(random 8) + 1) * 15 ))m" ;;
            4) laptop edit "$id" --category "$(echo 'Essentials,Deep Work,Admin,Learning,Recharge' | cut -d, -f$(( $(random 5) + 1 )))" ;;
            5) laptop edit "$id" --next ;;
            6) laptop edit "$id" --no-next ;;
        esac
        laptop sync >/dev/null 2>&1 || true
    done
}
simulate >/dev/null 2>&1 &
LAPTOP_PID=$!

echo "nextup demo in $DEMO — a simulated laptop edits tasks every few seconds."
desktop
