#!/bin/bash
# Tuning runs (tools/murmuration_tune.py, TUNING seeds only) on a machine with many cores (the lent GPU
# machine: 16), from the repository root with the binaries copied to .gpu/ (murmur, shape_tool, and
# .gpu/lib/ the shared libraries murmur needs: tools/device_pack.sh). One process per (configuration,
# size), largest sizes first, so a run cut off by its limit still returns the lines that finished.
#   CONFIGS=file (one NAME:k=v,... per line)  SIZES=500,2000,8000,20000  SEEDS=1001,1002,1003  SNAPS=6
#   PY=python3 (with numpy and scipy); SETTLE=2500 ticks; PAR=6 processes side by side, each with 3 jobs (one per seed); lines under $OUT/tune/.
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONUNBUFFERED=1
nproc; uptime; ${PY:-python3} -c "import numpy, scipy; print('numpy', numpy.__version__, 'scipy', scipy.__version__)"
mkdir -p "$OUT/tune"
start=$(date +%s)
for n in $(echo "${SIZES:-500,2000,8000,20000}" | tr ',' '\n' | sort -rn); do
  grep -v '^#' "${CONFIGS:?}" | grep . | while read -r c; do echo "$n $c"; done
done | xargs -P "${PAR:-6}" -L 1 bash -c 'n=$0; c=$1; name=${c%%:*};
  timeout ${LIMIT:-500} ${PY:-python3} tools/murmuration_tune.py --murmur .gpu/murmur --tool .gpu/shape_tool \
    --sizes $n --seeds ${SEEDS:-1001,1002,1003} --snaps ${SNAPS:-6} --settle ${SETTLE:-2500} --jobs 3 --config "$c" \
    > $OUT/tune/${name}_$n.txt 2>&1; echo "$name N=$n rc $? at $(( $(date +%s) - '$start' )) s"'
uptime; cat $OUT/tune/*.txt | grep "N=" | sort
