/* Test helper: print where the viewer's default camera (or --camera-pos E --look-at AT) puts world
 * points.
 * usage: render_project WxH minx,miny,minz maxx,maxy,maxz [--eye E AT] x,y,z [x,y,z ...]
 * prints "px py" per point (pixels from the top-left), or "behind" if it is not in view. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"

static int vec(const char *s, float v[3])
{
    return sscanf(s, "%f,%f,%f", &v[0], &v[1], &v[2]) == 3;
}

int main(int argc, char **argv)
{
    int w, h;
    float lo[3], hi[3];
    if (argc < 5 || sscanf(argv[1], "%dx%d", &w, &h) != 2 || !vec(argv[2], lo) || !vec(argv[3], hi)) {
        fprintf(stderr, "usage: %s WxH min max point...\n", argv[0]);
        return 2;
    }
    mur_camera c;
    mur_camera_init(&c, lo, hi, (float)w / (float)h);
    mur_camera_snap(&c);
    int first = 4;
    if (argc > 6 && strcmp(argv[4], "--eye") == 0) {
        float eye[3], at[3];
        if (!vec(argv[5], eye) || !vec(argv[6], at)) {
            fprintf(stderr, "bad --eye\n");
            return 2;
        }
        mur_camera_look(&c, eye, at);
        first = 7;
    }
    for (int i = first; i < argc; i++) {
        float p[3], px[2];
        if (!vec(argv[i], p)) {
            fprintf(stderr, "bad point %s\n", argv[i]);
            return 2;
        }
        if (mur_camera_project(&c, p, w, h, px))
            printf("%.3f %.3f\n", (double)px[0], (double)px[1]);
        else
            printf("behind\n");
    }
    return 0;
}
