#!/bin/sh
# One batch of the twenty-second round (issue 24, branch model24): tools/murmuration_tune.py on the tuning seeds
# (1001-1003, 3 snapshots) for the configurations in CFG at one N, then tools/spacing_profile.sh, tools/rim_tail.py
# and tools/rim_tail.py --ratios on the states it left (its tune-* directory under WORK).
#   tools/model24_batch.sh LABEL N CFG WORK BIN     (BIN holds murmur and shape_tool)
set -eu
label=$1 n=$2 cfg=$3 work=$4 bin=$5
here=$(dirname "$0")
mkdir -p "$work/$label"
echo "## batch $label"
echo "# configurations:"
sed 's/^/#   /' "$cfg"
echo "# $label N=$n start $(date -u +%H:%M:%S) $(uptime)"
TMPDIR="$work/$label" /usr/bin/python3 "$here/murmuration_tune.py" --sizes "$n" --jobs 1 --config-file "$cfg" \
    --murmur "$bin/murmur" --tool "$bin/shape_tool"
echo "# $label end $(date -u +%H:%M:%S) $(uptime)"
td=$(ls -d "$work/$label"/tune-* | head -1)
names=$(sed 's/:.*//' "$cfg" | paste -sd' ' -)
echo "# profile"
while IFS= read -r c; do
    name=${c%%:*} kv=${c#*:}
    # shellcheck disable=SC2046
    sh "$here/spacing_profile.sh" "$td" "$name" "$n" $(echo "$kv" | tr ',' ' ') | grep -v seed
done < "$cfg"
echo "# rim_tail"
# shellcheck disable=SC2086
/usr/bin/python3 "$here/rim_tail.py" "$td" "$n" $names
echo "# rim_tail --ratios"
# shellcheck disable=SC2086
/usr/bin/python3 "$here/rim_tail.py" --ratios "$td" "$n" $names
