#version 330 core
// Each pixel's texel of the splat: premultiplied colour and coverage, blended ONE, ONE_MINUS_SRC_ALPHA.
uniform sampler2D u_tex;
uniform ivec2 u_origin; // the rectangle's first pixel (texel 0, 0)
out vec4 frag;
void main()
{
    frag = texelFetch(u_tex, ivec2(gl_FragCoord.xy) - u_origin, 0);
}
