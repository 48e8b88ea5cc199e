#version 330 core
layout(location = 0) in vec2 a_xz;   // corner of the ground quad, wu
uniform mat4 u_vp;
uniform float u_ground;
out vec3 v_world;
void main()
{
    v_world = vec3(a_xz.x, u_ground, a_xz.y);
    gl_Position = u_vp * vec4(v_world, 1.0);
}
