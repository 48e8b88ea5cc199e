#version 330 core
// The colour was lit per face in boid.vert.
flat in vec4 v_color;
out vec4 frag;
void main()
{
    frag = v_color;
}
