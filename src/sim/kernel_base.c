/* The neighbour kernel on SSE (x86-64's baseline) or plain vectors elsewhere: 4 lanes (kernel_body.h).
 * Its functions: mur_scan_boid_base, mur_scan_boid_lean_base. */
#include "kernel_impl.h"

#define KERNEL_SCAN mur_scan_boid_base
#define KERNEL_SCAN_LEAN mur_scan_boid_lean_base
#define KW 4
#define KATTR
#define KMIN KMIN_BASE
#define KMASK KMASK_AND
#define MADD MADD_AND
#define MSUB MSUB_AND
#include "kernel_body.h"
