#!/usr/bin/env bash
# The 2-D deck: exports a small disk-settle scene (dimension 2, nve/sphere disc, enforce2d), runs
# Debian's lmp on it and checks that LAMMPS and stepwise agree on the translational and spin
# kinetic energies after 1000 steps, with the disks packed close enough to be in contact by then.
set -euo pipefail
stepwise=$1
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
scene=(disk-settle --set n=400 --set spacing=1.1)
"$stepwise" export "${scene[@]}" --lammps "$work" --steps 1000 --thermo 1000 > /dev/null
grep -q "^dimension 2" "$work/in.scene" && grep -q "nve/sphere disc" "$work/in.scene"
(cd "$work" && lmp -in in.scene -screen none -log log.lammps)
theirs=$(awk '/^ *Step/ {on = 1; next} on && $1 == 1000 {print $3, $4; exit}' "$work/log.lammps")
"$stepwise" run "${scene[@]}" --steps 1000 --every 1000 --csv "$work/e.csv" -q
ours=$(awk -F, '$1 == 1000 {print $15, $16, $17}' "$work/e.csv")
echo "lammps ke erot: $theirs"
echo "stepwise ke erot contacts: $ours"
awk -v a="$theirs" -v b="$ours" 'BEGIN {
  split(a, x, " "); split(b, y, " ")
  if (!(y[3] >= 50)) { printf "only %d contacts at step 1000: the test would not test contacts\n", y[3]; exit 1 }
  for (k = 1; k <= 2; ++k) {
    rel = (x[k] - y[k]) / x[k]; if (rel < 0) rel = -rel
    if (!(x[k] > 0.01) || rel > 1e-6) { printf "disagree in column %d: relative %.3g\n", k, rel; exit 1 }
  }
  print "agree to 1e-6" }'
