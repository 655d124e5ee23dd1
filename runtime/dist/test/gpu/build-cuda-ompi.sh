#!/usr/bin/env bash
# build-cuda-ompi.sh - builds a CUDA-aware Open MPI for the cuda-mpi transport
# and packs it as ompi-cuda.tar.xz beside this script (ignored by git), for
# mpi-env.sh to unpack and use on the GPU machine (docs/distributed.md, "Open
# MPI on the GPU machine"). Needs no GPU: only the CUDA toolkit's cuda.h
# (CUDA, default /usr/local/cuda); Open MPI opens libcuda.so.1 at run time.
#
# The source is Debian bookworm's own openmpi source package (4.1.4, the
# upstream version of the installed libopenmpi3, so programs linked here
# against Debian's libmpi.so.40 run against it unchanged), fetched with
# `apt-get source` from a deb-src line this script adds, without Debian's
# packaging patches (they rename directories and patch configure.ac; the
# shipped configure is upstream's). hwloc, libevent and PMIx are Open MPI's
# bundled copies, so the result needs nothing beyond glibc and zlib. Fortran,
# OpenSHMEM, the C++ bindings, ROMIO, man pages, static libraries and the
# network transports (verbs, UCX, libfabric, PSM) are left out.
#
# Run as root on Debian bookworm (apt). Idempotent: where the tarball exists
# it only says what it is (FORCE=1 rebuilds); a half-done build resumes. The
# work tree is $WORK (default /tmp/ompi-cuda-build), outside the repository.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tarball=$here/ompi-cuda.tar.xz
work=${WORK:-/tmp/ompi-cuda-build}
cuda=${CUDA:-/usr/local/cuda}
prefix=/opt/ompi-cuda # never installed there: staged with DESTDIR, moved with OPAL_PREFIX
version=4.1.4 # the upstream version of Debian bookworm's libopenmpi3
jobs=$(nproc)

describe() {
  echo "made: $tarball ($(du -h "$tarball" | cut -f1), $(stat -c %s "$tarball") bytes)"
  echo "  Open MPI $version from Debian's openmpi source package, configured with:"
  echo "    ./configure $(cat "$work/.configured" 2>/dev/null)"
  echo "  unpacked: $(tar -tJf "$tarball" | wc -l) entries; use: source mpi-env.sh beside it"
}

if [[ -f $tarball && -z ${FORCE:-} ]]; then
  describe
  exit 0
fi

# 1. The source, from Debian's archive only.
mkdir -p "$work"
if [[ ! -x $work/src/configure ]]; then
  if ! apt-get source --print-uris openmpi >/dev/null 2>&1; then
    cat >/etc/apt/sources.list.d/debian-bookworm-src.sources <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    apt-get update -q
  fi
  command -v dpkg-source >/dev/null || apt-get install -y -q dpkg-dev
  rm -rf "$work/dl" && mkdir -p "$work/dl"
  (cd "$work/dl" && apt-get source --download-only openmpi)
  rm -rf "$work/src.tmp"
  dpkg-source --skip-patches -x "$work/dl"/openmpi_*.dsc "$work/src.tmp"
  got=$(cd "$work/src.tmp" && . ./VERSION && echo "$major.$minor.$release")
  [[ $got == "$version" ]] || { echo "Debian's openmpi source is $got, not $version" >&2; exit 1; }
  mv "$work/src.tmp" "$work/src"
fi

# 2. Configure (again where the options changed), build, install into a
# staging directory.
config=(--prefix="$prefix" --with-cuda="$cuda"
  --enable-shared --disable-static --disable-mpi-fortran --disable-oshmem
  --disable-mpi-cxx --disable-mpi-java --disable-io-romio --disable-man-pages
  --with-hwloc=internal --with-libevent=internal --with-pmix=internal
  --without-verbs --without-ucx --without-ofi --without-psm --without-psm2
  --without-knem --without-xpmem --without-portals4 --without-ugni --without-usnic
  --without-slurm --without-tm --without-lsf --without-sge --without-alps
  --without-hcoll --without-fca --without-mxm
  --enable-mca-no-build=btl-openib,btl-uct,btl-usnic,btl-ofi,pml-ucx,pml-cm,osc-ucx,coll-hcoll,coll-fca,reachable-netlink)
cd "$work/src"
if [[ "$(cat "$work/.configured" 2>/dev/null)" != "${config[*]}" ]]; then
  rm -f "$work/.configured" "$work/.installed"
  ./configure "${config[@]}" >"$work/configure.log" 2>&1 || { tail -30 "$work/configure.log"; exit 1; }
  grep -q '^#define OPAL_CUDA_SUPPORT 1' opal/include/opal_config.h ||
    { echo "configure did not enable CUDA support (see $work/configure.log)" >&2; exit 1; }
  echo "${config[*]}" >"$work/.configured"
fi
if [[ ! -f $work/.installed ]]; then
  make -j"$jobs" >"$work/make.log" 2>&1 || { tail -40 "$work/make.log"; exit 1; }
  rm -rf "$work/stage"
  make install DESTDIR="$work/stage" >"$work/install.log" 2>&1 || { tail -40 "$work/install.log"; exit 1; }
  touch "$work/.installed"
fi

# 3. Trim, strip and pack the prefix's contents (paths relative to it).
root=$work/stage$prefix
rm -rf "$root/share/man" "$root/share/doc"
find "$root" -name '*.la' -delete
find "$root/bin" "$root/lib" -type f \( -perm -u+x -o -name '*.so*' \) -print0 |
  xargs -0 file | grep ELF | cut -d: -f1 | xargs strip --strip-unneeded
info=$(OPAL_PREFIX=$root LD_LIBRARY_PATH=$root/lib "$root/bin/ompi_info" --parsable --all)
for v in mpi opal; do # the relocated build says it has CUDA support
  grep -qx "mca:$v:base:param:${v}_built_with_cuda_support:value:true" <<<"$info" ||
    { echo "ompi_info: ${v}_built_with_cuda_support is not true" >&2; exit 1; }
done
tar -C "$root" -cf - . | xz -T"$jobs" -9 >"$tarball.tmp"
mv "$tarball.tmp" "$tarball"
describe
