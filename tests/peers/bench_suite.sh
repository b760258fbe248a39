#!/usr/bin/env bash
# ./dev bench suite [SIZES] [THREADS] [ROUNDS] [PHASES]: the settling benchmark in every phase,
# one row after the other on this machine, stepwise against the LAMMPS deck in
# shared/bench/lammps, as one table.
#   falling: the first 3000 steps (few contacts); settle: the whole 20000; dense: 10000 steps
#   continuing the settled packing (LAMMPS' dense.in from its own restart, stepwise from its own
#   saved state). SIZES defaults to "10000 50000", THREADS to "1 2" (LAMMPS: as many MPI ranks);
#   any size but those two must be a cube k^3, run as a k x k x k lattice (k up to 125: settle's
#   2,000,000 spheres), and 1000000 runs its lattice for 200 falling steps only. ROUNDS (default
#   1) runs each row's pair that many times, the two programs taking turns, and reports each one's
#   median and the lowest and highest of the rounds' ratios: on a shared machine whose speed
#   drifts, one run apiece can be off by a third. PHASES (default "falling settle dense") picks
#   the rows.
# Columns: particle-steps/s of each (M; medians over the rounds), the ratio of the medians, the
# rounds' lowest and highest ratios, each program's own spread over the rounds (highest less
# lowest, as a share of its median: stepwise/LAMMPS), contacts at the end, peak resident memory
# per body (bytes; the whole process, so small N carries the program's own size; both from the
# last round), and on two threads or more the cores' cache-line round trip measured before each
# round (lowest-highest, ns; core_round_trip beside the stepwise binary): a virtual machine's two
# cores are close in some periods and far in others, and the far periods slow two threads that
# share rows every step (README, Speed).
set -euo pipefail
stepwise=$1 decks=$2
probe="$(dirname "$stepwise")/tests/core_round_trip"
sizes=${3:-"10000 50000"} threads_list=${4:-"1 2"} rounds=${5:-1}
phases=${6:-"falling settle dense"}
for phase in $phases; do
  case $phase in
    falling | settle | dense) ;;
    *) echo "bench suite: PHASES are falling, settle and dense, not '$phase'" >&2; exit 2 ;;
  esac
done
has_phase() { [[ " $phases " == *" $1 "* ]]; }
# settle takes 10000 and 50000 as they are, any other size as a k x k x k lattice, to 2,000,000.
lattice_side() { awk -v n="$1" 'BEGIN { printf "%d", exp(log(n) / 3) + 0.5 }'; }
for n in $sizes; do
  [ "$n" = 10000 ] || [ "$n" = 50000 ] && continue
  side=0
  [[ $n =~ ^[1-9][0-9]{0,6}$ ]] && side=$(lattice_side "$n")
  if [ "$side" -lt 1 ] || [ "$side" -gt 125 ] || [ $((side * side * side)) != "$n" ]; then
    echo "bench suite: SIZES are 10000, 50000 or cubes k^3, k from 1 to 125, not '$n'" >&2
    exit 2
  fi
done
case $rounds in
  [1-9] | [1-9][0-9]) ;;
  *) echo "bench suite: ROUNDS must be a whole number from 1 to 99, not '$rounds'" >&2; exit 2 ;;
esac
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
  rm -f "$work/log.lammps"  # (a run that never starts must not leave the last one's figures)
  (cd "$work" && OMP_NUM_THREADS=1 /usr/bin/time -f "%M" -o rss.txt "${run[@]}" -in "$input" \
    "${vars[@]}" "$@" -log log.lammps -screen none)
  local loop contacts
  loop=$(awk '/^Loop time of/ {print $4; exit}' "$work/log.lammps")
  [ -n "$loop" ] || return 0  # (failed: nothing, so the caller stops)
  contacts=$(sed -n 's/.*ncontacts_end=\([0-9]*\).*/\1/p' "$work/log.lammps" | tail -1)
  # With MPI, time reports the launcher; the ranks' share is counted as one process per rank.
  echo "$loop $contacts $(tail -1 "$work/rss.txt")"
}
# ours ARGS... -> "particle_steps_per_s contacts rss_kb"
ours() {
  local out
  out=$(/usr/bin/time -f "%M" -o "$work/rss_ours.txt" "$stepwise" bench "$@") || return 0
  echo "$(field particle_steps_per_s "$out") $(field contacts_end "$out") $(tail -1 "$work/rss_ours.txt")"
}

# round_trip -> the cores' round trip in ns ("-" without the probe or a second core)
round_trip() {
  local out
  out=$([ -x "$probe" ] && "$probe" 2> /dev/null || echo "core_round_trip_ns=-")
  echo "${out#core_round_trip_ns=}"
}

printf "%-8s %8s %3s | %9s %9s %6s %13s %9s | %9s %9s | %9s %9s | %9s\n" phase N thr "stepwise" \
  "LAMMPS" ratio "(rounds)" "spread" "contacts" "(LAMMPS)" "B/body" "(LAMMPS)" "trip ns"
# row phase n threads steps ours_pps_list lammps_loop_list ours_contacts lammps_contacts ours_rss
#     lammps_rss trips: the lists hold one figure per round, space-separated
row() {
  awk -v p="$1" -v n="$2" -v t="$3" -v s="$4" -v as="$5" -v ls="$6" -v ca="$7" -v cb="$8" \
      -v ra="$9" -v rb="${10}" -v ts="${11}" '
    function median(x, k,   i, j, v) {  # x[1..k], sorted in place
      for (i = 2; i <= k; ++i) { v = x[i]; for (j = i - 1; j >= 1 && x[j] > v; --j) x[j + 1] = x[j]; x[j + 1] = v }
      return k % 2 ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2
    }
    BEGIN {
      k = split(as, a, " "); split(ls, l, " ")
      lo = 1e300; hi = 0
      for (i = 1; i <= k; ++i) {
        b[i] = n * s / l[i]; r = a[i] / b[i]
        if (r < lo) lo = r
        if (r > hi) hi = r
      }
      ma = median(a, k); mb = median(b, k)  # (sorted now: the ends are the extremes)
      ratios = k > 1 ? sprintf("%.2f-%.2fx", lo, hi) : "-"
      own = k > 1 ? sprintf("%d%%/%d%%", 100 * (a[k] - a[1]) / ma + 0.5,
                            100 * (b[k] - b[1]) / mb + 0.5) : "-"
      m = split(ts, trip, " "); tlo = 1e300; thi = -1
      for (i = 1; i <= m; ++i) if (trip[i] != "-") {
        if (trip[i] + 0 < tlo) tlo = trip[i] + 0
        if (trip[i] + 0 > thi) thi = trip[i] + 0
      }
      trips = thi < 0 ? "-" : tlo == thi ? sprintf("%d", tlo) : sprintf("%d-%d", tlo, thi)
      printf "%-8s %8d %3d | %8.2fM %8.2fM %5.2fx %13s %9s | %9s %9s | %9.0f %9.0f | %9s\n",
        p, n, t, ma / 1e6, mb / 1e6, ma / mb, ratios, own, ca, cb, ra * 1024 / n, rb * 1024 / n,
        trips }'
}
# pair PHASE N THREADS STEPS "OURS ARGS" "LAMMPS ARGS": the rounds, taking turns, then the row
# (contacts and memory from the last round).
pair() {
  local phase=$1 n=$2 t=$3 steps=$4 ours_pps="" lammps_loops="" trips="" a ca ra lt cb rb round
  local -a ours_args lammps_args
  read -r -a ours_args <<< "$5"
  read -r -a lammps_args <<< "$6"
  for ((round = 0; round < rounds; ++round)); do
    if [ "$t" -gt 1 ]; then trips+="$(round_trip) "; else trips+="- "; fi
    read -r a ca ra <<< "$(ours "${ours_args[@]}")"
    [ -n "$a" ] || { echo "bench suite: stepwise's $phase run at N=$n failed (above)" >&2; exit 1; }
    read -r lt cb rb <<< "$(lammps "${lammps_args[@]}")"
    [ -n "$lt" ] || { echo "bench suite: LAMMPS's $phase run at N=$n failed" >&2; exit 1; }
    ours_pps+="$a " lammps_loops+="$lt "
  done
  row "$phase" "$n" "$t" "$steps" "$ours_pps" "$lammps_loops" "$ca" "$cb" "$ra" "$rb" "$trips"
}

for n in $sizes; do
  set_n=(--set n="$n"); lvars=()
  if [ "$n" != 10000 ] && [ "$n" != 50000 ]; then
    side=$(lattice_side "$n")
    set_n+=(--set nx="$side" --set ny="$side" --set nz="$side")
    lvars=(-var nx "$side" -var ny "$side" -var nz "$side")
  fi
  for t in $threads_list; do
    falling=3000
    [ "$n" -ge 1000000 ] && falling=200
    if has_phase falling; then
      pair falling "$n" "$t" "$falling" "settle ${set_n[*]} --steps $falling --threads $t" \
        "settle.in $n $falling $t ${lvars[*]}"
    fi
    [ "$n" -ge 1000000 ] && continue
    # dense needs both programs' settled states: LAMMPS writes its restart in its settle run.
    if has_phase settle; then
      pair settle "$n" "$t" 20000 "settle ${set_n[*]} --steps 20000 --threads $t" \
        "settle.in $n 20000 $t ${lvars[*]} -var write 1"
    elif has_phase dense; then
      lammps settle.in "$n" 20000 "$t" "${lvars[@]}" -var write 1 > /dev/null
    fi
    has_phase dense || continue
    "$stepwise" run settle "${set_n[@]}" --steps 20000 --threads "$t" -q \
      --save-state "$work/settled.toml" > /dev/null
    pair dense "$n" "$t" 10000 "$work/settled.toml --steps 10000 --threads $t" \
      "dense.in $n 10000 $t -var restart_in settled_$n.restart"
  done
done
