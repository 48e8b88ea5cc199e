/* The 8-lane AVX2 twin of topo_batch.c's vector part (mur_topo_batch_run_avx2): the same source,
 * compiled with W = 8 under target("avx2") (no FMA), so per lane the same IEEE operations in the same
 * order as the 4-lane SSE path and the scalar mur_rules_update, the same bits. mur_topo_batch_run
 * (topo_batch.c) calls it where the kernel path is AVX2 or AVX-512. */
#include "kernel.h"

#ifdef MUR_X86_PATHS
#define TOPO_BATCH_AVX2 1
#include "topo_batch.c"
#else
typedef int mur_topo_batch_avx2_absent; /* not an x86-64 gcc build: no such path (ISO C wants a declaration) */
#endif
