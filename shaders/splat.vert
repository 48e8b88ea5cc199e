#version 330 core
// The CPU's splat of the dusk look's points (src/gfx/splat.c): quads over the runs of pixel tiles
// they touch, their corners in pixels.
layout(location = 0) in vec2 a_px;
uniform vec2 u_view;   // viewport width, height in pixels
void main()
{
    gl_Position = vec4(a_px / u_view * 2.0 - 1.0, 0.0, 1.0);
}
