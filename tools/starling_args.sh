# Shared by tools/starling_cg.sh, starling_cg_threads.sh, starling_perf.sh and order_cachesim.sh
# (sourced, not run): their options --n N, --ticks T, --threads K and --scenario S (the caller sets
# the defaults in n, ticks, thr and sc first), read from the caller's arguments up to the first build
# folder, and
# starling_cache_state BUILD: the bench's settled state made natively once (settling it under
# callgrind or perf would take hours), when the scenario is starling-settled.
while [ $# -gt 0 ]; do
  case $1 in
    --n) n=$2; shift 2 ;;
    --ticks) ticks=$2; shift 2 ;;
    --threads) thr=$2; shift 2 ;;
    --scenario) sc=$2; shift 2 ;;
    *) break ;;
  esac
done

starling_cache_state() {
  [ "$sc" = starling-settled ] || return 0
  "$1/tests/bench/murmur-bench" --scenario "$sc" --n "$n" --threads 1 --ticks 1 --repeats 1 \
    --reference off >/dev/null 2>&1
}
