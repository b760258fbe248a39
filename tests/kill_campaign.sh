#!/usr/bin/env bash
# kill_campaign.sh BINARY [TRIALS]: `run ... --save-state` on 50,000 spheres is killed at random
# moments (SIGKILL, SIGINT, SIGTERM in turn) while it overwrites an older saved state. Afterwards
# the file must be the old state or the new one byte for byte, never a torn mix, and after SIGINT
# or SIGTERM no temporary may be left. Random moments span the whole run, writing included.
set -euo pipefail
binary=$(realpath "$1") trials=${2:-50}
dir=$(mktemp -d) && trap 'rm -rf "$dir"' EXIT
cd "$dir"
run() { exec "$binary" run settle --set n=50000 -q "$@"; }  # exec: $! is stepwise itself
(run --steps 1 --save-state old.toml)
start=$(date +%s%N)
(run --steps 20 --save-state new.toml)
span_ms=$(( ($(date +%s%N) - start) / 1000000 * 12 / 10 + 1 ))  # the run, and a little after
signals=(KILL INT TERM)
declare -A seen=([old]=0 [new]=0)
RANDOM=12345  # the same moments every time
for ((t = 0; t < trials; t++)); do
  cp old.toml state.toml
  signal=${signals[t % 3]}
  delay_ms=$(( RANDOM % span_ms ))
  run --steps 20 --save-state state.toml & pid=$!
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  kill -s "$signal" "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if cmp -s state.toml old.toml; then seen[old]=$((seen[old] + 1))
  elif cmp -s state.toml new.toml; then seen[new]=$((seen[new] + 1))
  else echo "kill_campaign: trial $t (SIG$signal at $delay_ms ms): state.toml is torn" >&2; exit 1
  fi
  leftovers=$(ls | grep -v -x -e old.toml -e new.toml -e state.toml || true)
  if [ -n "$leftovers" ]; then
    if [ "$signal" != KILL ]; then
      echo "kill_campaign: trial $t (SIG$signal at $delay_ms ms) left $leftovers" >&2; exit 1
    fi
    rm -f $leftovers  # kill -9 cannot be caught: its temporary stays (never the target itself)
  fi
done
echo "kill_campaign: $trials trials over ${span_ms} ms runs: old file ${seen[old]} times, new file" \
  "${seen[new]} times, never torn; no temporary after SIGINT or SIGTERM"
