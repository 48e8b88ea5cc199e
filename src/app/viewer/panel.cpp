// The parameter panel (see panel.h): Dear ImGui with its GLFW and OpenGL 3 backends.
#include "panel.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

struct mur_panel {
    GLFWwindow *win;
    ImGuiContext *ctx;
    float x0, y0, x1, y1; // the panel window's rectangle in the last frame (window coordinates)
    float vw, vh;         // the viewport it was laid out for (a new size lays it out again)
};

extern "C" mur_panel *mur_panel_create(GLFWwindow *win)
{
    IMGUI_CHECKVERSION();
    mur_panel *p = static_cast<mur_panel *>(std::calloc(1, sizeof *p));
    if (!p)
        return nullptr;
    p->win = win;
    p->ctx = ImGui::CreateContext();
    ImGuiIO &io = ImGui::GetIO();
    io.IniFilename = nullptr; // no imgui.ini left in the current folder
    io.LogFilename = nullptr;
    ImGui::StyleColorsDark();
    ImGui::GetStyle().Alpha = 0.94f;
    if (!ImGui_ImplGlfw_InitForOpenGL(win, true) || !ImGui_ImplOpenGL3_Init("#version 330 core")) {
        std::fprintf(stderr, "murmur: cannot set up the parameter panel (Dear ImGui)\n");
        ImGui::DestroyContext(p->ctx);
        std::free(p);
        return nullptr;
    }
    return p;
}

extern "C" void mur_panel_destroy(mur_panel *p)
{
    if (!p)
        return;
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext(p->ctx);
    std::free(p);
}

extern "C" bool mur_panel_wants_mouse(const mur_panel *p, double x, double y)
{
    // ImGui's flag is a frame late for a cursor that has just arrived: the rectangle is not
    return p && (ImGui::GetIO().WantCaptureMouse || (x >= p->x0 && x < p->x1 && y >= p->y0 && y < p->y1));
}

extern "C" float mur_panel_left(const mur_panel *p)
{
    return p ? p->x0 : 0.0f;
}

extern "C" bool mur_panel_wants_keyboard(const mur_panel *p)
{
    return p && ImGui::GetIO().WantCaptureKeyboard;
}

namespace {

void tooltip(const mur_param *q)
{
    if (!ImGui::IsItemHovered())
        return;
    char range[96];
    if (q->type == MUR_PT_ENUM || q->type == MUR_PT_SWITCH)
        std::snprintf(range, sizeof range, "%s", q->choices ? q->choices : "");
    else
        std::snprintf(range, sizeof range, "%s%g, %g]", q->min_open ? "(" : "[", q->min, q->max);
    ImGui::SetTooltip("%s\n%s\nrange %s%s%s", q->name, q->meaning, range, q->unit[0] ? "  unit " : "", q->unit);
}

// Set name to the text value on the edited def; the parser's refusal goes to io->error.
void set(mur_panel_io *io, const char *name, const char *value)
{
    mur_error err;
    if (mur_def_set(&io->new_def, name, value, &err)) {
        io->def_changed = true;
        io->error[0] = '\0';
    } else {
        std::snprintf(io->error, sizeof io->error, "%s", err.msg);
    }
}

// An enum row as a combo box: choices "a|b|c" become "a\0b\0c\0\0" for ImGui::Combo.
void enum_widget(mur_panel_io *io, const mur_param *q, const char *label, const char *text)
{
    char items[160] = {0};
    std::snprintf(items, sizeof items - 2, "%s", q->choices);
    int current = 0, n = 0;
    const char *start = items;
    for (char *c = items;; c++) {
        if (*c == '|' || *c == '\0') {
            bool end = *c == '\0';
            *c = '\0';
            if (std::strcmp(start, text) == 0)
                current = n;
            n++;
            start = c + 1;
            if (end)
                break;
        }
    }
    if (ImGui::Combo(label, &current, items, n)) {
        const char *s = items;
        for (int k = 0; k < current; k++)
            s += std::strlen(s) + 1;
        set(io, q->name, s);
    }
}

// One row of the parameter table as a widget.
void param_widget(mur_panel_io *io, const mur_param *q)
{
    char text[160];
    if (!mur_def_get(&io->new_def, q->name, text, sizeof text))
        return;
    char label[96];
    std::snprintf(label, sizeof label, "%s%s%s%s", q->name, q->unit[0] ? " (" : "", q->unit, q->unit[0] ? ")" : "");
    char value[160];
    switch (q->type) {
    case MUR_PT_SWITCH: {
        bool on = std::strcmp(text, "on") == 0;
        if (ImGui::Checkbox(label, &on))
            set(io, q->name, on ? "on" : "off");
        break;
    }
    case MUR_PT_ENUM:
        enum_widget(io, q, label, text);
        break;
    case MUR_PT_INT: {
        int v = std::atoi(text);
        bool changed = q->max - q->min <= 1000.0
                           ? ImGui::SliderInt(label, &v, static_cast<int>(q->min), static_cast<int>(q->max))
                           : ImGui::InputInt(label, &v, 1, 100);
        if (changed) {
            std::snprintf(value, sizeof value, "%d", v);
            set(io, q->name, value);
        }
        break;
    }
    case MUR_PT_FLOAT: {
        float v = std::strtof(text, nullptr);
        bool changed;
        if (q->max - q->min <= 1000.0) {
            changed = ImGui::SliderFloat(label, &v, static_cast<float>(q->min), static_cast<float>(q->max), "%.4g");
        } else {
            // open ranges: drag in steps of 1% of the value
            float speed = std::fmax(std::fabs(v) * 0.01f, 0.001f);
            changed = ImGui::DragFloat(label, &v, speed, static_cast<float>(q->min), static_cast<float>(q->max),
                                       "%.4g");
        }
        if (changed) {
            std::snprintf(value, sizeof value, "%.9g", static_cast<double>(v));
            set(io, q->name, value);
        }
        break;
    }
    case MUR_PT_VEC3: {
        float v[3] = {0, 0, 0};
        if (std::sscanf(text, "%f,%f,%f", &v[0], &v[1], &v[2]) != 3)
            break;
        if (ImGui::DragFloat3(label, v, 0.5f, static_cast<float>(q->min), static_cast<float>(q->max), "%.4g")) {
            std::snprintf(value, sizeof value, "%.9g,%.9g,%.9g", static_cast<double>(v[0]),
                          static_cast<double>(v[1]), static_cast<double>(v[2]));
            set(io, q->name, value);
        }
        break;
    }
    case MUR_PT_SEED:
        ImGui::Text("%s %s", q->name, text);
        break;
    }
    tooltip(q);
}

// The presets as a combo box: choosing one sets all its parameters and its boid count (as N does).
void preset_widget(mur_panel_io *io)
{
    const char *shown = io->preset >= 0 ? mur_preset_name(io->preset) : "(changed)";
    if (ImGui::BeginCombo("preset", shown ? shown : "")) {
        for (int i = 0; i < mur_preset_count(); i++) {
            if (ImGui::Selectable(mur_preset_name(i), i == io->preset))
                io->new_preset = i;
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s", mur_preset_summary(i));
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("sets every parameter of the preset and its boid count; the boids fly on, brought into its world");
}

} // namespace

extern "C" void mur_panel_draw(mur_panel *p, mur_panel_io *io)
{
    io->new_def = io->def;
    io->def_changed = io->pause_changed = io->step = io->speed_changed = false;
    io->new_preset = -1;
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    const ImGuiViewport *vp = ImGui::GetMainViewport();
    // the panel scales with the window: its font by half steps from 1x (up to 720 rows) to 3x, its
    // width 380 px at 1x but never more than 42% of the window's; laid out again when the window's
    // size changes (the user may move and resize it in between)
    const float W = vp->WorkSize.x, H = vp->WorkSize.y;
    float scale = std::floor(H / 720.0f * 2.0f) / 2.0f;
    scale = scale < 1.0f ? 1.0f : (scale > 3.0f ? 3.0f : scale);
    ImGui::GetIO().FontGlobalScale = scale;
    const float width = std::fmin(380.0f * scale, 0.42f * W);
    const ImGuiCond cond = W != p->vw || H != p->vh ? ImGuiCond_Always : ImGuiCond_Once;
    p->vw = W;
    p->vh = H;
    ImGui::SetNextWindowPos(ImVec2(vp->WorkPos.x + W - 10.0f, vp->WorkPos.y + 10.0f), cond, ImVec2(1.0f, 0.0f));
    ImGui::SetNextWindowSize(ImVec2(width, H * 0.85f), cond);
    ImGui::SetNextWindowBgAlpha(0.97f); // nothing shows through its sliders
    bool open = ImGui::Begin("murmur parameters (E hides)");
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    p->x0 = pos.x;
    p->y0 = pos.y;
    p->x1 = pos.x + size.x;
    p->y1 = pos.y + size.y;
    if (open) {
        bool paused = io->paused;
        if (ImGui::Checkbox("paused", &paused)) {
            io->pause_changed = true;
            io->new_paused = paused;
        }
        ImGui::SameLine();
        if (ImGui::Button("step"))
            io->step = true;
        float speed = static_cast<float>(io->speed);
        if (ImGui::SliderFloat("speed", &speed, 0.05f, 8.0f, "%.3g", ImGuiSliderFlags_Logarithmic)) {
            io->speed_changed = true;
            io->new_speed = static_cast<double>(speed);
        }
        ImGui::Text("tick %llu   %.0f fps", static_cast<unsigned long long>(io->tick), io->fps);
        ImGui::Separator();
        ImGui::PushItemWidth(-0.45f * ImGui::GetWindowWidth()); // the rest for the labels
        preset_widget(io);
        // counts first, then the toggles, then every other live parameter in table order
        const int n = mur_param_count();
        for (int pass = 0; pass < 3; pass++) {
            if (pass > 0) {
                ImGui::Separator();
                ImGui::TextDisabled("%s", pass == 1 ? "toggles and modes" : "parameters");
            }
            for (int i = 0; i < n; i++) {
                const mur_param *q = mur_param_at(i);
                if (!q || !q->live)
                    continue;
                bool count = !std::strcmp(q->name, "boids") || !std::strcmp(q->name, "predators");
                bool toggle = q->type == MUR_PT_SWITCH || q->type == MUR_PT_ENUM;
                if ((pass == 0) == count && (pass == 1) == (toggle && !count)) {
                    ImGui::PushID(i);
                    param_widget(io, q);
                    ImGui::PopID();
                }
            }
        }
        ImGui::PopItemWidth();
        if (io->error[0])
            ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", io->error);
    }
    ImGui::End();
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}
