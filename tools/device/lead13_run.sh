#!/bin/bash
# Device side of the lead's session-13 run, from the repository root with .dev13/ carried
# (tools/device/lead13_pack.sh). Jobs: M=1 runs model13's configurations (tools/device_tune.sh, tuning
# seeds) at $MSIZES with PAR=$MPAR; R=1 runs react14's tools/device/react14.sh beside it. Each job's
# output is packed into one tarball under $OUT (the device returns at most 8 files).
real=$OUT; nproc; uptime
if [ "${M:-0}" = 1 ]; then
  ( cd .dev13/model13 && mkdir -p /tmp/mo && OUT=/tmp/mo SIZES=${MSIZES:-500,2000,8000,20000,32000} \
      PAR=${MPAR:-6} LIMIT=${MLIMIT:-400} CONFIGS=tools/device/model13.conf bash tools/device_tune.sh \
      > /tmp/mo/driver.txt 2>&1; tar czf $real/model13.tgz -C /tmp mo; echo "model13 done $(date +%T)" ) &
fi
if [ "${R:-0}" = 1 ]; then
  ( cd .dev13/react14 && mkdir -p /tmp/ro && OUT=/tmp/ro bash tools/device/react14.sh > /tmp/ro/driver.txt 2>&1;
    tar czf $real/react14.tgz -C /tmp ro; echo "react14 done $(date +%T)" ) &
fi
wait; uptime; tail -3 /tmp/mo/driver.txt /tmp/ro/driver.txt 2>/dev/null
