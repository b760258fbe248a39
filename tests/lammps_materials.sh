#!/usr/bin/env bash
# Exports tests/data/hooke_two_materials.toml (two hooke materials, a rigid floor, walls of a
# material and of the bodies' own) to LAMMPS - pair granular with an atom type per material and
# a wall/gran fix per wall and type - runs Debian's lmp on it, and compares every body's final
# velocity and spin with stepwise's. Bodies 13-21 touch only walls: there LAMMPS computes what
# stepwise does, to round-off (1e-9). Bodies 1-12 collide in pairs: pair granular differs from
# gran/hooke/history (which stepwise follows to 1e-6 in lammps_agreement.sh) in its torque arm
# (R - delta/2, not R) and in rescaling the tangential spring when the normal turns, about 7e-5
# here; a pair of types with a wrong mu, kn or tangential damping is off by 3e-3 to 2e-2.
set -euo pipefail
stepwise=$1 scene=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
"$stepwise" export "$scene" --lammps "$work" --steps 2000 --thermo 2000 > /dev/null
grep -q "^pair_style granular" "$work/in.scene"
sed -i '/^run /i dump final all custom 2000 final.dump id vx vy vz omegax omegay omegaz\ndump_modify final sort id format float %.17g' "$work/in.scene"
(cd "$work" && lmp -in in.scene -screen none -log log.lammps)
"$stepwise" run "$scene" --steps 2000 --state "$work/state.csv" -q
"$stepwise" run "$scene" --steps 0 --state "$work/start.csv" -q
# The last ATOMS block of the dump, then ours (id from 0, vx vy vz in 5-7, wx wy wz in 12-14).
awk '/^[0-9]/ && NF == 7' "$work/final.dump" \
  | tail -21 > "$work/theirs"
awk -F, 'NR > 1 {print $1 + 1, $5, $6, $7, $12, $13, $14}' "$work/state.csv" > "$work/ours"
awk -F, 'NR > 1 {print $1 + 1, $5, $6, $7, $12, $13, $14}' "$work/start.csv" > "$work/start"
paste -d' ' "$work/theirs" "$work/ours" "$work/start" | awk '
  function abs(x) { return x < 0 ? -x : x }
  {
    id = $1; worst = 0; moved = 0
    for (k = 2; k <= 7; ++k) {
      d = abs($k - $(k + 7)); if (d > worst) worst = d
      if (abs($(k + 7) - $(k + 14)) > 1e-3) moved = 1
    }
    limit = id >= 13 ? 1e-9 : 2e-4
    if ($8 != id || $15 != id) { print "body order differs at " id; bad = 1 }
    if (!moved) { printf "body %d never collided\n", id; bad = 1 }
    if (worst > limit) { printf "body %d: velocities differ by %.3g (limit %g)\n", id, worst, limit; bad = 1 }
    if (id >= 13 && worst > wall) wall = worst
    if (id < 13 && worst > pair) pair = worst
  }
  END {
    if (NR != 21) { print "expected 21 bodies, read " NR; exit 1 }
    if (bad) exit 1
    printf "agree: wall contacts to %.3g, pair contacts to %.3g\n", wall, pair
  }'
