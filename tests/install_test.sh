#!/usr/bin/env bash
# install_test.sh BUILD SOURCE: installs the build into a scratch prefix and runs the installed
# program with the source and build trees out of reach (a private mount namespace lays empty
# folders over them): --version, list, a run, a scene file and a lesson from the installed share
# folder, the window under Xvfb with a screenshot, the manual, bash completion, the menu entry and
# the MIME type.
set -euo pipefail
build=$(cd "$1" && pwd) source=$(cd "$2" && pwd)
scratch=$(mktemp -d) && trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
fail() { echo "install_test: $*" >&2; exit 1; }

# Files a desktop expects, valid by freedesktop's own checkers.
for f in bin/stepwise share/applications/stepwise.desktop share/mime/packages/stepwise.xml \
  share/icons/hicolor/scalable/apps/stepwise.svg share/icons/hicolor/48x48/apps/stepwise.png \
  share/man/man1/stepwise.1.gz share/bash-completion/completions/stepwise \
  share/stepwise/scenes/kepler.toml share/stepwise/lessons/integrators-on-an-orbit.toml; do
  [ -s "$prefix/$f" ] || fail "$f not installed"
done
# (One hint is expected: the issue asks for both Education and Science, so it shows in both menus.)
problems=$(desktop-file-validate "$prefix/share/applications/stepwise.desktop" 2>&1 | grep -v "hint:" || true)
[ -z "$problems" ] || fail "desktop-file-validate: $problems"
warnings=$(zcat "$prefix/share/man/man1/stepwise.1.gz" | groff -man -Tutf8 -ww -z 2>&1)
[ -z "$warnings" ] || fail "groff warns about the manual: $warnings"
zcat "$prefix/share/man/man1/stepwise.1.gz" | grep 'save\\-state' > /dev/null || fail "manual lacks run's options"

# A file named *.stepwise.toml, or a scene without a telling name, is a stepwise file.
mkdir -p "$scratch/mime/packages"
cp /usr/share/mime/packages/freedesktop.org.xml "$prefix/share/mime/packages/stepwise.xml" \
  "$scratch/mime/packages/"  # a private database: the type's parent, application/toml, and ours
update-mime-database "$scratch/mime" >/dev/null 2>&1
grep -q "application/x-stepwise:\*.stepwise.toml" "$scratch/mime/globs2" || fail "no glob"
if command -v gio >/dev/null; then
  cp "$source/assets/scenes/kepler.toml" "$scratch/orbit.stepwise.toml"
  cp "$source/assets/scenes/kepler.toml" "$scratch/orbit"
  for f in orbit.stepwise.toml orbit; do
    XDG_DATA_HOME=$scratch XDG_DATA_DIRS=$scratch gio info -a standard::content-type \
      "$scratch/$f" | grep -q "application/x-stepwise" || fail "$f is not application/x-stepwise"
  done
  # Double-clicking one: the desktop's default application for the type is the menu entry.
  mkdir -p "$scratch/applications"
  cp "$prefix/share/applications/stepwise.desktop" "$scratch/applications/"
  update-desktop-database "$scratch/applications"
  mime=$(PATH=$prefix/bin:$PATH XDG_DATA_HOME=$scratch XDG_DATA_DIRS=$scratch \
    XDG_CONFIG_HOME=$scratch/config XDG_CONFIG_DIRS=$scratch/config gio mime application/x-stepwise 2>&1)
  grep -q "Default application.*stepwise.desktop" <<< "$mime" ||
    fail "stepwise.desktop is not the default application for application/x-stepwise: $mime"
fi

# The installed program alone: the trees it was built from are hidden.
unshare_cmd=(unshare -m)
[ "$(id -u)" -ne 0 ] && unshare_cmd=(unshare -Urm)
"${unshare_cmd[@]}" true 2>/dev/null || fail "cannot make a mount namespace to hide $source"
cat > "$scratch/inside.sh" <<'EOF'
set -euo pipefail
prefix=$1 source=$2 build=$3 scratch=$4
mount -t tmpfs none "$source"
mount -t tmpfs none "$build" 2>/dev/null || true  # inside the source tree, already hidden
[ -e "$source/assets/scenes/kepler.toml" ] && { echo "source tree still visible"; exit 1; }
cd "$scratch"
sw=$prefix/bin/stepwise
"$sw" --version | grep -Eq '^stepwise [0-9]+\.[0-9]+\.[0-9]+ \(git [0-9a-f]{12}|unknown' ||
  { echo "bad --version: $("$sw" --version)"; exit 1; }
"$sw" list | grep kepler > /dev/null  # not -q: list must not meet a closed pipe
"$sw" run kepler --steps 10 | grep -q done
"$sw" run "$prefix/share/stepwise/scenes/dice.toml" --steps 10 -q
# Completion offers the installed lessons by name, found beside the program on PATH.
got=$(PATH=$prefix/bin:$PATH bash -c 'source "$1"; COMP_WORDS=(stepwise gui --lesson integ)
  COMP_CWORD=3; _stepwise; echo "${COMPREPLY[*]}"' _ "$prefix/share/bash-completion/completions/stepwise")
[ "$got" = integrators-on-an-orbit ] || { echo "completion gave '$got'"; exit 1; }
# The window plays an installed lesson, by name, and saves a screenshot.
xvfb-run -a -s "-screen 0 1280x800x24" "$sw" gui --lesson integrators-on-an-orbit \
  --size 1024x768 --frames 40 --screenshot "$scratch/shot.png" --output-dir "$scratch/out"
python3 - "$scratch/shot.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
width, height = struct.unpack(">II", data[16:24])
chunks, pos = b"", 8
while pos < len(data):
    size, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IDAT": chunks += data[pos + 8:pos + 8 + size]
    pos += 12 + size
pixels = zlib.decompress(chunks)
colours = {pixels[k:k + 3] for k in range(0, len(pixels), 97)}
assert (width, height) == (1024, 768), (width, height)
assert len(colours) > 30, f"only {len(colours)} colours: a blank window?"
print(f"screenshot {width}x{height}, {len(colours)} colours sampled")
PY
EOF
"${unshare_cmd[@]}" bash "$scratch/inside.sh" "$prefix" "$source" "$build" "$scratch" ||
  fail "the installed program failed with its source tree hidden"
echo "install_test: ok ($prefix)"
