#!/bin/bash
# Host side of the lead's session-13 device run: copies each named helper branch's files (its tip, no
# PNGs or perf data) and its binaries (as tools/device_pack.sh does) under .dev13/NAME/, which
# .git/info/exclude ignores and the device call carries. Usage: tools/device/lead13_pack.sh NAME...
set -e
grep -qx '/.dev13/' .git/info/exclude || echo /.dev13/ >> .git/info/exclude
rm -rf .dev13 && mkdir -p .dev13
for n in "$@"; do
  wt=/work/wt-$n
  mkdir -p .dev13/$n
  git -C $wt archive HEAD | tar -x -C .dev13/$n --exclude='*.png' --exclude='docs/perf_data'
  mkdir -p .dev13/$n/.gpu/lib
  cp $wt/build-test/src/app/murmur $wt/build-test/tests/shape_tool .dev13/$n/.gpu/
  for f in $wt/build-test/src/app/murmur $wt/build-test/tests/shape_tool; do ldd $f | awk '/=> \// {print $3}'; done | sort -u |
    grep -v -E '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' | xargs -I{} cp -L {} .dev13/$n/.gpu/lib/
  echo "$n $(git -C $wt rev-parse --short HEAD) $(du -sh .dev13/$n | cut -f1)"
done
du -sh .dev13
