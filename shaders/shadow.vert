#version 330 core
// Ground shadows: one soft dark disc per boid on the ground plane under it (the sun is taken as
// overhead: the disc sits straight below the bird). It widens and fades with height, so a bird
// near the ground has a small dark shadow and one higher up a fainter, wider one, and birds more
// than about 2.3 fade heights up none; perched birds sit on their shadow.
layout(location = 3) in vec3 i_pos;

uniform mat4 u_vp;
uniform float u_ground;
uniform float u_size;      // body length, wu
uniform float u_fade;      // height at which the shadow has faded to 1/e, wu

out vec2 v_uv;
out float v_alpha;

void main()
{
    vec2 corner = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1)) * 2.0 - 1.0;
    float h = max(i_pos.y - u_ground, 0.0);
    float r = u_size * (0.5 + 0.25 * h / max(u_fade, 1e-3));
    v_uv = corner;
    v_alpha = 0.6 * exp(-h / max(u_fade, 1e-3));
    vec3 p = vec3(i_pos.x + corner.x * r, u_ground, i_pos.z + corner.y * r);
    // a shadow too faint to see costs fragments all the same (software GL pays per fragment): drop it
    gl_Position = v_alpha < 0.06 ? vec4(2.0, 2.0, 2.0, 1.0) : u_vp * vec4(p, 1.0);
}
