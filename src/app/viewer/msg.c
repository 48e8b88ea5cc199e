/* The viewer's one message line (msg.h). */
#include "msg.h"

#include <stdarg.h>
#include <stdio.h>

void mur_msg_init(mur_msg_line *m, bool echo)
{
    *m = (mur_msg_line){.echo = echo};
}

void mur_msg_clock(mur_msg_line *m, double now, int64_t frame)
{
    m->now = now;
    m->frame = frame;
}

void mur_msg(mur_msg_line *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->text, sizeof m->text, fmt, ap);
    va_end(ap);
    m->until = m->now + 3.0;
    if (m->echo)
        printf("viewer: frame %lld: %s\n", (long long)m->frame, m->text);
}

const char *mur_msg_shown(const mur_msg_line *m)
{
    return m->text[0] && m->now < m->until ? m->text : NULL;
}
