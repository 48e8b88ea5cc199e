#!/bin/bash
# Copies a build's murmur and shape_tool into .gpu/ with the shared libraries they need that are not
# glibc's (.gpu/lib), for tools/device_tune.sh and tools/murmuration_device_run.sh on the lent machine.
# Usage: tools/device_pack.sh [BUILD_DIR]   (.gpu/ is ignored by git through .git/info/exclude)
set -e
b=${1:-build-test}
rm -rf .gpu && mkdir -p .gpu/lib
cp "$b/src/app/murmur" "$b/tests/shape_tool" .gpu/
for f in "$b/src/app/murmur" "$b/tests/shape_tool"; do
  ldd "$f" | awk '/=> \// {print $3}'
done | sort -u | grep -v -E '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' | xargs -I{} cp -L {} .gpu/lib/
grep -qx '/.gpu/' .git/info/exclude 2>/dev/null || { mkdir -p .git/info; echo /.gpu/ >> .git/info/exclude; }
du -sh .gpu
