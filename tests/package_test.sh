#!/usr/bin/env bash
# package_test.sh BUILD: CPack makes the .deb from this build; its control fields and file list
# are checked and lintian must report no errors. (./dev package makes the release .deb the same
# way from a portable build, without AVX2.)
set -euo pipefail
build=$(cd "$1" && pwd)
scratch=$(mktemp -d) && trap 'rm -rf "$scratch"' EXIT
fail() { echo "package_test: $*" >&2; exit 1; }
(cd "$build" && cpack -G DEB -B "$scratch" >/dev/null)
deb=$(ls "$scratch"/stepwise_*_amd64.deb 2>/dev/null || ls "$scratch"/stepwise_*.deb)
info=$(dpkg-deb -I "$deb")
for field in "Package: stepwise" "Section: science" "Recommends: ffmpeg"; do
  grep -q "$field" <<<"$info" || fail "control lacks '$field'"
done
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libc6 libstdc++6 libglfw3 libtomlplusplus3; do  # read off the binary by dpkg-shlibdeps
  grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
files=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/stepwise ./usr/share/applications/stepwise.desktop \
  ./usr/share/mime/packages/stepwise.xml ./usr/share/icons/hicolor/scalable/apps/stepwise.svg \
  ./usr/share/icons/hicolor/256x256/apps/stepwise.png ./usr/share/man/man1/stepwise.1.gz \
  ./usr/share/bash-completion/completions/stepwise ./usr/share/stepwise/scenes/kepler.toml \
  ./usr/share/stepwise/lessons/integrators-on-an-orbit.toml ./usr/share/doc/stepwise/copyright \
  ./usr/share/doc/stepwise/changelog.gz; do
  grep -qx -- "$f" <<<"$files" || fail "$f is not in the package"
done
outside=$(grep -v '^\./usr/' <<<"$files" | grep -vx '\./' || true)
[ -z "$outside" ] || fail "files outside /usr: $outside"
if command -v lintian >/dev/null; then
  lintian --fail-on error "$deb" 2>/dev/null || fail "lintian reports errors"
else
  echo "package_test: lintian not installed, not run (./dev installs it)"
fi
echo "package_test: ok: $(basename "$deb"), Depends: $depends"
