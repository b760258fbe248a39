#!/usr/bin/env bash
# Exports a small settle scene to LAMMPS, runs Debian's lmp on the deck, and checks that LAMMPS
# and stepwise agree on the kinetic energies after 1000 steps (hundreds of contacts by then).
set -euo pipefail
stepwise=$1
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
scene=(settle --set n=64 --set nx=4 --set ny=4 --set nz=4)
"$stepwise" export "${scene[@]}" --lammps "$work" --steps 1000 --thermo 1000 > /dev/null
(cd "$work" && lmp -in in.scene -screen none -log log.lammps)
theirs=$(awk '/^ *Step/ {on = 1; next} on && $1 == 1000 {print $3, $4; exit}' "$work/log.lammps")
"$stepwise" run "${scene[@]}" --steps 1000 --every 1000 --csv "$work/e.csv" -q
ours=$(awk -F, '$1 == 1000 {print $15, $16}' "$work/e.csv")
echo "lammps ke erot: $theirs"
echo "stepwise ke erot: $ours"
awk -v a="$theirs" -v b="$ours" 'BEGIN {
  split(a, x, " "); split(b, y, " ")
  for (k = 1; k <= 2; ++k) {
    rel = (x[k] - y[k]) / x[k]; if (rel < 0) rel = -rel
    if (!(x[k] > 0.1) || rel > 1e-6) { printf "disagree in column %d: relative %.3g\n", k, rel; exit 1 }
  }
  print "agree to 1e-6" }'
