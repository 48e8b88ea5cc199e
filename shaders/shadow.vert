#version 330 core
// Ground shadows: one soft dark disc per boid on the ground plane under it (the sun is taken as
// overhead: the disc sits straight below the bird). It widens and fades with height, so a bird
// near the ground has a small dark shadow and one high up a faint wide one; perched birds sit on
// their shadow.
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
    float r = u_size * (0.55 + 0.35 * h / max(u_fade, 1e-3));
    v_uv = corner;
    v_alpha = 0.55 * exp(-h / max(u_fade, 1e-3));
    vec3 p = vec3(i_pos.x + corner.x * r, u_ground, i_pos.z + corner.y * r);
    gl_Position = u_vp * vec4(p, 1.0);
}
