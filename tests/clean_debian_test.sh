#!/usr/bin/env bash
# clean_debian_test.sh DEB [ROOT]: installs the package with apt on a fresh Debian 12 (minbase,
# made by debootstrap in ROOT unless it holds one already) and uses it: on PATH, in the menu, a
# run, a lesson, the window under Xvfb. Needs root and Debian's mirror; it downloads a few hundred
# MB, so CI does not run it: `sudo bash tests/clean_debian_test.sh build-package/package/*.deb`.
set -euo pipefail
deb=$(realpath "$1") root=${2:-/tmp/stepwise-clean-debian}
[ "$(id -u)" -eq 0 ] || { echo "clean_debian_test: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
[ -x "$root/usr/bin/apt-get" ] ||
  debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >/dev/null
cp "$deb" "$root/tmp/"
cat > "$root/tmp/inside.sh" <<EOF
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq /tmp/$(basename "$deb") >/dev/null
apt-get install -y -qq xvfb xauth >/dev/null   # only to open the window without a display
cd /tmp
command -v stepwise
stepwise --version
stepwise list | head -3
stepwise run kepler --steps 10 | tail -1
test -s /usr/share/applications/stepwise.desktop
test -s /usr/share/icons/hicolor/48x48/apps/stepwise.png
test -s /usr/share/man/man1/stepwise.1.gz
xvfb-run -a -s "-screen 0 1280x800x24" stepwise gui --lesson integrators-on-an-orbit \
  --size 1024x768 --frames 30 --screenshot /tmp/clean-shot.png --output-dir /tmp/out
echo "clean_debian_test: ok: installed with" \$(dpkg-query -W -f='\${Depends}' stepwise)
EOF
# A private mount namespace: /proc and /dev for apt and Xvfb, gone when the test ends.
unshare -m bash -c "mount --bind /proc '$root/proc' && mount --bind /dev '$root/dev' &&
  chroot '$root' bash /tmp/inside.sh"
