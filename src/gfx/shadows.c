/* Ground shadows (see shadows.h). */
#include "shadows.h"

#include <stdlib.h>

#include "shader.h"

struct mur_shadows {
    GLuint prog, vao;
    GLint u_vp, u_ground, u_size, u_fade;
};

mur_shadows *mur_shadows_create(void)
{
    mur_shadows *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->prog = mur_gl_program("shadow.vert", "shadow.frag");
    if (!s->prog) {
        free(s);
        return NULL;
    }
    s->u_vp = glGetUniformLocation(s->prog, "u_vp");
    s->u_ground = glGetUniformLocation(s->prog, "u_ground");
    s->u_size = glGetUniformLocation(s->prog, "u_size");
    s->u_fade = glGetUniformLocation(s->prog, "u_fade");
    glGenVertexArrays(1, &s->vao);
    glBindVertexArray(s->vao);
    glEnableVertexAttribArray(3);
    glVertexAttribDivisor(3, 1);
    glBindVertexArray(0);
    return s;
}

void mur_shadows_destroy(mur_shadows *s)
{
    if (!s)
        return;
    glDeleteVertexArrays(1, &s->vao);
    glDeleteProgram(s->prog);
    free(s);
}

void mur_shadows_source(mur_shadows *s, GLuint pos_buffer)
{
    glBindVertexArray(s->vao);
    glBindBuffer(GL_ARRAY_BUFFER, pos_buffer);
    glVertexAttribPointer(3, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    glBindVertexArray(0);
}

void mur_shadows_draw(mur_shadows *s, const float *vp, float ground, float size, float fade, int count)
{
    if (count <= 0)
        return;
    glUseProgram(s->prog);
    glUniformMatrix4fv(s->u_vp, 1, GL_FALSE, vp);
    glUniform1f(s->u_ground, ground);
    glUniform1f(s->u_size, size);
    glUniform1f(s->u_fade, fade);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    glEnable(GL_POLYGON_OFFSET_FILL);
    glPolygonOffset(-1.0f, -1.0f);
    glBindVertexArray(s->vao);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, count);
    glBindVertexArray(0);
    glDisable(GL_POLYGON_OFFSET_FILL);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
}
