#version 330 core
in vec2 v_ndc;
uniform mat4 u_inv_vp;
uniform vec3 u_eye;
uniform vec3 u_zenith;
uniform vec3 u_horizon;
uniform vec3 u_sun_dir;
out vec4 frag;
void main()
{
    vec4 w = u_inv_vp * vec4(v_ndc, 1.0, 1.0);
    vec3 dir = normalize(w.xyz / w.w - u_eye);
    float t = smoothstep(-0.05, 0.55, dir.y);
    vec3 c = mix(u_horizon, u_zenith, t);
    float sun = max(dot(dir, u_sun_dir), 0.0);
    c += vec3(0.20, 0.14, 0.08) * pow(sun, 12.0);
    frag = vec4(c, 1.0);
}
