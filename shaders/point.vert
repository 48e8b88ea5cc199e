#version 330 core
// The smallest birds of large flocks on software GL: one point each (software GL pays per
// primitive, and a point is one vertex and one primitive instead of a mesh; src/gfx/lod.h). Its size follows the distance like a bird's would, and its
// shade follows the heading against the sun, so the flock's motion still reads.
layout(location = 3) in vec3 i_pos;
layout(location = 4) in vec3 i_vel;
layout(location = 6) in int i_perch;
layout(location = 8) in int i_id;              // the bird's index in the flock

uniform mat4 u_vp;
uniform float u_size;          // body length, wu
uniform float u_px_per_wu;     // pixels per world unit at distance 1 (viewport height / 2 / tan(fov/2))
uniform vec3 u_color_fly;
uniform vec3 u_color_perch;
uniform vec3 u_sun_dir;
uniform vec3 u_fog_color;
uniform vec3 u_eye;
uniform float u_fog_dist;
uniform int u_look;            // 0 studio (lit colours), 1 dusk (dark, alpha = coverage)

flat out vec4 v_color;

void main()
{
    vec4 clip = u_vp * vec4(i_pos, 1.0);
    gl_Position = clip;
    float size = 0.7 * u_size * u_px_per_wu / max(clip.w, 1e-3);
    if (u_look == 1) {
        // dusk: a whole number of pixels (a square of side 1 or 2 covers exactly that many pixels
        // wherever it falls: no shimmer) and the bird's own area as its alpha, so a thousand birds of
        // a tenth of a pixel darken the sky as much as a hundred of one pixel
        float side = clamp(floor(size + 0.5), 1.0, 4.0);
        gl_PointSize = side;
        vec3 c = (i_perch > 0 ? u_color_perch : u_color_fly);
        float d = length(u_eye - i_pos) / max(u_fog_dist, 1e-3);
        v_color = vec4(mix(c, u_fog_color, min(1.0 - exp(-0.5 * d * d), 0.5)),
                       0.92 * min(size * size / (side * side), 1.0));
        return;
    }
    gl_PointSize = clamp(size, 1.0, 4.0);
    float speed = length(i_vel);
    vec3 fwd = speed > 1e-5 ? i_vel / speed : vec3(0.0, 0.0, 1.0);
    // wings spread across the heading catch the sun when it is to the side; climbing birds show
    // their lit backs, diving ones their darker bellies; a little variety between birds
    uint n = uint(i_id);
    n = (n << 13U) ^ n;
    n = n * (n * n * 15731U + 789221U) + 1376312589U;
    float h = float(n & 0xffffU) / 65535.0;
    vec3 side = normalize(cross(vec3(0.0, 1.0, 0.0), fwd) + vec3(1e-4, 0.0, 0.0));
    float lit = 0.45 + 0.45 * abs(dot(side, u_sun_dir)) + 0.25 * fwd.y + 0.15 * h;
    vec3 c = (i_perch > 0 ? u_color_perch : u_color_fly) * lit;
    float d = length(u_eye - i_pos) / max(u_fog_dist, 1e-3);
    v_color = vec4(mix(c, u_fog_color, min(1.0 - exp(-0.5 * d * d), 0.55)), 1.0);
}
