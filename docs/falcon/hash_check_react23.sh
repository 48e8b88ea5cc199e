#!/bin/bash
# Round 21 (branch react23): escape_spread_radius 0 keeps the bits. tools/falcon_hash_check.sh with main aed057c's
# build and this branch's, then react22's spread cases (escape_spread on) with main's build, this branch's with the
# default and with escape_spread_radius=0 given, and with escape_spread_radius=20 (= escape_radius) given.
# usage: docs/falcon/hash_check_react23.sh MAIN_MURMUR BRANCH_MURMUR OUT_DIR
set -eu
main=$1; br=$2; out=$3
here=$(dirname "$0"); root=$here/../..
date -u +%H:%M:%S; cut -d' ' -f1-3 /proc/loadavg
"$root/tools/falcon_hash_check.sh" "$main" "$out/main" > "$out/main.txt"
"$root/tools/falcon_hash_check.sh" "$br" "$out/branch" > "$out/branch.txt"
echo "falcon_hash_check: $(diff -q "$out/main.txt" "$out/branch.txt" >/dev/null && echo same || echo DIFFER) ($(wc -l < "$out/main.txt") runs)"
"$here/spread_hash_check_react22.sh" "$main" "$out/sp_main" > "$out/sp_main.txt"
"$here/spread_hash_check_react22.sh" "$br" "$out/sp_br" > "$out/sp_br.txt"
"$here/spread_hash_check_react22.sh" "$br" "$out/sp_br0" --set escape_spread_radius=0 > "$out/sp_br0.txt"
"$here/spread_hash_check_react22.sh" "$br" "$out/sp_br20" --set escape_spread_radius=20 > "$out/sp_br20.txt"
for t in sp_br sp_br0 sp_br20; do
    echo "spread cases, main against $t: $(diff -q "$out/sp_main.txt" "$out/$t.txt" >/dev/null && echo same || echo DIFFER) ($(wc -l < "$out/$t.txt") runs)"
done
cat "$out/main.txt" "$out/sp_main.txt"
date -u +%H:%M:%S; cut -d' ' -f1-3 /proc/loadavg
