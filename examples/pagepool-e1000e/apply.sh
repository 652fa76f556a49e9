#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Fetch the e1000e source of the Debian 6.12 kernel that
# `./e1000e-pp run --debian-kernel 6.12` boots, and apply this series to it.
#
#   examples/pagepool-e1000e/apply.sh [OUT]        (default OUT: build/pagepool-e1000e)
#   examples/pagepool-e1000e/apply.sh --upto N     (only patches 0001..000N)
#
# The kernel release is the linux-image-amd64 of bookworm-backports (what
# scripts/e1000epp/image/user_kernel.py resolves for --debian-kernel 6.12); its
# source is Debian's linux-source-6.12 package of the same version, fetched
# with `apt-get download` (no root needed for that). Only the files the
# series touches are unpacked:
#
#   OUT/linux/drivers/net/ethernet/intel/e1000e      <- give this to --driver-src
#   OUT/linux/drivers/net/ethernet/intel/Kconfig
#   OUT/linux/Documentation/networking/device_drivers/ethernet/intel/e1000e.rst
#
# Then:
#   ./e1000e-pp run --debian-kernel 6.12 \
#       --driver-src build/pagepool-e1000e/linux/drivers/net/ethernet/intel/e1000e
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
upto=99
out=
while [ $# -gt 0 ]; do
	case "$1" in
	--upto) upto=$2; shift 2 ;;
	-h|--help) sed -n '3,22p' "$0"; exit 0 ;;
	*) out=$1; shift ;;
	esac
done
out=${out:-$top/build/pagepool-e1000e}

# The version of the backports kernel: "linux-image-amd64 | 6.12.95-1~bpo12+1 | ...".
ver=$(apt-cache madison linux-image-amd64 |
	awk -F'|' '$3 ~ /bookworm-backports/ { gsub(/ /, "", $2); print $2; exit }')
if [ -z "$ver" ]; then
	echo "apply.sh: apt knows no linux-image-amd64 in bookworm-backports;" \
	     "run ./e1000e-pp setup (it adds the suite) or apt-get update" >&2
	exit 1
fi

mkdir -p "$out"
deb="$out/linux-source-6.12_${ver}_all.deb"
if [ ! -f "$deb" ]; then
	echo "apply.sh: fetching linux-source-6.12=$ver"
	(cd "$out" && apt-get download "linux-source-6.12=$ver")
	mv "$out"/linux-source-6.12_*_all.deb "$deb" 2>/dev/null || true
fi

src="$out/linux"
rm -rf "$src" "$out/unpack"
mkdir -p "$out/unpack"
dpkg-deb --fsys-tarfile "$deb" |
	tar -x -C "$out/unpack" ./usr/src/linux-source-6.12.tar.xz
mkdir -p "$src"
xz -dc "$out/unpack/usr/src/linux-source-6.12.tar.xz" |
	tar -x -C "$src" --strip-components=1 \
		linux-source-6.12/drivers/net/ethernet/intel/e1000e \
		linux-source-6.12/drivers/net/ethernet/intel/Kconfig \
		linux-source-6.12/Documentation/networking/device_drivers/ethernet/intel/e1000e.rst
rm -rf "$out/unpack"

n=0
for p in "$here"/0*.patch; do
	n=$((n + 1))
	[ "$n" -le "$upto" ] || break
	echo "apply.sh: $(basename "$p")"
	patch -d "$src" -p1 --quiet --no-backup-if-mismatch < "$p"
done
echo "$ver" > "$out/VERSION"
echo "apply.sh: Debian linux-source-6.12 $ver + $((n < upto ? n : upto)) patches in $src"
echo "apply.sh: --driver-src $src/drivers/net/ethernet/intel/e1000e"
