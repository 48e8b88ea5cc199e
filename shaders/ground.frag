#version 330 core
// Ground plane: an anti-aliased grid that fades into the horizon colour with distance.
in vec3 v_world;
uniform vec3 u_eye;
uniform vec3 u_color;
uniform vec3 u_line_color;
uniform vec3 u_fog_color;
uniform vec2 u_centre;       // x, z of the world box centre
uniform float u_cell;        // grid spacing, wu
uniform float u_fade;        // distance from the centre where the ground is gone, wu
out vec4 frag;
void main()
{
    vec2 g = v_world.xz / u_cell;
    vec2 w = fwidth(g);
    vec2 a = abs(fract(g - 0.5) - 0.5) / max(w, vec2(1e-4));
    float line = 1.0 - clamp(min(a.x, a.y), 0.0, 1.0);
    line *= clamp(1.0 - max(w.x, w.y) * 1.5, 0.0, 1.0);   // no moire far away
    vec3 c = mix(u_color, u_line_color, line * 0.6);
    float r = length(v_world.xz - u_centre) / u_fade;
    float fade = smoothstep(0.45, 1.0, r);
    frag = vec4(mix(c, u_fog_color, fade), 1.0);
}
