/* murmur._murmur's zero-copy views (python/murmur/_murmur.c has the rules they keep): a Rows object
 * exports one row of a flock's state through the buffer protocol, read-only, counted in the flock's
 * exports; and label_groups, which reads and writes numpy arrays through the same protocol. */
#include "murmur_py.h"

#include <string.h>

typedef enum { ROW_POS, ROW_VEL, ROW_PERCH, ROW_ROLL, ROW_PRED_POS, ROW_PRED_VEL, ROW_ESCAPE, ROW_COUNT } row_kind;

static const char *const ROW_NAMES[ROW_COUNT] = {"pos", "vel", "perch", "roll", "pred_pos", "pred_vel", "escape"};

typedef struct {
    PyObject_HEAD
    FlockObject *owner;
    row_kind kind;
    uint64_t layout;
    Py_ssize_t shape[2];
    Py_ssize_t strides[2];
} RowsObject;

static int rows_getbuffer(PyObject *obj, Py_buffer *view, int flags)
{
    RowsObject *r = (RowsObject *)obj;
    FlockObject *o = r->owner;
    if (o->closed || !o->f) {
        PyErr_SetString(PyExc_ValueError, "murmur: the flock is closed");
        view->obj = NULL;
        return -1;
    }
    if (r->layout != o->layout) {
        PyErr_SetString(PyExc_BufferError, "murmur: the flock's rows moved since this view was made; take a new one");
        view->obj = NULL;
        return -1;
    }
    if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE) {
        PyErr_SetString(PyExc_BufferError, "murmur: the flock's state is read-only (set boids with Flock.set_boid)");
        view->obj = NULL;
        return -1;
    }
    mur_view v = mur_flock_view(o->f);
    const void *p = NULL;
    int cols = 3;
    Py_ssize_t n = v.boids;
    const char *fmt = "f";
    Py_ssize_t item = sizeof(float);
    switch (r->kind) {
    case ROW_POS: p = v.pos; break;
    case ROW_VEL: p = v.vel; break;
    case ROW_PERCH: p = v.perch; cols = 1; fmt = "i"; item = sizeof(int32_t); break;
    case ROW_ROLL: p = v.roll; cols = 1; break;
    case ROW_PRED_POS: p = v.pred_pos; n = v.predators; break;
    case ROW_PRED_VEL: p = v.pred_vel; n = v.predators; break;
    case ROW_ESCAPE: /* the falcon's escape states (docs/falcon.md); none without the falcon */
        p = v.escape; cols = 1; fmt = "B"; item = sizeof(uint8_t); n = p ? n : 0; break;
    case ROW_COUNT: break;
    }
    static const float empty[1] = {0};
    if (!p || n == 0)
        p = empty; /* a zero-length array still needs an address */
    r->shape[0] = n;
    r->shape[1] = 3;
    r->strides[0] = item * cols;
    r->strides[1] = item;
    view->buf = (void *)(uintptr_t)p; /* read-only: the view says so and numpy keeps it so */
    view->obj = obj;
    Py_INCREF(obj);
    view->len = n * cols * item;
    view->readonly = 1;
    view->itemsize = item;
    view->format = (flags & PyBUF_FORMAT) ? (char *)(uintptr_t)fmt : NULL;
    view->ndim = (flags & PyBUF_ND) && cols == 3 ? 2 : 1; /* a PyBUF_SIMPLE request sees bytes */
    view->shape = (flags & PyBUF_ND) ? r->shape : NULL;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? r->strides : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    o->exports++;
    return 0;
}

static void rows_releasebuffer(PyObject *obj, Py_buffer *view)
{
    (void)view;
    FlockObject *o = ((RowsObject *)obj)->owner;
    if (--o->exports == 0 && o->closed && !o->busy)
        murmur_free_flock(o);
}

static PyBufferProcs rows_as_buffer = {rows_getbuffer, rows_releasebuffer};

static void rows_dealloc(PyObject *obj)
{
    RowsObject *r = (RowsObject *)obj;
    Py_XDECREF(r->owner);
    Py_TYPE(obj)->tp_free(obj);
}

PyTypeObject murmur_RowsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "murmur._murmur.Rows",
    .tp_basicsize = sizeof(RowsObject),
    .tp_dealloc = rows_dealloc,
    .tp_as_buffer = &rows_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One row of a flock's state (read-only buffer; numpy.asarray gives the array).",
};

PyObject *murmur_rows_new(FlockObject *self, const char *which)
{
    if (self->closed || !self->f) {
        PyErr_SetString(PyExc_ValueError, "murmur: the flock is closed");
        return NULL;
    }
    int k = 0;
    while (k < ROW_COUNT && strcmp(ROW_NAMES[k], which) != 0)
        k++;
    if (k == ROW_COUNT) {
        PyErr_Format(PyExc_ValueError, "murmur: unknown row '%s' (pos, vel, perch, roll, pred_pos, pred_vel, escape)", which);
        return NULL;
    }
    RowsObject *r = PyObject_New(RowsObject, &murmur_RowsType);
    if (!r)
        return NULL;
    Py_INCREF(self);
    r->owner = self;
    r->kind = (row_kind)k;
    r->layout = self->layout;
    memset(r->shape, 0, sizeof r->shape);
    memset(r->strides, 0, sizeof r->strides);
    return (PyObject *)r;
}

/* A buffer format of one native item c ("f", "=f", "<f" on little-endian machines, "@f"). */
static int fmt_is(const char *fmt, char c)
{
    if (!fmt)
        return 0;
    if (*fmt == '@' || *fmt == '=' || (*fmt == '<' && PY_LITTLE_ENDIAN) || (*fmt == '>' && !PY_LITTLE_ENDIAN))
        fmt++;
    return fmt[0] == c && fmt[1] == '\0';
}

/* label_groups(points, link, labels) -> groups: mur_label_groups over a C-contiguous float32 (n, 3)
 * buffer into a writable C-contiguous int32 (n,) buffer (the Python layer makes both). */
PyObject *murmur_label_groups(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *po, *lo;
    double link;
    if (!PyArg_ParseTuple(args, "OdO:label_groups", &po, &link, &lo))
        return NULL;
    Py_buffer pb, lb;
    if (PyObject_GetBuffer(po, &pb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (PyObject_GetBuffer(lo, &lb, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&pb);
        return NULL;
    }
    PyObject *ret = NULL;
    const Py_ssize_t n = pb.ndim == 2 ? pb.shape[0] : -1;
    if (n < 0 || pb.shape[1] != 3 || pb.itemsize != sizeof(float) || !fmt_is(pb.format, 'f'))
        PyErr_SetString(PyExc_ValueError, "murmur: points must be a C-contiguous float32 array of shape (n, 3)");
    else if (lb.ndim != 1 || lb.shape[0] != n || lb.itemsize != sizeof(int32_t) || !fmt_is(lb.format, 'i'))
        PyErr_SetString(PyExc_ValueError, "murmur: labels must be a writable int32 array of shape (n,)");
    else if (n > MUR_MAX_BOIDS)
        PyErr_Format(PyExc_ValueError, "murmur: %zd points (allowed: up to %d)", n, MUR_MAX_BOIDS);
    else if (!(link > 0.0 && link <= 3.4e38))
        PyErr_Format(PyExc_ValueError, "murmur: link distance %g is out of range: need a finite distance above 0", link);
    else {
        mur_error err;
        int32_t g;
        Py_BEGIN_ALLOW_THREADS
        g = mur_label_groups((const float *)pb.buf, (int32_t)n, (float)link, (int32_t *)lb.buf, &err);
        Py_END_ALLOW_THREADS
        if (g < 0)
            PyErr_SetString(PyExc_ValueError, err.msg);
        else
            ret = PyLong_FromLong(g);
    }
    PyBuffer_Release(&lb);
    PyBuffer_Release(&pb);
    return ret;
}
