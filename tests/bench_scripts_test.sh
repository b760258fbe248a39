#!/usr/bin/env bash
# The benchmark scripts refuse what they cannot run (one message, exit 2) and stop when a run
# fails (exit 1) instead of printing a row made of what was left. No LAMMPS is started: the
# arguments are refused first, and the failing "stepwise" (false) fails before LAMMPS's turn.
set -uo pipefail
peers=$(dirname "$0")/peers
decks=$(mktemp -d); trap 'rm -rf "$decks"' EXIT
# shellcheck disable=SC2016  # (the deck's own ${steps})
printf 'run ${steps}\n' > "$decks/settle.in"  # (what bench flat's landing deck is made from)
fails=0
expect() {  # expect CODE TEXT COMMAND...: exit code CODE and TEXT on stderr
  local code=$1 text=$2 err got; shift 2
  err=$("$@" 2>&1 > /dev/null); got=$?
  if [ "$got" -ne "$code" ] || ! grep -qF "$text" <<< "$err"; then
    echo "FAIL: $* -> exit $got, '$err' (wanted $code, '$text')"; fails=1
  fi
}
for size in 2000 0 -8 abc 1953126 8000000; do
  expect 2 "SIZES are" bash "$peers/bench_suite.sh" false "$decks" "$size" 1 1 falling
done
for side in 0 126 299 x; do
  expect 2 "SIDES are" bash "$peers/bench_flat.sh" false "$decks" "$side" 1
done
expect 1 "stepwise's falling run at N=8 failed" \
  bash "$peers/bench_suite.sh" false "$decks" 8 1 1 falling
expect 1 "a run at side 2 failed" bash "$peers/bench_flat.sh" false "$decks" 2 1
exit $fails
