/* The presets: named sets of parameters applied on top of the classic defaults. One row per preset;
 * --preset, "preset = NAME" in parameter files and --list-presets all read this table. A table only:
 * applying a preset (mur_def_preset) is the parameter parser's work, in params.c. */
#include <stddef.h>

#include "murmur/murmur.h"

typedef struct preset {
    const char *name;
    const char *summary;
    const char *settings;   ///< "name=value" lines on top of mur_flock_default_def()
} preset;

static const preset PRESETS[] = {
    {"classic", "Reynolds/Parker boids in a soft-walled box (the library defaults)", ""},
    {"starling",
     "starling murmuration after StarDisplay (Hemelrijk & Hildenbrandt 2011): topological neighbours, "
     "cruise speed held by thrust (weak surge), weak pitch along the rolled up axis, banking with bank alignment, "
     "a roost that turns birds back gently, "
     "weak altitude control, ground avoidance, separation from the "
     "closest neighbour, centrality-weighted cohesion ramp, hard sphere (docs/murmuration-model.md)",
     "boids=2000\n"
     "dt=0.02\n"
     "neighbours=topological\n"
     "topo_k=6.5\n"
     "view_radius=10\n"
     "view_angle=300\n"
     "steer_unit=on\n"
     "cohesion=6\n"
     "alignment=12.5\n"
     "separation=20\n"
     "separation_radius=2\n"
     "separation_nearest=1\n"
     "cohesion_near=0.5\n"
     "cohesion_far=3\n"
     "centrality=2\n"
     "pitch=0.03\n"
     "surge=0.6\n"
     "lift=on\n"
     "hard_radius=0.2\n"
     "min_speed=2\n"
     "max_speed=30\n"
     "cruise_speed=10\n"
     "speed_tau=2\n"
     "bounds=none\n"
     "world_min=-20,35,-20\n"
     "world_max=20,45,20\n"
     "roost=on\n"
     "roost_pos=0,40,0\n"
     "roost_radius=60\n"
     "roost_weight=0.25\n"
     "roost_vertical=0.0625\n"
     "ground_avoid=10\n"
     "bank=on\n"
     "bank_rate=10\n"
     "bank_align=5\n"
     "max_turn=120\n"
     "look=dusk\n"},
    {"vision-report",
     "the vision-distance report's setting with Dvis = 10 (docs/experiments.md, run 'dvis10')",
     "boids=100\n"
     "dt=0.05\n"
     "view_radius=10\n"
     "view_angle=360\n"
     "cohesion=1.5\n"
     "alignment=0.8\n"
     "separation=80\n"
     "separation_radius=1\n"
     "min_speed=0\n"
     "max_speed=10\n"
     "steer_unit=on\n"
     "plane=on\n"
     "bounds=soft\n"
     "world_min=0,-1,0\n"
     "world_max=200,1,200\n"
     "bounds_margin=10\n"
     "bounds_turn=20\n"},
};
#define NPRESETS ((int)(sizeof PRESETS / sizeof PRESETS[0]))

int mur_preset_count(void) { return NPRESETS; }

const char *mur_preset_name(int i) { return i >= 0 && i < NPRESETS ? PRESETS[i].name : NULL; }

const char *mur_preset_summary(int i) { return i >= 0 && i < NPRESETS ? PRESETS[i].summary : NULL; }

const char *mur_preset_settings(int i) { return i >= 0 && i < NPRESETS ? PRESETS[i].settings : NULL; }
