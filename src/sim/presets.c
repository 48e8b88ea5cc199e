/* The presets: named sets of parameters applied on top of the classic defaults. One row per preset;
 * --preset, "preset = NAME" in parameter files and --list-presets all read this table. */
#include <stdio.h>
#include <string.h>

#include "core.h"

typedef struct preset {
    const char *name;
    const char *summary;
    const char *settings;   ///< "name=value" lines on top of mur_flock_default_def()
} preset;

static const preset PRESETS[] = {
    {"classic", "Reynolds/Parker boids in a soft-walled box (the library defaults)", ""},
    {"starling",
     "starling murmuration after StarDisplay (Hemelrijk & Hildenbrandt 2011): topological neighbours, "
     "cruise speed, roost, banking, hard sphere (docs/murmuration-model.md)",
     "boids=2000\n"
     "dt=0.02\n"
     "neighbours=topological\n"
     "topo_k=6.5\n"
     "view_radius=50\n"
     "view_angle=270\n"
     "steer_unit=on\n"
     "cohesion=3\n"
     "alignment=12.5\n"
     "separation=40\n"
     "separation_radius=4\n"
     "hard_radius=0.2\n"
     "min_speed=2\n"
     "max_speed=30\n"
     "cruise_speed=10\n"
     "speed_tau=5\n"
     "bounds=none\n"
     "world_min=-40,30,-40\n"
     "world_max=40,50,40\n"
     "roost=on\n"
     "roost_pos=0,40,0\n"
     "roost_radius=60\n"
     "roost_weight=2.5\n"
     "roost_vertical=1\n"
     "bank=on\n"
     "bank_rate=10\n"
     "max_turn=120\n"},
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

bool mur_def_preset(mur_flock_def *def, const char *name, mur_error *err)
{
    for (int i = 0; i < NPRESETS; i++) {
        if (!name || strcmp(name, PRESETS[i].name) != 0)
            continue;
        mur_flock_def d = mur_flock_default_def();
        const char *s = PRESETS[i].settings;
        while (*s) {
            const char *nl = strchr(s, '\n');
            size_t l = nl ? (size_t)(nl - s) : strlen(s);
            char pair[160];
            snprintf(pair, sizeof pair, "%.*s", (int)l, s);
            if (!mur_def_set_pair(&d, pair, err))
                return false; /* a bad table row: caught by the presets test */
            s += nl ? l + 1 : l;
        }
        *def = d;
        return true;
    }
    char names[128] = "";
    for (int i = 0; i < NPRESETS; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? "|" : "", PRESETS[i].name);
    mur_set_error(err, "bad preset '%s': expected one of %s", name ? name : "", names);
    return false;
}
