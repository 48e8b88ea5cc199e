#version 330 core
// One bird per instance, oriented along its velocity and banked into turns, lit per face (studio)
// or a dark silhouette whose alpha is its coverage (dusk). Local mesh frame: x = wing, y = up,
// z = forward (nose at +z).
//
// Wings beat 10-14 times a second, each bird at its own rate and phase; a bird that is not working
// (not speeding up or climbing) glides in short bouts, wings held out. A bird shorter than
// u_min_px pixels on screen is drawn that long with its alpha lowered by the same area, and its wings
// stop beating: a bird of a pixel or two keeps its coverage instead of shimmering as its thin
// triangles fall between pixel centres.
//
// Software GL pays for every fragment-shader instruction, so the lighting is done here, once per
// face: each triangle's last (provoking) vertex carries that face's normal, and the colour goes
// to the fragment shader `flat`.

layout(location = 0) in vec3 a_local;
layout(location = 1) in vec3 a_face_normal; // normal of the face this vertex provokes (else 0)
layout(location = 2) in float a_part;       // 0 body, 1 wing (flaps), 2 tail
layout(location = 3) in vec3 i_pos;
layout(location = 4) in vec3 i_vel;
layout(location = 5) in vec3 i_vel_prev;    // velocity at the previous upload (for banking)
layout(location = 6) in int i_perch;        // remaining perch ticks, 0 = flying
layout(location = 7) in float i_roll;       // the simulation's bank angle (radians; 0 without banked turns)
layout(location = 8) in int i_id;           // the bird's index in the flock (-1: none, predators)
layout(location = 9) in int i_escape;       // mur_view.escape: bits 0-2 the escape state (0 calm)

uniform mat4 u_vp;
uniform float u_size;          // body length, wu
uniform float u_bank_gain;     // lateral acceleration * gain = tan(bank): 1 / (seconds * g)
uniform float u_time;          // seconds, for the wing beat
uniform int u_color_mode;      // 0 by state, 1 by speed
uniform vec2 u_speed_range;    // min, max speed for the speed colour map
uniform vec3 u_color_fly;
uniform vec3 u_color_perch;
uniform vec3 u_eye;
uniform vec3 u_sun_dir;        // unit, toward the sun
uniform vec3 u_sky_color;      // ambient from above
uniform vec3 u_ground_color;   // ambient from below
uniform vec3 u_fog_color;
uniform float u_fog_dist;      // distance at which the haze reaches about 40%
uniform int u_look;            // 0 studio (lit colours), 1 dusk (dark silhouettes, alpha = coverage)
uniform float u_px_per_wu;     // pixels per world unit at distance 1
uniform float u_inv_dt;        // 1 / seconds between i_vel_prev and i_vel (0: unknown)
uniform int u_tint;            // 1: birds escaping from the falcon are tinted (off by default)

flat out vec4 v_color;

const float MIN_PX = 3.0;      // dusk: birds shorter on screen are drawn this long, fainter
const float DUSK_ALPHA = 0.92; // dusk: a whole bird's opacity (overlaps darken further)
const vec3 TINT_STUDIO = vec3(0.90, 0.20, 0.85); // alarmed birds, tinted: magenta
const vec3 TINT_DUSK = vec3(0.60, 0.06, 0.04);   // ... at dusk: a dark red that still reads on the sky

float hash11(uint n)
{
    n = (n << 13U) ^ n;
    n = n * (n * n * 15731U + 789221U) + 1376312589U;
    return float(n & 0x7fffffffU) / float(0x7fffffff);
}

vec3 speed_ramp(float t)
{
    t = clamp(t, 0.0, 1.0);
    vec3 c0 = vec3(0.16, 0.32, 0.95), c1 = vec3(0.15, 0.85, 0.75);
    vec3 c2 = vec3(1.00, 0.86, 0.22), c3 = vec3(0.95, 0.28, 0.12);
    if (t < 0.33) return mix(c0, c1, t / 0.33);
    if (t < 0.66) return mix(c1, c2, (t - 0.33) / 0.33);
    return mix(c2, c3, (t - 0.66) / 0.34);
}

void main()
{
    // the bird's own variety: its index, not its place in this frame's draw order (lod.h)
    float h = hash11(uint(i_id >= 0 ? i_id : gl_InstanceID));
    bool perching = i_perch > 0;
    bool alarmed = u_tint == 1 && (i_escape & 7) != 0;
    float speed = length(i_vel);

    vec3 fwd;
    if (speed > 1e-5 && !perching) {
        fwd = i_vel / speed;
    } else {
        // perched birds stand on the ground: facing their last heading (or a random way), the body
        // raised 50 degrees from the horizontal, tail down
        vec2 hz = speed > 1e-5 ? i_vel.xz : vec2(0.0);
        float a = h * 6.2831853;
        vec2 d = dot(hz, hz) > 1e-10 ? normalize(hz) : vec2(cos(a), sin(a));
        fwd = perching ? vec3(0.643 * d.x, 0.766, 0.643 * d.y) : vec3(d.x, 0.0, d.y);
    }
    vec3 up0 = abs(fwd.y) > 0.99 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 1.0, 0.0);
    vec3 right = normalize(cross(up0, fwd));
    vec3 up = cross(fwd, right);

    // coordinated turn: the lift vector leans toward the centre of the turn;
    // bank = atan(lateral), written with a square root (no trigonometry per vertex)
    vec3 acc = (i_vel - i_vel_prev) * u_bank_gain;
    // a flock with banked turns (bank = on) stores each bird's roll: drawn as it is
    float lateral = perching ? 0.0 : clamp(i_roll != 0.0 ? -tan(i_roll) : dot(acc, right), -2.0, 2.0); // i_roll > 0: turning to forward x up, this frame's -right
    float cb = inversesqrt(1.0 + lateral * lateral), sb = lateral * cb;
    vec3 r2 = cb * right - sb * up;
    vec3 u2 = cb * up + sb * right;

    // size on screen: the bird's length in pixels at its distance
    float w = dot(vec4(u_vp[0][3], u_vp[1][3], u_vp[2][3], u_vp[3][3]), vec4(i_pos, 1.0));
    float px = u_size * u_px_per_wu / max(w, 1e-3);
    float grow = 1.0, cover = 1.0;
    if (u_look == 1 && px < MIN_PX) {
        grow = MIN_PX / max(px, 1e-3);
        cover = 1.0 / (grow * grow);
    }

    vec3 p = a_local;
    vec3 n = a_face_normal;
    if (a_part > 0.5 && a_part < 1.5) {
        if (perching) {
            p.x *= 0.3;                   // wings folded
        } else {
            // effort: speeding up along the heading, or climbing (g = 9.8 wu/s^2: a wu is about a metre)
            vec3 a = (i_vel - i_vel_prev) * u_inv_dt;
            float effort = dot(a, fwd) + 9.8 * fwd.y;
            float h2 = fract(h * 113.7);
            float hz = 10.0 + 4.0 * h2;                        // beats per second
            float beat = sin(6.2831853 * (hz * u_time + h));
            // glide bouts of about a fifth of a second, about once a second, only when not working (a
            // triangle wave: software GL pays for every sine of every vertex)
            float bout = abs(fract((0.8 + 0.6 * h) * u_time + h2) * 2.0 - 1.0);
            float glide = smoothstep(0.6, 0.8, bout) * (1.0 - smoothstep(0.5, 3.0, effort));
            float amp = 0.9 * (1.0 - 0.85 * glide) * smoothstep(1.5, 5.0, px);
            float ang = amp * beat + 0.12;                       // + a slight dihedral
            // the wing turns by ang about the body axis (|ang| < 1.1: sin and cos to 1% by their series)
            float a2 = ang * ang, sa = ang * (1.0 - a2 / 6.0), ca = 1.0 - a2 * (0.5 - a2 / 24.0);
            float ax = abs(p.x);
            p.y += ax * sa;
            p.x = sign(p.x) * ax * ca;
            n.x -= sign(p.x) * sa * n.y; // the face tilts with the wing
        }
    }
    p *= u_size * grow;
    vec3 world = i_pos + r2 * p.x + u2 * p.y + fwd * p.z;
    if (perching)
        world.y += 0.4 * u_size;           // standing: the tail end rests on the ground
    gl_Position = u_vp * vec4(world, 1.0);

    vec3 to_eye = u_eye - world;
    float dist = length(to_eye);
    if (u_look == 1) {
        // dusk: a near-black silhouette, a little variety, hazed toward the sky with distance
        vec3 c = u_color_mode == 1
            ? 0.55 * speed_ramp((speed - u_speed_range.x) / max(u_speed_range.y - u_speed_range.x, 1e-6))
            : u_color_fly * (0.8 + 0.4 * h);
        if (alarmed)
            c = TINT_DUSK;
        float d = dist / max(u_fog_dist, 1e-3);
        v_color = vec4(mix(c, u_fog_color, min(1.0 - exp(-0.5 * d * d), 0.5)), DUSK_ALPHA * cover);
        return;
    }

    vec3 base;
    if (u_color_mode == 1)
        base = speed_ramp((speed - u_speed_range.x) / max(u_speed_range.y - u_speed_range.x, 1e-6));
    else
        base = perching ? u_color_perch : u_color_fly;
    if (alarmed)
        base = TINT_STUDIO;
    base *= 0.9 + 0.2 * h;                // a little variety between birds

    // lighting (only the provoking vertex's result is used)
    to_eye /= max(dist, 1e-6);
    vec3 nw = r2 * n.x + u2 * n.y + fwd * n.z;
    float nl = length(nw);
    nw = nl > 1e-6 ? nw / nl : u2;
    if (dot(nw, to_eye) < 0.0)
        nw = -nw;                          // thin surfaces: light the side we see
    float ndl = dot(nw, u_sun_dir);
    float diff = max(ndl, 0.0);
    float wrap = ndl * 0.5 + 0.5;
    vec3 amb = mix(u_ground_color, u_sky_color, nw.y * 0.5 + 0.5);
    vec3 c = base * (0.35 * amb + 0.75 * diff + 0.15 * wrap);
    float d = dist / max(u_fog_dist, 1e-3);
    float fog = min(1.0 - exp(-0.5 * d * d), 0.55);
    v_color = vec4(mix(c, u_fog_color, fog), 1.0);
}
