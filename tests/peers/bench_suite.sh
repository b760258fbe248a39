#!/usr/bin/env bash
# ./dev bench suite [SIZES] [THREADS]: the settling benchmark in every phase, one row after the
# other on this machine, stepwise against the LAMMPS deck in shared/bench/lammps, as one table.
#   falling: the first 3000 steps (few contacts); settle: the whole 20000; dense: 10000 steps
#   continuing the settled packing (LAMMPS' dense.in from its own restart, stepwise from its own
#   saved state). SIZES defaults to "10000 50000", THREADS to "1 2" (LAMMPS: as many MPI ranks);
#   a size of 1000000 runs a 100 x 100 x 100 lattice for 200 falling steps only.
# Columns: particle-steps/s of each (M), their ratio, contacts at the end, peak resident memory
# per body (bytes; the whole process, so small N carries the program's own size).
set -euo pipefail
stepwise=$1 decks=$2
sizes=${3:-"10000 50000"} threads_list=${4:-"1 2"}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp "$decks"/*.in "$work"/

field() { sed -n "s/.* $1=\([0-9.]*\).*/\1/p" <<< "$2" | head -1; }  # " name=": not wall_name=
# lammps INPUT N STEPS RANKS [VARS...] -> "loop_s contacts rss_kb"
lammps() {
  local input=$1 n=$2 steps=$3 ranks=$4; shift 4
  local run=(lmp)
  [ "$ranks" -gt 1 ] && run=(mpirun -np "$ranks" --allow-run-as-root --oversubscribe lmp)
  local vars=(-var steps "$steps")
  [ "$input" = settle.in ] && vars+=(-var N "$n")  # dense.in counts its atoms itself
  (cd "$work" && OMP_NUM_THREADS=1 /usr/bin/time -f "%M" -o rss.txt "${run[@]}" -in "$input" \
    "${vars[@]}" "$@" -log log.lammps -screen none)
  local loop contacts
  loop=$(awk '/^Loop time of/ {print $4; exit}' "$work/log.lammps")
  contacts=$(sed -n 's/.*ncontacts_end=\([0-9]*\).*/\1/p' "$work/log.lammps" | tail -1)
  # With MPI, time reports the launcher; the ranks' share is counted as one process per rank.
  echo "$loop $contacts $(tail -1 "$work/rss.txt")"
}
# ours ARGS... -> "particle_steps_per_s contacts rss_kb"
ours() {
  local out
  out=$(/usr/bin/time -f "%M" -o "$work/rss_ours.txt" "$stepwise" bench "$@")
  echo "$(field particle_steps_per_s "$out") $(field contacts_end "$out") $(tail -1 "$work/rss_ours.txt")"
}

printf "%-8s %8s %3s | %9s %9s %6s | %9s %9s | %9s %9s\n" phase N thr "stepwise" "LAMMPS" ratio \
  "contacts" "(LAMMPS)" "B/body" "(LAMMPS)"
row() {  # phase n threads ours_pps ours_contacts ours_rss lammps_loop lammps_contacts lammps_rss steps
  awk -v p="$1" -v n="$2" -v t="$3" -v a="$4" -v ca="$5" -v ra="$6" -v lt="$7" -v cb="$8" \
      -v rb="$9" -v s="${10}" 'BEGIN {
    b = n * s / lt
    printf "%-8s %8d %3d | %8.2fM %8.2fM %5.2fx | %9s %9s | %9.0f %9.0f\n",
      p, n, t, a / 1e6, b / 1e6, a / b, ca, cb, ra * 1024 / n, rb * 1024 / n }'
}

for n in $sizes; do
  set_n=(--set n="$n"); lvars=()
  if [ "$n" != 10000 ] && [ "$n" != 50000 ]; then
    side=$(awk -v n="$n" 'BEGIN { printf "%d", exp(log(n) / 3) + 0.5 }')
    set_n+=(--set nx="$side" --set ny="$side" --set nz="$side")
    lvars=(-var nx "$side" -var ny "$side" -var nz "$side")
  fi
  for t in $threads_list; do
    falling=3000
    [ "$n" -ge 1000000 ] && falling=200
    read -r a ca ra <<< "$(ours settle "${set_n[@]}" --steps "$falling" --threads "$t")"
    read -r lt cb rb <<< "$(lammps settle.in "$n" "$falling" "$t" "${lvars[@]}")"
    row falling "$n" "$t" "$a" "$ca" "$ra" "$lt" "$cb" "$rb" "$falling"
    [ "$n" -ge 1000000 ] && continue
    read -r a ca ra <<< "$(ours settle "${set_n[@]}" --steps 20000 --threads "$t")"
    read -r lt cb rb <<< "$(lammps settle.in "$n" 20000 "$t" "${lvars[@]}" -var write 1)"
    row settle "$n" "$t" "$a" "$ca" "$ra" "$lt" "$cb" "$rb" 20000
    "$stepwise" run settle "${set_n[@]}" --steps 20000 --threads "$t" -q \
      --save-state "$work/settled.toml" > /dev/null
    read -r a ca ra <<< "$(ours "$work/settled.toml" --steps 10000 --threads "$t")"
    read -r lt cb rb <<< "$(lammps dense.in "$n" 10000 "$t" -var restart_in "settled_$n.restart")"
    row dense "$n" "$t" "$a" "$ca" "$ra" "$lt" "$cb" "$rb" 10000
  done
done
