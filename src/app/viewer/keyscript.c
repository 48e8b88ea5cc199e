/* --keys scripts (see keyscript.h). */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "keyscript.h"

typedef struct key_name {
    const char *name;
    int key;
} key_name;

static const key_name NAMES[] = {
    {"Space", GLFW_KEY_SPACE}, {"Tab", GLFW_KEY_TAB}, {"Enter", GLFW_KEY_ENTER},
    {"Return", GLFW_KEY_ENTER}, {"Escape", GLFW_KEY_ESCAPE}, {"Esc", GLFW_KEY_ESCAPE},
    {"Home", GLFW_KEY_HOME}, {"End", GLFW_KEY_END}, {"Up", GLFW_KEY_UP}, {"Down", GLFW_KEY_DOWN},
    {"Left", GLFW_KEY_LEFT}, {"Right", GLFW_KEY_RIGHT}, {"PageUp", GLFW_KEY_PAGE_UP},
    {"PageDown", GLFW_KEY_PAGE_DOWN}, {"Insert", GLFW_KEY_INSERT}, {"Delete", GLFW_KEY_DELETE},
    {"Backspace", GLFW_KEY_BACKSPACE}, {".", GLFW_KEY_PERIOD}, {"Period", GLFW_KEY_PERIOD},
    {"Comma", GLFW_KEY_COMMA}, {"[", GLFW_KEY_LEFT_BRACKET}, {"LeftBracket", GLFW_KEY_LEFT_BRACKET},
    {"]", GLFW_KEY_RIGHT_BRACKET}, {"RightBracket", GLFW_KEY_RIGHT_BRACKET},
    {"-", GLFW_KEY_MINUS}, {"Minus", GLFW_KEY_MINUS}, {"=", GLFW_KEY_EQUAL},
    {"Equal", GLFW_KEY_EQUAL}, {"+", GLFW_KEY_KP_ADD}, {"Plus", GLFW_KEY_KP_ADD},
    {"KPAdd", GLFW_KEY_KP_ADD}, {"KPSubtract", GLFW_KEY_KP_SUBTRACT}, {"/", GLFW_KEY_SLASH},
    {"Slash", GLFW_KEY_SLASH}, {";", GLFW_KEY_SEMICOLON}, {"Semicolon", GLFW_KEY_SEMICOLON},
    {"'", GLFW_KEY_APOSTROPHE}, {"Apostrophe", GLFW_KEY_APOSTROPHE}, {"`", GLFW_KEY_GRAVE_ACCENT},
    {"Grave", GLFW_KEY_GRAVE_ACCENT}, {"\\", GLFW_KEY_BACKSLASH}, {"Backslash", GLFW_KEY_BACKSLASH},
};

int mur_key_from_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 1 && isalpha((unsigned char)name[0]))
        return GLFW_KEY_A + (toupper((unsigned char)name[0]) - 'A');
    if (n == 1 && isdigit((unsigned char)name[0]))
        return GLFW_KEY_0 + (name[0] - '0');
    if ((name[0] == 'F' || name[0] == 'f') && n >= 2 && n <= 3 && isdigit((unsigned char)name[1])
        && (n == 2 || isdigit((unsigned char)name[2]))) {
        int k = atoi(name + 1);
        if (k >= 1 && k <= 25)
            return GLFW_KEY_F1 + k - 1;
    }
    for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
        if (strcasecmp(NAMES[i].name, name) == 0)
            return NAMES[i].key;
    return -1;
}

static void trim(char **s)
{
    while (isspace((unsigned char)**s))
        (*s)++;
    size_t n = strlen(*s);
    while (n > 0 && isspace((unsigned char)(*s)[n - 1]))
        (*s)[--n] = '\0';
}

static int cmp_frame(const void *a, const void *b)
{
    const mur_key_event *x = a, *y = b;
    return (x->frame > y->frame) - (x->frame < y->frame);
}

/* Strip leading Shift+, Ctrl+ and Alt+ from *item; returns their GLFW modifier bits. */
static int parse_mods(char **item)
{
    static const struct {
        const char *name;
        size_t len;
        int bit;
    } mods_table[] = {{"Shift+", 6, GLFW_MOD_SHIFT}, {"Ctrl+", 5, GLFW_MOD_CONTROL}, {"Alt+", 4, GLFW_MOD_ALT}};
    int mods = 0;
    for (bool again = true; again;) {
        again = false;
        for (size_t k = 0; k < sizeof mods_table / sizeof mods_table[0]; k++) {
            if (strncasecmp(*item, mods_table[k].name, mods_table[k].len) == 0 && (*item)[mods_table[k].len]) {
                mods |= mods_table[k].bit;
                *item += mods_table[k].len;
                again = true;
            }
        }
    }
    return mods;
}

/* One script item, "[frame:][mods+]key" or "[frame:]Click@XxY", into *ev; a frame given here
 * becomes *frame for the items after it. */
static bool parse_item(char *item, int64_t *frame, mur_key_event *ev, char *err, size_t err_len)
{
    char *colon = strchr(item, ':');
    if (colon && colon != item) {
        *colon = '\0';
        char *end = NULL;
        errno = 0;
        long long f = strtoll(item, &end, 10);
        if (errno || !end || *end || f < 1) {
            snprintf(err, err_len, "--keys: bad frame '%s' (expected a whole number >= 1)", item);
            return false;
        }
        *frame = f;
        item = colon + 1;
        trim(&item);
    }
    int mods = parse_mods(&item);
    if (strncasecmp(item, "Click@", 6) == 0) {
        char *end = NULL;
        double x = strtod(item + 6, &end), y = -1.0;
        if (end && *end == 'x')
            y = strtod(end + 1, &end);
        if (!end || *end || !(x >= 0.0 && x <= 100000.0) || !(y >= 0.0 && y <= 100000.0)) {
            snprintf(err, err_len, "--keys: bad click '%s' (expected Click@XxY, window pixels, e.g. Click@320x200)",
                     item);
            return false;
        }
        *ev = (mur_key_event){.frame = *frame, .key = MUR_KEY_CLICK, .mods = mods, .x = x, .y = y};
        return true;
    }
    int key = mur_key_from_name(item);
    if (key < 0) {
        snprintf(err, err_len,
                 "--keys: unknown key '%s' (letters, digits, Space, Tab, Enter, Escape, Home, "
                 "Up, Down, Left, Right, F1-F12, '.', '[', ']', '-', '=', ...)",
                 item);
        return false;
    }
    *ev = (mur_key_event){.frame = *frame, .key = key, .mods = mods};
    return true;
}

/* Split on commas, except that a lone ',' key is written Comma. */
bool mur_keyscript_parse(const char *spec, mur_key_event **out, int *count, char *err,
                       size_t err_len)
{
    *out = NULL;
    *count = 0;
    if (!spec || !*spec)
        return true;
    char *copy = strdup(spec);
    size_t cap = 1;
    for (const char *p = spec; *p; p++)
        cap += *p == ',';
    mur_key_event *ev = calloc(cap, sizeof *ev);
    if (!copy || !ev) {
        free(copy);
        free(ev);
        snprintf(err, err_len, "--keys: out of memory");
        return false;
    }
    int n = 0;
    int64_t frame = 1;
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        trim(&item);
        if (*item && !parse_item(item, &frame, &ev[n++], err, err_len)) {
            free(copy);
            free(ev);
            return false;
        }
    }
    /* a stable order for equal frames (insertion sort: qsort is not stable) */
    for (int i = 1; i < n; i++) {
        mur_key_event x = ev[i];
        int j = i - 1;
        while (j >= 0 && cmp_frame(&ev[j], &x) > 0) {
            ev[j + 1] = ev[j];
            j--;
        }
        ev[j + 1] = x;
    }
    free(copy);
    *out = ev;
    *count = n;
    return true;
}
