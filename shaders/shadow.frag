#version 330 core
in vec2 v_uv;
in float v_alpha;
out vec4 frag;
void main()
{
    float d = dot(v_uv, v_uv);
    if (d > 1.0)
        discard;
    frag = vec4(0.0, 0.0, 0.0, v_alpha * (1.0 - d));
}
