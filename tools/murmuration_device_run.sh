#!/bin/bash
# issue 24's reporting run (docs/murmuration/run.py) on a machine with many cores (the lent GPU machine:
# 16), run from the repository root with the binaries copied to .gpu/ (murmur, shape_tool, .gpu/lib/ the
# shared libraries murmur needs); rows come back under $OUT/small and $OUT/big.
# two runs side by side (500-20000 and 32000) so one that runs long does not cost the other.
export LD_LIBRARY_PATH=$PWD/.gpu/lib PYTHONUNBUFFERED=1
nproc; uptime; python3 -c "import numpy, scipy; print(numpy.__version__, scipy.__version__)"
.gpu/murmur --boids 1500 --steps 300 --export /tmp/h.csv >/dev/null 2>&1; grep -v "^#" /tmp/h.csv | md5sum
start=$(date +%s)
for s in small big; do
  if [ $s = small ]; then sz=500,2000,8000,20000; j=12; else sz=32000; j=5; fi
  mkdir -p $OUT/$s
  ( timeout ${LIMIT:-540} python3 docs/murmuration/run.py --murmur .gpu/murmur --tool .gpu/shape_tool \
      --sizes $sz --jobs $j --out /tmp/$s --doc /tmp/$s/page.md > $OUT/$s/log.txt 2>&1
    echo "$s rc $? after $(( $(date +%s) - start )) s"
    cp /tmp/$s/data/rows.csv $OUT/$s/ 2>/dev/null ) &
done
wait; uptime
tail -5 $OUT/*/log.txt
