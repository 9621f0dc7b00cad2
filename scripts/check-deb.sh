#!/usr/bin/env bash
# Installs psfsim's .deb into a fresh minimal Debian bookworm (debootstrap) and runs it there.
# apt resolves only the dependencies the package declares, so one that is missing shows up as
# a psfsim that does not start. With the psfsim-dev package as well, it also installs g++ and
# cmake and builds and runs examples/consumer against /usr (find_package(psfsim)).
#
#   sudo scripts/check-deb.sh psfsim_0.1.0_amd64.deb [psfsim-dev_0.1.0_amd64.deb]
#
# Needs root, debootstrap and deb.debian.org; downloads a root file system (about 100 MB,
# 300 MB more with the -dev check), so CI does not run it. The root is made in a temporary
# folder and removed afterwards (PSFSIM_KEEP_ROOT=1 keeps it). See docs/install.md.
set -euo pipefail

die() { echo "check-deb.sh: error: $*" >&2; exit 1; }

[[ $# -ge 1 && $# -le 2 ]] || die "usage: scripts/check-deb.sh PSFSIM_DEB [PSFSIM_DEV_DEB]"
[[ $(id -u) -eq 0 ]] || die "run as root (debootstrap and chroot)"
command -v debootstrap >/dev/null || die "debootstrap not found: apt-get install debootstrap"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
deb=$(realpath "$1")
dev_deb=""
[[ $# -eq 2 ]] && dev_deb=$(realpath "$2")
for f in "$deb" $dev_deb; do [[ -f $f ]] || die "no such package: $f"; done

root=$(mktemp -d /tmp/psfsim-deb-root.XXXXXX)
# Runs a bash script in the root, with a clean environment.
in_root() {
  chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    DEBIAN_FRONTEND=noninteractive bash -euc "$1"
}
cleanup() {
  if mountpoint -q "$root/proc"; then umount "$root/proc"; fi
  if [[ ${PSFSIM_KEEP_ROOT:-0} == 1 ]]; then
    echo "check-deb.sh: root kept in $root"
  else
    rm -rf --one-file-system "$root"
  fi
}
trap cleanup EXIT

echo "check-deb.sh: debootstrap bookworm into $root"
debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$root.log" 2>&1 ||
  die "debootstrap failed, see $root.log"
rm -f "$root.log"
mount -t proc proc "$root/proc"
# apt in a chroot: dpkg gets no pseudo-terminal, and downloads run as root (no _apt sandbox).
printf 'Dpkg::Use-Pty "0";\nAPT::Sandbox::User "root";\n' >"$root/etc/apt/apt.conf.d/99check-deb"
mkdir -p "$root/check"
cp "$deb" $dev_deb "$root/check/"

echo "check-deb.sh: installing $(basename "$deb") and running it"
in_root "
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends /check/$(basename "$deb") >/dev/null
  dpkg-query -W -f='installed \${Package} \${Version}, depends: \${Depends}\n' psfsim
  psfsim --version
  psfsim info
  psfsim run -c /usr/share/psfsim/configs/original-question.toml -o /tmp/original.h5
  ls -l /tmp/original.h5
"

if [[ -n $dev_deb ]]; then
  echo "check-deb.sh: installing $(basename "$dev_deb") and building examples/consumer"
  cp -r "$here/../examples/consumer" "$root/check/consumer"
  in_root "
    apt-get install -y -qq --no-install-recommends g++ cmake make \
      /check/$(basename "$dev_deb") >/dev/null
    cmake -S /check/consumer -B /tmp/consumer >/dev/null
    cmake --build /tmp/consumer >/dev/null
    /tmp/consumer/psfsim_consumer /tmp/consumer.h5
  "
fi
echo "check-deb.sh: all checks passed"
