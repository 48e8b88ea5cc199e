/* The frame's CPU split, a measuring switch (MURMUR_FRAME_CPU=1; docs/performance/rounds.md, "The viewer's
 * fixed frame cost"): the window marks the end of each part of its frame (the loop's own work, the
 * dusk sky, the silhouette, the meshes, the points, the rest of the birds, the overlays, the HUD, the
 * swap); each mark waits for GL
 * (glFinish: llvmpipe's rasteriser threads done) and charges the process's CPU time since the
 * previous mark, every thread's, to the part just ended. At exit one line gives each part's mean CPU
 * ms per frame. Off (the default) a mark is one branch. GL thread only.
 */
#ifndef MUR_GFX_FRAME_CPU_H
#define MUR_GFX_FRAME_CPU_H

typedef enum mur_frame_part {
    MUR_PART_LOOP,     /* inputs, the upload, the camera: from the last swap to the draw */
    MUR_PART_CLEAR,    /* the frame's clear and set-up */
    MUR_PART_SKY,      /* the sky and land (dusk), or the ground and grid (studio) */
    MUR_PART_HORIZON,  /* the silhouette (dusk) */
    MUR_PART_MESHES,   /* the birds drawn as meshes (full and lean) */
    MUR_PART_POINTS,   /* the points: the CPU's splat, or GL points */
    MUR_PART_BIRDS,    /* the predators and the falcon (and the studio's shadows and sky) */
    MUR_PART_OVERLAYS, /* the box, goal and axes */
    MUR_PART_HUD,      /* the HUD text, the panel, the help */
    MUR_PART_SWAP,     /* the swap */
    MUR_PART_COUNT
} mur_frame_part;

/// True when MURMUR_FRAME_CPU=1 (read once).
int mur_frame_cpu_on(void);
/// The part that ends here: wait for GL and charge it the CPU time since the last mark.
void mur_frame_cpu_mark(mur_frame_part part);
/// One frame done (after its swap's mark): frames counted from the second one.
void mur_frame_cpu_frame(void);
/// The line `frame_cpu: frames=N loop=... swap=... total=...` (mean CPU ms per frame) to stderr.
void mur_frame_cpu_report(void);

#endif
