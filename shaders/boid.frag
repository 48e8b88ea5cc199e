#version 330 core
// Lit, flat-shaded, two-sided: sun (Lambert + a soft wrap), sky/ground hemisphere ambient, distance haze.

in vec3 v_world;
in vec3 v_color;

uniform vec3 u_eye;
uniform vec3 u_sun_dir;       // unit, toward the sun
uniform vec3 u_sky_color;     // ambient from above
uniform vec3 u_ground_color;  // ambient from below
uniform vec3 u_fog_color;
uniform float u_fog_dist;     // distance at which haze reaches about 40%

out vec4 frag;

void main()
{
    // flat shading: the face normal from screen-space derivatives (no per-vertex normals)
    vec3 n = normalize(cross(dFdx(v_world), dFdy(v_world)));
    vec3 to_eye = normalize(u_eye - v_world);
    if (dot(n, to_eye) < 0.0)
        n = -n;                        // thin wings: light the side we see
    float diff = max(dot(n, u_sun_dir), 0.0);
    float wrap = max(dot(n, u_sun_dir) * 0.5 + 0.5, 0.0);
    vec3 amb = mix(u_ground_color, u_sky_color, n.y * 0.5 + 0.5);
    vec3 c = v_color * (0.35 * amb + 0.75 * diff + 0.15 * wrap);
    float rim = pow(1.0 - max(dot(n, to_eye), 0.0), 3.0);
    c += 0.12 * rim * u_sky_color;
    float d = length(u_eye - v_world) / max(u_fog_dist, 1e-3);
    float fog = min(1.0 - exp(-0.5 * d * d), 0.55);
    frag = vec4(mix(c, u_fog_color, fog), 1.0);
}
