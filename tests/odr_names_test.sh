#!/usr/bin/env bash
# odr_names_test.sh SRC: no two headers define a namespace-scope type of one name. Two such types
# (the contact models' WallPlane and the snapshot's) broke the one-definition rule: a build could
# take one's std::vector code for the other's, and the clang fuzz build did, corrupting the
# snapshot's walls. Reads the types the house style writes at the start of a line.
set -euo pipefail
src=${1:?usage: odr_names_test.sh SRC}
twice=$(grep -rhoE --include='*.hpp' '^(struct|class|union) [A-Za-z_][A-Za-z_0-9]*( final)? *[:{]' "$src" |
  awk '{print $2}' | sort | uniq -d)
if [ -n "$twice" ]; then
  echo "types defined in more than one header (rename one):"
  for name in $twice; do
    grep -rnE --include='*.hpp' "^(struct|class|union) $name( final)? *[:{]" "$src"
  done
  exit 1
fi
echo "ok: $(grep -rhoE --include='*.hpp' '^(struct|class|union) [A-Za-z_]' "$src" | wc -l) header types, no name twice"
