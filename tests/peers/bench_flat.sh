#!/usr/bin/env bash
# ./dev bench flat [SIDES] [ROUNDS]: the cost of a particle-step as the settling benchmark grows,
# stepwise beside the LAMMPS deck in shared/bench/lammps, as one table (issue 22's flat cost).
#   Each size is a SIDE^3 lattice (SIDES defaults to "22 100": 10,648 and 1,000,000 spheres),
#   run from the start for the first 200 steps (stepwise with its free flights, then stepped
#   with --free-flight off; LAMMPS steps every one), 400 and 800 steps, and steps 600-800 alone
#   (the landing: stepwise `--from 600`, LAMMPS's second run of a copy of settle.in that runs
#   600 steps and then 200). ROUNDS (default 3) runs every row that many times, the two
#   programs taking turns; each figure is the median.
# Columns: ns per particle-step at each size (smallest first) and the largest size's over the
# smallest's, for stepwise and for LAMMPS. Flat within 20% is a ratio below 1.20.
set -euo pipefail
stepwise=$1 decks=$2
sides=${3:-"22 100"} rounds=${4:-3}
for side in $sides; do
  case $side in
    [1-9] | [1-9][0-9] | 1[0-1][0-9] | 12[0-5]) ;;  # (settle takes up to 2,000,000 spheres)
    *) echo "bench flat: SIDES are whole numbers from 1 to 125 (a lattice's side), not '$side'" >&2
       exit 2 ;;
  esac
done
sides=$(tr ' ' '\n' <<< "$sides" | sed '/^$/d' | sort -n | tr '\n' ' ')  # smallest first
case $rounds in
  [1-9] | [1-9][0-9]) ;;
  *) echo "bench flat: ROUNDS must be a whole number from 1 to 99, not '$rounds'" >&2; exit 2 ;;
esac
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp "$decks"/*.in "$work"/
# The landing window: settle.in's one run split in two, 600 steps and then the timed ones.
# shellcheck disable=SC2016  # (the deck's own ${steps}, not the shell's)
sed 's/^run[[:space:]]*\${steps}/run 600\nrun ${steps}/' "$work/settle.in" > "$work/window.in"
grep -q '^run 600' "$work/window.in" || { echo "bench flat: settle.in has no 'run \${steps}'" >&2; exit 2; }

# ours SIDE ARGS... -> ns per particle-step of `stepwise bench settle` on the SIDE^3 lattice
ours() {
  local side=$1 out pps; shift
  out=$("$stepwise" bench settle --set n=$((side * side * side)) --set nx="$side" \
    --set ny="$side" --set nz="$side" "$@")
  pps=$(sed -n 's/.* particle_steps_per_s=\([0-9.]*\).*/\1/p' <<< "$out" | head -1)
  [ -n "$pps" ] || { touch "$work/failed"; return 0; }  # (a subshell: the loop stops)
  awk -v p="$pps" 'BEGIN { printf "%.3f", 1e9 / p }'
}
# lammps DECK SIDE STEPS -> ns per particle-step of the deck's last run
lammps() {
  local deck=$1 side=$2 steps=$3 n=$(($2 * $2 * $2)) loop
  rm -f "$work/log.lammps"  # (a run that never starts must not leave the last one's figures)
  (cd "$work" && OMP_NUM_THREADS=1 lmp -in "$deck" -var N "$n" -var nx "$side" -var ny "$side" \
    -var nz "$side" -var steps "$steps" -log log.lammps -screen none)
  loop=$(awk '/^Loop time of/ {t = $4} END {print t}' "$work/log.lammps")
  [ -n "$loop" ] || { touch "$work/failed"; return 0; }
  awk -v t="$loop" -v n="$n" -v s="$steps" 'BEGIN { printf "%.3f", t / n / s * 1e9 }'
}

# A run's function (in a subshell) leaves a mark when it fails: stop there, naming the size.
stop_if_failed() {
  [ ! -e "$work/failed" ] || { echo "bench flat: a run at side $1 failed" >&2; exit 1; }
}
# Per row and size, one figure per round for each program (space-separated lists).
rows=(flights stepped 400 800 landing)
declare -A mine theirs
for ((round = 0; round < rounds; ++round)); do
  for side in $sides; do
    mine[flights,$side]+="$(ours "$side" --steps 200) "
    mine[stepped,$side]+="$(ours "$side" --steps 200 --free-flight off) "
    mine[400,$side]+="$(ours "$side" --steps 400) "
    mine[800,$side]+="$(ours "$side" --steps 800) "
    mine[landing,$side]+="$(ours "$side" --steps 200 --from 600 --free-flight off) "
    stop_if_failed "$side"
    two=$(lammps settle.in "$side" 200)  # (LAMMPS steps every step: both 200-step rows)
    theirs[flights,$side]+="$two " theirs[stepped,$side]+="$two "
    theirs[400,$side]+="$(lammps settle.in "$side" 400) "
    theirs[800,$side]+="$(lammps settle.in "$side" 800) "
    theirs[landing,$side]+="$(lammps window.in "$side" 200) "
    stop_if_failed "$side"
  done
done

median() { tr ' ' '\n' <<< "$1" | sed '/^$/d' | sort -g | awk '{x[NR] = $1}
  END { print NR % 2 ? x[(NR + 1) / 2] : (x[NR / 2] + x[NR / 2 + 1]) / 2 }'; }
read -r -a list <<< "$sides"
label() {
  case $1 in
    flights) echo "200 steps" ;; stepped) echo "200 stepped" ;; 400) echo "400 steps" ;;
    800) echo "800 steps" ;; landing) echo "steps 600-800" ;;
  esac
}
# program ROW -> that row's medians, one per size, then the largest size's over the smallest's
figures() {
  local -n of=$1
  local side out="" first last
  for side in $sides; do
    last=$(median "${of[$2,$side]}")
    [ -z "$out" ] && first=$last
    out+="$(printf "%9.2f " "$last")"
  done
  echo "$out$(awk -v a="$first" -v b="$last" 'BEGIN { printf "%7.2fx", b / a }')"
}
heads=""
for side in $sides; do heads+="$(printf "%9d " $((side * side * side)))"; done
width=$((10 * ${#list[@]} + 8))
printf "%-14s | %-${width}s | %-${width}s\n" "ns/step" "stepwise" "LAMMPS"
printf "%-14s | %s%8s | %s%8s\n" "N" "$heads" ratio "$heads" ratio
for r in "${rows[@]}"; do
  printf "%-14s | %s | %s\n" "$(label "$r")" "$(figures mine "$r")" "$(figures theirs "$r")"
done
