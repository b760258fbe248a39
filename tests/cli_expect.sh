#!/usr/bin/env bash
# cli_expect.sh CODE PATTERN BINARY ARGS... : runs the CLI, checks its exit code and that PATTERN
# appears in its output. @TMP@ in ARGS becomes a scratch folder; a final @CAT@FILE prints that file.
set -u
expected=$1 pattern=$2; shift 2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
args=() cat_file=""
for a in "$@"; do
  case "$a" in
    @CAT@*) cat_file="$tmp/${a#@CAT@}" ;;
    *) args+=("${a//@TMP@/$tmp}") ;;
  esac
done
output=$("${args[@]}" 2>&1); code=$?
[ -n "$cat_file" ] && output+=$'\n'$(cat "$cat_file" 2>&1)
if [ "$code" != "$expected" ]; then
  echo "exit code $code, expected $expected"; echo "$output" | tail -20; exit 1
fi
if ! grep -qF -- "$pattern" <<<"$output"; then
  echo "output lacks: $pattern"; echo "$output" | tail -20; exit 1
fi
echo "ok: exit $code, found '$pattern'"
