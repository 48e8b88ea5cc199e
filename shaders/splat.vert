#version 330 core
// The CPU's splat of the dusk look's points (src/gfx/splat.c): one quad over the pixel rectangle
// they touch, from gl_VertexID (a strip of four, no buffers).
uniform vec4 u_rect;   // x0, y0, x1, y1 in pixels (x1, y1 exclusive)
uniform vec2 u_view;   // viewport width, height in pixels
void main()
{
    vec2 c = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 px = mix(u_rect.xy, u_rect.zw, c);
    gl_Position = vec4(px / u_view * 2.0 - 1.0, 0.0, 1.0);
}
