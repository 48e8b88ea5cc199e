#!/bin/sh
# The nearest neighbour by depth (tools/layer_probe.py's q1..q5 of the border rule's rho) on the states a
# tools/murmuration_tune.py run left behind (its /tmp/tune-*/NAME/starling-N-SEED.csv: the last snapshot,
# tick settle + (snaps - 1) * every), so the profile is measured on the tuning line's own flocks
# (issue 24, twentieth round, branch model22).
#   tools/spacing_profile.sh TUNE_DIR NAME N [k=v ...]     (the k=v: the configuration's --set pairs)
set -eu
dir=$1 name=$2 n=$3
shift 3
st=$(mktemp -d)
for f in "$dir/$name"/starling-"$n"-*.csv; do
    case $f in *.metrics.csv|*.next.csv) continue ;; esac
    seed=${f##*-}; seed=${seed%.csv}
    ln -s "$f" "$st/${n}_$seed.csv"
done
seeds=$(ls "$st" | sed 's/.*_//; s/\.csv//' | sort -n | paste -sd, -)
sets=""
for kv in "$@"; do sets="$sets --set $kv"; done
# shellcheck disable=SC2086
out=$(/usr/bin/python3 "$(dirname "$0")/layer_probe.py" --sizes "$n" --seeds "$seeds" --states "$st" $sets)
rm -rf "$st"
echo "$out" | awk -v name="$name" -v n="$n" '
  $2 == "mean" { printf "%-10s N=%-6d NN q1..q5 (m):", name, n; for (q = 0; q < 5; q++) printf " %.2f", $(3 + 9 * q);
                 printf "  q5/q1 %.3f\n", $(3 + 36) / $3 }
  $2 ~ /^[0-9]+$/ && NF > 20 { printf "%-10s N=%-6d seed %s NN q1 %.2f q5 %.2f\n", name, n, $2, $11, $(11 + 36) }'
