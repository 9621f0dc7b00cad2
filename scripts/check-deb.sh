#!/usr/bin/env bash
# Installs psfsim's .debs into a fresh minimal Debian bookworm (debootstrap) and runs them
# there. apt resolves only the dependencies the packages declare, so one that is missing
# shows up as a psfsim that does not start. Besides psfsim, any of these may be given, in any
# order (each is told by its Package field):
#   psfsim-cuda     installed with psfsim; the root has no NVIDIA library and no GPU, so
#                   `psfsim info` must report the cuda backend unusable, naming the library
#                   the plugin could not load, `--backend cuda` must fail with one line and
#                   exit 3, and a run without --backend must take the CPU. Before it is
#                   installed, psfsim must say that the plugin is not installed.
#   python3-psfsim  installed, then `import psfsim` computes a PSF
#   psfsim-dev      installed with g++, cmake and make, then examples/consumer is built
#                   against /usr (find_package(psfsim)) and run
#
#   sudo scripts/check-deb.sh psfsim_0.1.0_amd64.deb [psfsim-cuda_0.1.0_amd64.deb]
#        [python3-psfsim_0.1.0_amd64.deb] [psfsim-dev_0.1.0_amd64.deb]
#
# Needs root, debootstrap and deb.debian.org; downloads a root file system (about 100 MB,
# 300 MB more with the -dev check, some 40 MB with the Python one), so CI does not run it.
# The root is made in a temporary folder and removed afterwards (PSFSIM_KEEP_ROOT=1 keeps
# it). See docs/install.md.
set -euo pipefail

die() { echo "check-deb.sh: error: $*" >&2; exit 1; }

[[ $# -ge 1 ]] || die "usage: scripts/check-deb.sh PSFSIM_DEB [PSFSIM_CUDA_DEB] [PYTHON3_PSFSIM_DEB] [PSFSIM_DEV_DEB]"
[[ $(id -u) -eq 0 ]] || die "run as root (debootstrap and chroot)"
command -v debootstrap >/dev/null || die "debootstrap not found: apt-get install debootstrap"
command -v dpkg-deb >/dev/null || die "dpkg-deb not found (Debian package dpkg)"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
deb="" dev_deb="" cuda_deb="" python_deb=""
for f in "$@"; do
  [[ -f $f ]] || die "no such package: $f"
  f=$(realpath "$f")
  case $(dpkg-deb -f "$f" Package) in
    psfsim) deb=$f ;;
    psfsim-dev) dev_deb=$f ;;
    psfsim-cuda) cuda_deb=$f ;;
    python3-psfsim) python_deb=$f ;;
    *) die "$f is not one of psfsim's packages" ;;
  esac
done
[[ -n $deb ]] || die "the psfsim package is needed (the others depend on it or check it)"

# What the packages say of themselves, before any is installed: psfsim and its library need
# none of NVIDIA's libraries, and the plugin needs psfsim of its own version.
version=$(dpkg-deb -f "$deb" Version)
for f in "$deb" $dev_deb $python_deb; do
  if dpkg-deb -f "$f" Depends | grep -qiE 'cuda|nvidia|cufft|cudart'; then
    die "$(basename "$f") declares an NVIDIA dependency: $(dpkg-deb -f "$f" Depends)"
  fi
done
if [[ -n $cuda_deb ]]; then
  cuda_depends=$(dpkg-deb -f "$cuda_deb" Depends)
  [[ $cuda_depends == "psfsim (= $version)" ]] ||
    die "psfsim-cuda depends on '$cuda_depends', not 'psfsim (= $version)'"
  dpkg-deb -c "$cuda_deb" | grep -qE '\./usr/lib/([^/]+/)?psfsim/libpsfsim-cuda\.so$' ||
    die "psfsim-cuda holds no usr/lib/.../psfsim/libpsfsim-cuda.so"
fi

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
cp "$deb" $dev_deb $cuda_deb $python_deb "$root/check/"

echo "check-deb.sh: installing $(basename "$deb") and running it"
in_root "
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends /check/$(basename "$deb") >/dev/null
  dpkg-query -W -f='installed \${Package} \${Version}, depends: \${Depends}\n' psfsim
  if ldd /usr/bin/psfsim | grep -E 'libcu(dart|fft|blas)'; then
    echo 'psfsim links an NVIDIA library'; exit 1
  fi
  psfsim --version
  psfsim info
  psfsim run -c /usr/share/psfsim/configs/original-question.toml -o /tmp/original.h5
  ls -l /tmp/original.h5
"

if [[ -n $cuda_deb ]]; then
  echo "check-deb.sh: psfsim without $(basename "$cuda_deb")"
  in_root "
    psfsim info >/tmp/info.txt
    grep -F '[cuda] not usable: plugin libpsfsim-cuda.so not installed (package psfsim-cuda' \
      /tmp/info.txt
  "
  echo "check-deb.sh: installing $(basename "$cuda_deb") where no NVIDIA library is"
  in_root "
    apt-get install -y -qq --no-install-recommends /check/$(basename "$cuda_deb") >/dev/null
    dpkg-query -W -f='installed \${Package} \${Version}, depends: \${Depends}\n' psfsim-cuda
    plugin=\$(dpkg -L psfsim-cuda | grep '/psfsim/libpsfsim-cuda\.so\$')
    # What the plugin needs beyond NVIDIA's libraries, psfsim's dependencies brought in.
    ldd \"\$plugin\" >/tmp/ldd.txt || true
    if grep 'not found' /tmp/ldd.txt | grep -vE '^\s*libcu(dart|fft|blas)[^ ]* => not found'; then
      echo 'the plugin needs a library that is not NVIDIA'\''s and not installed'; exit 1
    fi
    psfsim info >/tmp/info.txt
    grep -F '[cuda] not usable: ' /tmp/info.txt
    grep -qE '^\[cuda\] not usable: plugin /usr/lib/.*/psfsim/libpsfsim-cuda\.so cannot be loaded: libcu(dart|fft)[^ ]* not found' \
      /tmp/info.txt || { echo 'psfsim info does not say why the cuda backend is unusable'; exit 1; }
    grep -qF '[cpu] usable' /tmp/info.txt
    if psfsim run --backend cuda --samples 16 -o /tmp/cuda.h5 2>/tmp/cuda.err; then
      echo '--backend cuda ran without NVIDIA libraries'; exit 1
    else
      code=\$?
    fi
    cat /tmp/cuda.err
    [[ \$code -eq 3 && \$(wc -l </tmp/cuda.err) -eq 1 && ! -e /tmp/cuda.h5 ]] ||
      { echo \"--backend cuda: exit \$code, not 3 with one line\"; exit 1; }
    psfsim run --samples 16 -o /tmp/auto.h5 2>&1 | grep -F '(backend cpu'
  "
fi

if [[ -n $python_deb ]]; then
  echo "check-deb.sh: installing $(basename "$python_deb") and computing a PSF in Python"
  in_root "
    apt-get install -y -qq --no-install-recommends /check/$(basename "$python_deb") >/dev/null
    dpkg-query -W -f='installed \${Package} \${Version}, depends: \${Depends}\n' python3-psfsim
    cd /tmp
    python3 -c 'import psfsim; f = psfsim.psf(samples=32, zernike={4: 0.1}); print(\"psfsim\", psfsim.__version__, \"frame\", f.shape, f.dtype, \"peak\", float(f.max()))'
  "
fi

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
