#!/usr/bin/env bash
# cli_expect.sh CODE PATTERN BINARY ARGS... : runs the CLI, checks its exit code and that PATTERN
# appears in its output. In ARGS: @TMP@ becomes a scratch folder; @THEN@ starts another run of
# BINARY (its exit code is the one checked); a final @CAT@FILE prints that file; a final
# "@SAME@ A B" prints "identical" if the two scratch files are byte for byte the same.
set -u
expected=$1 pattern=$2 binary=$3; shift 3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
runs=() current=() cat_file="" same=()
for a in "$@"; do
  if [ ${#same[@]} -gt 0 ]; then same+=("$tmp/$a"); continue; fi
  case "$a" in
    @CAT@*) cat_file="$tmp/${a#@CAT@}" ;;
    @THEN@) runs+=("$(printf '%q ' "${current[@]}")"); current=() ;;
    @SAME@) same=(compare) ;;
    *) current+=("${a//@TMP@/$tmp}") ;;
  esac
done
runs+=("$(printf '%q ' "${current[@]}")")
output="" code=0
for r in "${runs[@]}"; do
  output+=$(eval "$(printf '%q' "$binary") $r" 2>&1); code=$?
  output+=$'\n'
  [ "$code" != 0 ] && break
done
[ -n "$cat_file" ] && output+=$'\n'$(cat "$cat_file" 2>&1)
if [ ${#same[@]} -eq 3 ]; then
  if cmp -s "${same[1]}" "${same[2]}"; then output+=$'\nidentical'; else output+=$'\ndiffer'; fi
fi
if [ "$code" != "$expected" ]; then
  echo "exit code $code, expected $expected"; echo "$output" | tail -20; exit 1
fi
if ! grep -qF -- "$pattern" <<<"$output"; then
  echo "output lacks: $pattern"; echo "$output" | tail -20; exit 1
fi
echo "ok: exit $code, found '$pattern'"
