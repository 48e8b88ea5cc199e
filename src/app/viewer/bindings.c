/* The viewer's bindings: ONE table of keys (and the mouse gestures, for the help) with the help
 * text and the command of each (commands.h, by name). It drives the key handler, the help overlay (H) and the generated
 * key and mouse tables of docs/controls.md (murmur --list-keys=markdown). */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <stdio.h>
#include <string.h>

#include "bindings.h"
#include "commands.h"
#include "viewer.h"
#include "viewer_main.h"

/* ------------------------------------------------------------------ the table */

#define K(...) {__VA_ARGS__, 0}
static const viewer_binding BINDINGS[] = {
    {K(GLFW_KEY_SPACE), 0, false, "Space", "pause / resume the simulation", NULL, VIEWER_CMD_PAUSE},
    {K(GLFW_KEY_PERIOD), 0, true, ".", "one tick (while paused)", "pauses first if running; repeats while held",
     VIEWER_CMD_STEP},
    {K(GLFW_KEY_LEFT_BRACKET, GLFW_KEY_RIGHT_BRACKET), 0, false, "[  ]", "simulation slower / faster",
     "half / twice as fast, x1/64 .. x16 of real time", VIEWER_CMD_SPEED},
    {K(GLFW_KEY_P), 0, false, "P", "perching on / off", "off releases every perched boid", VIEWER_CMD_SWITCH},
    {K(GLFW_KEY_K), 0, false, "K", "predators on / off (adds 3 if there are none)",
     "off hides them and on restores them", VIEWER_CMD_PREDATORS},
    {K(GLFW_KEY_X), 0, false, "X", "hold: the cursor is a predator",
     "one more predator, placed every frame where the cursor's ray meets the plane of the camera's target; "
     "boids flee it; released, it is removed (in a `--keys` script X toggles it)",
     VIEWER_CMD_MOUSE_PREDATOR},
    {K(GLFW_KEY_G), 0, false, "G", "goal on / off", "the goal is a yellow cross with a ring on the ground below it",
     VIEWER_CMD_SWITCH},
    {K(0), 0, false, "click", "on a bird: select it; on the ground: move the goal there (and turn it on)",
     "a left click without a drag, within 12 pixels of a bird: the neighbours its rules use (within `view_radius`, "
     "inside the view cone; in topological mode the `topo_k` nearest of those) get cyan marks, its view radius a dotted ring, its heading a dotted line, its view cone four "
     "dotted edges, and its speed "
     "and neighbour count show next to it (scripted: `--keys \"5:Click@XxY\"`); elsewhere on the ground the "
     "goal moves there, keeping its height, and the selection ends", VIEWER_CMD_NONE},
    {K(GLFW_KEY_W), 0, false, "W", "wind on / off", "blows with `wind_vel`", VIEWER_CMD_SWITCH},
    {K(GLFW_KEY_Z), GLFW_MOD_SHIFT, false, "Shift+Z", "tint the birds escaping from the falcon on / off",
     "off by default: the wave shows through the birds' rolling, as in the field; on: magenta (studio), dark red (dusk)",
     VIEWER_CMD_SHOW},
    {K(GLFW_KEY_Z), 0, false, "Z", "falcon on / off", "a falcon attacks the flock again and again; birds escape and copy their neighbours' escapes (docs/falcon.md)", VIEWER_CMD_SWITCH},
    {K(GLFW_KEY_S), 0, false, "S", "scatter on / off", "negated cohesion", VIEWER_CMD_SWITCH},
    {K(GLFW_KEY_L), 0, false, "L", "look: dusk / studio",
     "dark birds against an evening sky, or lit coloured birds over a grid (the `look` parameter)", VIEWER_CMD_SWITCH},
    {K(GLFW_KEY_N), 0, false, "N", "next preset: classic > starling > vision-report",
     "sets that preset's parameters and boid count live; the boids fly on from where they are, brought into its world", VIEWER_CMD_PRESET},
    {K(GLFW_KEY_B), 0, false, "B", "bounds mode: soft > wrap > bounce > none", "and back to soft", VIEWER_CMD_BOUNDS},
    {K(GLFW_KEY_A), 0, false, "A", "view cone on / off (360 deg = all round)",
     "back to the previous angle, 270 if there was none", VIEWER_CMD_CONE},
    {K(GLFW_KEY_EQUAL, GLFW_KEY_MINUS, GLFW_KEY_KP_ADD, GLFW_KEY_KP_SUBTRACT), 0, false, "=  -",
     "boids x2 / /2 (also keypad + -)", "without a restart; new boids start at seeded random places", VIEWER_CMD_BOIDS},
    {K(GLFW_KEY_R), 0, false, "R", "reset: new boids from a new seed",
     "same counts and parameters; the seed is shown in the HUD", VIEWER_CMD_RESET},
    {K(GLFW_KEY_UP, GLFW_KEY_DOWN), 0, true, "Up  Down", "select a parameter",
     "a live one from the library's parameter table, shown in the HUD", VIEWER_CMD_SELECT},
    {K(GLFW_KEY_LEFT, GLFW_KEY_RIGHT), 0, true, "Left  Right", "decrease / increase it (Shift: bigger steps)",
     "floats by a factor 1.1 (Shift: 2), whole numbers by 10% (at least 1); the library checks the value",
     VIEWER_CMD_NUDGE},
    {K(GLFW_KEY_C), 0, false, "C", "colour by state / by speed",
     "state: flying amber, perching green, predators red; speed: blue slow .. red fast", VIEWER_CMD_SHOW},
    {K(GLFW_KEY_O), 0, false, "O", "world box outline on / off", NULL, VIEWER_CMD_SHOW},
    {K(GLFW_KEY_F), GLFW_MOD_SHIFT, false, "Shift+F", "camera follows the falcon and the biggest group together",
     "frames both while the falcon attacks (the flock alone while it retreats, waits or is off); F: the flock only", VIEWER_CMD_CAMERA},
    {K(GLFW_KEY_F), 0, false, "F", "camera follows the biggest group, framed by its size",
     "the wheel zooms relative to that framing; panning stops following", VIEWER_CMD_CAMERA},
    {K(GLFW_KEY_I), 0, false, "I", "print and copy the camera as flags",
     "`--camera-pos X,Y,Z --look-at X,Y,Z --fov DEG` on stdout and in the clipboard: the same view again "
     "with `murmur ... FLAGS`",
     VIEWER_CMD_CAMERA},
    {K(GLFW_KEY_J), 0, false, "J", "watch the selected bird > ride behind it > off",
     "watching: the camera's target follows it, orbit and zoom work around it; riding: the camera flies a "
     "few body lengths behind and above it, looking ahead; a click away from birds also stops", VIEWER_CMD_CAMERA},
    {K(GLFW_KEY_T), 0, false, "T", "trails: off > the selected bird > a sample of 24 birds",
     "fading paths of the last 90 frames (Y changes the length)", VIEWER_CMD_CAMERA},
    {K(GLFW_KEY_Y), 0, false, "Y", "trails longer: twice as long, 45 to 1800 frames, then 45 again",
     "1800 frames is a minute at 30 fps", VIEWER_CMD_CAMERA},
    {K(GLFW_KEY_HOME), 0, false, "Home", "reset the view", "also stops following", VIEWER_CMD_CAMERA},
    {K(0), 0, false, "left drag", "orbit", "the latitude stops short of the poles", VIEWER_CMD_NONE},
    {K(0), 0, false, "right drag", "pan (or Shift + left drag)", "the middle button pans too", VIEWER_CMD_NONE},
    {K(0), 0, false, "wheel", "zoom", "each notch moves 12% of the distance, so it feels the same near and far",
     VIEWER_CMD_NONE},
    {K(GLFW_KEY_TAB), 0, false, "Tab", "hide / show the HUD and the parameter panel", NULL, VIEWER_CMD_SHOW},
    {K(GLFW_KEY_U), 0, false, "U", "HUD: minimal / full",
     "minimal (the default): the preset, the bird count and the speed on one line; full: frame and "
     "simulation timings, the flock's metrics and the toggles", VIEWER_CMD_SHOW},
    {K(GLFW_KEY_E), 0, false, "E", "parameter panel on / off (mouse: sliders, toggles, presets, counts, pause, speed)",
     "every live parameter from the library's table with its unit, range and meaning as a tooltip; hidden "
     "at start (a hint names the key); never drawn into a recording; needs Dear ImGui (libimgui-dev) at "
     "build time",
     VIEWER_CMD_SHOW},
    {K(GLFW_KEY_M), 0, false, "M", "live plots of the last simulated minute: diameter, polarisation, neighbours, groups, perching",
     "of simulated time, sampled every 0.25 simulated seconds (scripted runs reproduce), each graph scaled "
     "to its own maximum", VIEWER_CMD_SHOW},
    {K(GLFW_KEY_D), 0, false, "D", "principal axes of the biggest group on / off (thin magenta, mid green, long cyan)",
     "lines through the group's centre along its principal axes, as long as its extents (2 sqrt(3 lambda) of the "
     "position covariance); the HUD gives the extents' ratios, the thin axis' angle to vertical and the "
     "group's polarisation (docs/murmuration.md compares them with starling flocks)", VIEWER_CMD_SHOW},
    {K(GLFW_KEY_H, GLFW_KEY_F1), 0, false, "H  F1", "this help", NULL, VIEWER_CMD_SHOW},
    {K(GLFW_KEY_F12), 0, false, "F12", "save a screenshot (PNG, timestamped name)",
     "`murmur-YYYYMMDD-HHMMSS-NNN.png` in the current folder; the path is printed", VIEWER_CMD_REQUEST},
    {K(GLFW_KEY_V), 0, false, "V", "start / stop recording a video (timestamped name, no HUD)",
     "`murmur-YYYYMMDD-HHMMSS.mp4`, or PNG frames in a folder of that name without ffmpeg; each frame "
     "plays at the flock's real pace (`--speed 1`) unless `--speed` or `--ticks-per-frame` say otherwise; a red REC mark "
     "with the video time and frame count shows in the window, never in the video; the HUD only with "
     "`--hud on` (see [recording.md](recording.md))",
     VIEWER_CMD_REQUEST},
    {K(GLFW_KEY_ESCAPE, GLFW_KEY_Q), 0, false, "Esc  Q", "quit", NULL, VIEWER_CMD_REQUEST},
};
#undef K

const viewer_binding *viewer_bindings(int *count)
{
    *count = (int)(sizeof BINDINGS / sizeof BINDINGS[0]);
    return BINDINGS;
}

/* The binding of a key with these modifiers held: the first row with the key whose required
 * modifiers are all held. */
static const viewer_binding *binding_of(int key, int mods)
{
    for (size_t i = 0; i < sizeof BINDINGS / sizeof BINDINGS[0]; i++) {
        const viewer_binding *b = &BINDINGS[i];
        if (b->cmd == VIEWER_CMD_NONE || (mods & b->mods) != b->mods)
            continue;
        for (const int *k = b->keys; *k; k++)
            if (*k == key)
                return b;
    }
    return NULL;
}

bool viewer_key(viewer *v, int key, int mods, bool repeat)
{
    const viewer_binding *b = binding_of(key, mods);
    if (repeat && !(b && b->repeat))
        return false;
    if (b)
        viewer_command(v, b->cmd, key, mods);
    return true; /* the loop uploads the state again even without a tick (paused) */
}

/* ------------------------------------------------------------------ murmur --list-keys */

/* "H  F1" -> "`H`, `F1`" for keys; mouse gestures stay plain words */
static void print_label(const viewer_binding *b)
{
    if (b->cmd == VIEWER_CMD_NONE) {
        fputs(b->label, stdout);
        return;
    }
    const char *p = b->label;
    bool first = true;
    while (*p) {
        const char *end = strstr(p, "  ");
        size_t n = end ? (size_t)(end - p) : strlen(p);
        printf("%s`%.*s`", first ? "" : ", ", (int)n, p);
        first = false;
        p += n;
        while (*p == ' ')
            p++;
    }
}

static void print_table(bool keys)
{
    int n;
    const viewer_binding *b = viewer_bindings(&n);
    printf("| %s | action |\n| --- | --- |\n", keys ? "key" : "input");
    for (int i = 0; i < n; i++) {
        if ((b[i].cmd != VIEWER_CMD_NONE) != keys)
            continue;
        fputs("| ", stdout);
        print_label(&b[i]);
        printf(" | %s%s%s |\n", b[i].help, b[i].detail ? "; " : "", b[i].detail ? b[i].detail : "");
    }
}

void mur_bindings_print(bool markdown)
{
    if (markdown) {
        puts("<!-- generated by `murmur --list-keys=markdown` from the viewer's binding table (src/app/viewer/bindings.c);\n"
             "     tests/docs_test.py fails when this part is stale and rewrites it with --update -->\n"
             "## Keys\n");
        print_table(true);
        puts("\n## Mouse\n");
        print_table(false);
        puts("<!-- end of the generated part -->");
        return;
    }
    int n;
    const viewer_binding *b = viewer_bindings(&n);
    for (int i = 0; i < n; i++)
        printf("%-12s %s\n", b[i].label, b[i].help);
}
