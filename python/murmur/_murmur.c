/* murmur._murmur: the CPython extension under `import murmur` (python/murmur/__init__.py is the
 * user's face; docs/python.md). A thin layer over include/murmur/murmur.h, linked with the library's
 * objects, so a pip-installed module needs no libmurmur.so beside it.
 *
 * Memory safety, the one thing this layer adds (nothing a Python user does may crash the interpreter):
 * - A Rows object (rows.c) exports one row of the state (positions, velocities, ...) through the buffer
 *   protocol, read-only and without a copy (numpy.asarray over it). The flock counts the live
 *   exports; while any is alive, nothing that could move or free those rows runs: a change of the
 *   boid or predator count raises BufferError, and close() leaves the free to the release of the
 *   last export. The rows' addresses stay put across steps and every other setter (the library
 *   grows its rows only for more boids or predators), so a view taken before a step is the live
 *   state after it, never freed memory.
 * - step() lets other Python threads run while the library steps; the flock is marked busy and
 *   every call on it from another thread meanwhile raises RuntimeError.
 * - A closed flock raises ValueError on every call; every argument is type-checked by CPython's
 *   parser and every value checked by the library's parameter table. */
#include "murmur_py.h"

#include <time.h>

static PyTypeObject FlockType;

/* ------------------------------------------------------------------ helpers */

static int usable(FlockObject *self)
{
    if (self->closed || !self->f) {
        PyErr_SetString(PyExc_ValueError, "murmur: the flock is closed");
        return 0;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "murmur: the flock is stepping in another thread");
        return 0;
    }
    return 1;
}

/* May the rows move? Refused while a view of them is alive. */
static int may_move(FlockObject *self, const char *what)
{
    if (self->exports > 0) {
        PyErr_Format(PyExc_BufferError,
                     "murmur: %s would move the flock's rows while %zd array view(s) of them are alive; "
                     "delete them or keep copies (numpy.array(view))",
                     what, self->exports);
        return 0;
    }
    self->layout++;
    return 1;
}

/* A C string for a path or name: no NUL inside. */
static const char *text_arg(PyObject *o, const char *what)
{
    if (!PyUnicode_Check(o)) {
        PyErr_Format(PyExc_TypeError, "murmur: %s must be a str, not %.100s", what, Py_TYPE(o)->tp_name);
        return NULL;
    }
    Py_ssize_t len = 0;
    const char *s = PyUnicode_AsUTF8AndSize(o, &len);
    if (!s)
        return NULL;
    if ((size_t)len != strlen(s)) {
        PyErr_Format(PyExc_ValueError, "murmur: %s contains a NUL character", what);
        return NULL;
    }
    return s;
}

/* def from a preset name (or None: the classic defaults) and a sequence of (name, text) pairs. */
static int build_def(mur_flock_def *def, PyObject *preset, PyObject *pairs)
{
    mur_error err;
    *def = mur_flock_default_def();
    if (preset != Py_None) {
        const char *p = text_arg(preset, "preset");
        if (!p)
            return 0;
        if (!mur_def_preset(def, p, &err)) {
            PyErr_SetString(PyExc_ValueError, err.msg);
            return 0;
        }
    }
    PyObject *seq = PySequence_Fast(pairs, "murmur: parameters must be a sequence of (name, value) pairs");
    if (!seq)
        return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2) {
            PyErr_SetString(PyExc_TypeError, "murmur: each parameter must be a (name, value) pair");
            Py_DECREF(seq);
            return 0;
        }
        const char *name = text_arg(PyTuple_GET_ITEM(item, 0), "a parameter name");
        const char *value = name ? text_arg(PyTuple_GET_ITEM(item, 1), "a parameter value") : NULL;
        if (!value) {
            Py_DECREF(seq);
            return 0;
        }
        if (!mur_def_set(def, name, value, &err)) {
            PyErr_SetString(PyExc_ValueError, err.msg);
            Py_DECREF(seq);
            return 0;
        }
    }
    Py_DECREF(seq);
    if (!mur_def_check(def, &err)) {
        PyErr_SetString(PyExc_ValueError, err.msg);
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ Flock */

static FlockObject *wrap(mur_flock *f)
{
    FlockObject *o = PyObject_New(FlockObject, &FlockType);
    if (!o) {
        mur_flock_destroy(f);
        return NULL;
    }
    o->f = f;
    o->exports = 0;
    o->layout = 0;
    o->busy = 0;
    o->closed = 0;
    return o;
}

static void flock_dealloc(PyObject *obj)
{
    FlockObject *o = (FlockObject *)obj;
    /* no export can be alive here: each holds a reference to its Rows, which holds one to us */
    murmur_free_flock(o);
    PyObject_Free(obj);
}

static PyObject *m_create(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *preset, *pairs;
    if (!PyArg_ParseTuple(args, "OO:create", &preset, &pairs))
        return NULL;
    mur_flock_def def;
    if (!build_def(&def, preset, pairs))
        return NULL;
    mur_error err;
    mur_flock *f = mur_flock_create(&def, &err);
    if (!f) {
        PyErr_SetString(PyExc_ValueError, err.msg);
        return NULL;
    }
    return (PyObject *)wrap(f);
}

static PyObject *m_load(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *path_o, *preset, *pairs;
    if (!PyArg_ParseTuple(args, "OOO:load", &path_o, &preset, &pairs))
        return NULL;
    const char *path = text_arg(path_o, "path");
    if (!path)
        return NULL;
    mur_flock_def def;
    if (!build_def(&def, preset, pairs))
        return NULL;
    mur_error err;
    mur_flock *f;
    Py_BEGIN_ALLOW_THREADS
    f = mur_flock_load_csv(&def, path, &err);
    Py_END_ALLOW_THREADS
    if (!f) {
        PyErr_SetString(PyExc_ValueError, err.msg);
        return NULL;
    }
    return (PyObject *)wrap(f);
}

static PyObject *f_step(PyObject *obj, PyObject *args)
{
    FlockObject *self = (FlockObject *)obj;
    long long n = 1;
    if (!PyArg_ParseTuple(args, "|L:step", &n))
        return NULL;
    if (!usable(self))
        return NULL;
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "murmur: step count %lld is negative (allowed: 0 or more)", n);
        return NULL;
    }
    for (long long i = 0; i < n; i++) {
        self->busy = 1;
        Py_BEGIN_ALLOW_THREADS
        mur_flock_step(self->f);
        Py_END_ALLOW_THREADS
        self->busy = 0;
        if (i + 1 < n && PyErr_CheckSignals() < 0)
            return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *f_set(PyObject *obj, PyObject *args)
{
    FlockObject *self = (FlockObject *)obj;
    PyObject *name_o, *value_o;
    if (!PyArg_ParseTuple(args, "OO:set", &name_o, &value_o))
        return NULL;
    const char *name = text_arg(name_o, "a parameter name");
    const char *value = name ? text_arg(value_o, "a parameter value") : NULL;
    if (!value || !usable(self))
        return NULL;
    mur_error err;
    /* check on a copy first: only a count change moves rows, and only that needs the views gone */
    mur_flock_def cur = mur_flock_get_def(self->f), nd = cur;
    if (!mur_def_set(&nd, name, value, &err)) {
        PyErr_SetString(PyExc_ValueError, err.msg);
        return NULL;
    }
    if ((nd.boids != cur.boids || nd.predators != cur.predators) && !may_move(self, "changing the boid or predator count"))
        return NULL;
    if (!mur_flock_set(self->f, name, value, &err)) {
        PyErr_SetString(PyExc_ValueError, err.msg);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *f_get(PyObject *obj, PyObject *args)
{
    FlockObject *self = (FlockObject *)obj;
    PyObject *name_o;
    if (!PyArg_ParseTuple(args, "O:get", &name_o))
        return NULL;
    const char *name = text_arg(name_o, "a parameter name");
    if (!name || !usable(self))
        return NULL;
    mur_flock_def def = mur_flock_get_def(self->f);
    char buf[256];
    if (!mur_def_get(&def, name, buf, sizeof buf)) {
        PyErr_Format(PyExc_ValueError, "unknown parameter '%s' (murmur.parameters() lists them)", name);
        return NULL;
    }
    return PyUnicode_FromString(buf);
}

static PyObject *f_apply_preset(PyObject *obj, PyObject *args)
{
    FlockObject *self = (FlockObject *)obj;
    PyObject *name_o;
    int boids = 0;
    if (!PyArg_ParseTuple(args, "Oi:apply_preset", &name_o, &boids))
        return NULL;
    const char *name = text_arg(name_o, "preset");
    if (!name || !usable(self))
        return NULL;
    mur_error err;
    mur_flock_def nd;
    if (!mur_def_preset(&nd, name, &err)) {
        PyErr_SetString(PyExc_ValueError, err.msg);
        return NULL;
    }
    mur_flock_def cur = mur_flock_get_def(self->f);
    int32_t want = boids > 0 ? boids : nd.boids;
    if ((want != cur.boids || nd.predators != cur.predators) && !may_move(self, "switching to a preset with another boid or predator count"))
        return NULL;
    if (!mur_flock_apply_preset(self->f, name, boids, &err)) {
        PyErr_SetString(PyExc_ValueError, err.msg);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *f_set_boid(PyObject *obj, PyObject *args)
{
    FlockObject *self = (FlockObject *)obj;
    int i, perch = 0;
    float p[3], v[3];
    if (!PyArg_ParseTuple(args, "i(fff)(fff)|i:set_boid", &i, &p[0], &p[1], &p[2], &v[0], &v[1], &v[2], &perch))
        return NULL;
    if (!usable(self))
        return NULL;
    if (!mur_flock_set_boid(self->f, i, p, v, perch)) {
        PyErr_Format(PyExc_ValueError,
                     "murmur: boid %d: index must be in [0, %d), position and velocity finite, perch >= 0", i,
                     (int)mur_flock_view(self->f).boids);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *f_rows(PyObject *obj, PyObject *args)
{
    FlockObject *self = (FlockObject *)obj;
    const char *which;
    if (!PyArg_ParseTuple(args, "s:rows", &which))
        return NULL;
    return murmur_rows_new(self, which);
}

static PyObject *number_of(const char *text)
{
    char *end = NULL;
    long long v = strtoll(text, &end, 10);
    if (*text && end && *end == '\0')
        return PyLong_FromLongLong(v);
    unsigned long long u = strtoull(text, &end, 10);
    if (*text && end && *end == '\0')
        return PyLong_FromUnsignedLongLong(u);
    PyObject *s = PyUnicode_FromString(text);
    if (!s)
        return NULL;
    PyObject *d = PyFloat_FromString(s);
    Py_DECREF(s);
    return d;
}

static int put(PyObject *d, const char *key, PyObject *v)
{
    if (!v)
        return -1;
    int rc = PyDict_SetItemString(d, key, v);
    Py_DECREF(v);
    return rc;
}

/* The biggest group's shape (mur_stats group_*), flattened into d. */
static int put_group(PyObject *d, const mur_stats *s)
{
    static const char *const AX[3] = {"thin", "mid", "long"}, *const XYZ[3] = {"x", "y", "z"};
    char key[64];
    if (put(d, "group_size", PyLong_FromLong(s->group_size)) < 0)
        return -1;
    for (int a = 0; a < 3; a++) {
        snprintf(key, sizeof key, "group_centre_%s", XYZ[a]);
        if (put(d, key, PyFloat_FromDouble(s->group_centre[a])) < 0)
            return -1;
    }
    for (int a = 0; a < 3; a++) {
        snprintf(key, sizeof key, "group_%s", AX[a]);
        if (put(d, key, PyFloat_FromDouble(s->group_extent[a])) < 0)
            return -1;
        for (int c = 0; c < 3; c++) {
            snprintf(key, sizeof key, "group_%s_axis_%s", AX[a], XYZ[c]);
            if (put(d, key, PyFloat_FromDouble(s->group_axis[a][c])) < 0)
                return -1;
        }
    }
    if (put(d, "group_thin_angle", PyFloat_FromDouble(s->group_thin_angle)) < 0)
        return -1;
    return put(d, "group_polarisation", PyFloat_FromDouble(s->group_polarisation));
}

static PyObject *f_measure(PyObject *obj, PyObject *args)
{
    FlockObject *self = (FlockObject *)obj;
    int group = 0;
    if (!PyArg_ParseTuple(args, "|p:measure", &group))
        return NULL;
    if (!usable(self))
        return NULL;
    mur_stats s;
    mur_flock_set_group_shape(self->f, group != 0);
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    s = mur_flock_measure(self->f);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    mur_flock_set_group_shape(self->f, false);
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    const int n = mur_stats_column_count();
    for (int i = 0; i < n; i++) {
        char buf[64];
        if (mur_stats_column_text(&s, i, buf, sizeof buf) < 0)
            continue;
        PyObject *v = number_of(buf);
        if (!v || PyDict_SetItemString(d, mur_stats_column_name(i), v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(v);
    }
    if (group && put_group(d, &s) < 0) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

static PyObject *f_info(PyObject *obj, PyObject *args)
{
    (void)args;
    FlockObject *self = (FlockObject *)obj;
    if (!usable(self))
        return NULL;
    mur_view v = mur_flock_view(self->f);
    mur_stats s = mur_flock_stats(self->f);
    return Py_BuildValue("{s:K,s:i,s:i,s:O,s:d,s:i,s:n,s:K}", "tick", (unsigned long long)v.tick, "boids",
                         (int)v.boids, "predators", (int)v.predators, "predators_on",
                         v.predators_on ? Py_True : Py_False, "step_ms", s.step_ms, "threads",
                         mur_flock_threads(self->f), "memory", (Py_ssize_t)mur_flock_memory(self->f), "hash",
                         (unsigned long long)mur_flock_hash(self->f));
}

static PyObject *f_hash(PyObject *obj, PyObject *args)
{
    (void)args;
    FlockObject *self = (FlockObject *)obj;
    if (!usable(self))
        return NULL;
    return PyLong_FromUnsignedLongLong((unsigned long long)mur_flock_hash(self->f));
}

static PyObject *f_tick(PyObject *obj, PyObject *args)
{
    (void)args;
    FlockObject *self = (FlockObject *)obj;
    if (!usable(self))
        return NULL;
    return PyLong_FromUnsignedLongLong((unsigned long long)mur_flock_view(self->f).tick);
}

static PyObject *f_save(PyObject *obj, PyObject *args)
{
    FlockObject *self = (FlockObject *)obj;
    PyObject *path_o;
    if (!PyArg_ParseTuple(args, "O:save", &path_o))
        return NULL;
    const char *path = text_arg(path_o, "path");
    if (!path || !usable(self))
        return NULL;
    mur_error err;
    bool ok;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    ok = mur_flock_save_csv(self->f, path, &err);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (!ok) {
        PyErr_SetString(PyExc_OSError, err.msg);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *f_set_threads(PyObject *obj, PyObject *args)
{
    FlockObject *self = (FlockObject *)obj;
    int n;
    if (!PyArg_ParseTuple(args, "i:set_threads", &n))
        return NULL;
    if (!usable(self))
        return NULL;
    if (n < 0 || n > 64) {
        PyErr_Format(PyExc_ValueError, "murmur: threads %d out of range (allowed: 0 = all cores, 1..64)", n);
        return NULL;
    }
    mur_flock_set_threads(self->f, n);
    Py_RETURN_NONE;
}

static PyObject *f_set_predators_on(PyObject *obj, PyObject *args)
{
    FlockObject *self = (FlockObject *)obj;
    int on;
    if (!PyArg_ParseTuple(args, "p:set_predators_on", &on))
        return NULL;
    if (!usable(self))
        return NULL;
    mur_flock_set_predators_on(self->f, on != 0);
    Py_RETURN_NONE;
}

static PyObject *f_close(PyObject *obj, PyObject *args)
{
    (void)args;
    FlockObject *self = (FlockObject *)obj;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "murmur: the flock is stepping in another thread");
        return NULL;
    }
    self->closed = 1;
    if (self->exports == 0)
        murmur_free_flock(self);
    Py_RETURN_NONE;
}

static PyObject *f_closed(PyObject *obj, PyObject *args)
{
    (void)args;
    return PyBool_FromLong(((FlockObject *)obj)->closed);
}

/* One step timed from C, as a C program times it (tools/python_step_bench.py --in-process): the wall
 * and the process CPU time around mur_flock_step alone, ms. */
static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static PyObject *f_c_timed_step(PyObject *obj, PyObject *args)
{
    (void)args;
    FlockObject *self = (FlockObject *)obj;
    if (!usable(self))
        return NULL;
    const double c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID), t0 = clock_ms(CLOCK_MONOTONIC);
    mur_flock_step(self->f);
    const double t1 = clock_ms(CLOCK_MONOTONIC), c1 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    return Py_BuildValue("(dd)", t1 - t0, c1 - c0);
}

/* Row addresses, for the tests: they must not change while views are alive. */
static PyObject *f_addresses(PyObject *obj, PyObject *args)
{
    (void)args;
    FlockObject *self = (FlockObject *)obj;
    if (!usable(self))
        return NULL;
    mur_view v = mur_flock_view(self->f);
    return Py_BuildValue("(KKKKKKn)", (unsigned long long)(uintptr_t)v.pos, (unsigned long long)(uintptr_t)v.vel,
                         (unsigned long long)(uintptr_t)v.perch, (unsigned long long)(uintptr_t)v.roll,
                         (unsigned long long)(uintptr_t)v.pred_pos, (unsigned long long)(uintptr_t)v.pred_vel,
                         self->exports);
}

static PyMethodDef flock_methods[] = {
    METH("step", f_step, METH_VARARGS, "step(n=1): advance n ticks"),
    METH("set", f_set, METH_VARARGS, "set(name, text): set a live parameter (the library's syntax)"),
    METH("get", f_get, METH_VARARGS, "get(name) -> text"),
    METH("apply_preset", f_apply_preset, METH_VARARGS, "apply_preset(name, boids): switch a live flock"),
    METH("set_boid", f_set_boid, METH_VARARGS, "set_boid(i, pos, vel, perch=0)"),
    METH("rows", f_rows, METH_VARARGS, "rows(which) -> read-only buffer over one row of the state"),
    METH("measure", f_measure, METH_VARARGS, "measure(group=False) -> dict of the metrics CSV's columns (+ group_*)"),
    METH("info", f_info, METH_NOARGS, "info() -> dict: tick, counts, step time, threads, memory, hash"),
    METH("hash", f_hash, METH_NOARGS, "hash() -> the 64-bit state hash"),
    METH("tick", f_tick, METH_NOARGS, "tick() -> ticks done"),
    METH("save", f_save, METH_VARARGS, "save(path): the state CSV"),
    METH("set_threads", f_set_threads, METH_VARARGS, "set_threads(n): 0 = all cores"),
    METH("set_predators_on", f_set_predators_on, METH_VARARGS, "hide or restore the predators"),
    METH("close", f_close, METH_NOARGS, "free the flock (after the last view is gone)"),
    METH("closed", f_closed, METH_NOARGS, "close() was called"),
    METH("addresses", f_addresses, METH_NOARGS, "row addresses and live exports (tests)"),
    METH("c_timed_step", f_c_timed_step, METH_NOARGS, "one step timed in C: (wall ms, CPU ms) (benchmark)"),
    {NULL, NULL, 0, NULL},
};

static PyTypeObject FlockType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "murmur._murmur.Flock",
    .tp_basicsize = sizeof(FlockObject),
    .tp_dealloc = flock_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A flock of the murmur library (made by create() or load()).",
    .tp_methods = flock_methods,
};

/* ------------------------------------------------------------------ module functions */

static PyObject *m_parameters(PyObject *mod, PyObject *args)
{
    (void)mod;
    (void)args;
    static const char *const TYPES[] = {"int", "float", "switch", "vec3", "enum", "seed"};
    const mur_flock_def def = mur_flock_default_def();
    const int n = mur_param_count();
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (int i = 0; i < n; i++) {
        const mur_param *p = mur_param_at(i);
        char dflt[256] = "";
        mur_def_get(&def, p->name, dflt, sizeof dflt);
        const char *type = (unsigned)p->type < sizeof TYPES / sizeof TYPES[0] ? TYPES[p->type] : "?";
        PyObject *row = Py_BuildValue("{s:s,s:s,s:d,s:d,s:O,s:s,s:z,s:s,s:O,s:s}", "name", p->name, "type", type,
                                      "min", p->min, "max", p->max, "min_open", p->min_open ? Py_True : Py_False,
                                      "unit", p->unit, "choices", p->choices, "meaning", p->meaning, "live",
                                      p->live ? Py_True : Py_False, "default", dflt);
        if (!row) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, row);
    }
    return list;
}

static PyObject *m_presets(PyObject *mod, PyObject *args)
{
    (void)mod;
    (void)args;
    const int n = mur_preset_count();
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *row = Py_BuildValue("(sss)", mur_preset_name(i), mur_preset_summary(i), mur_preset_settings(i));
        if (!row) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, row);
    }
    return list;
}

static PyObject *m_preset_def(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *preset, *pairs;
    if (!PyArg_ParseTuple(args, "OO:preset_def", &preset, &pairs))
        return NULL;
    mur_flock_def def;
    if (!build_def(&def, preset, pairs))
        return NULL;
    const int n = mur_param_count();
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    for (int i = 0; i < n; i++) {
        const char *name = mur_param_at(i)->name;
        char buf[256];
        if (!mur_def_get(&def, name, buf, sizeof buf))
            continue;
        PyObject *v = PyUnicode_FromString(buf);
        if (!v || PyDict_SetItemString(d, name, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(d);
            return NULL;
        }
        Py_DECREF(v);
    }
    return d;
}

static PyObject *m_def_memory(PyObject *mod, PyObject *args)
{
    (void)mod;
    PyObject *preset, *pairs;
    int threads = 0;
    if (!PyArg_ParseTuple(args, "OO|i:def_memory", &preset, &pairs, &threads))
        return NULL;
    mur_flock_def def;
    if (!build_def(&def, preset, pairs))
        return NULL;
    return PyLong_FromSize_t(mur_def_memory(&def, threads < 0 ? 0 : threads, false));
}

static PyMethodDef module_methods[] = {
    METH("label_groups", murmur_label_groups, METH_VARARGS, "label_groups(points, link, labels) -> groups"),
    METH("create", m_create, METH_VARARGS, "create(preset or None, [(name, text), ...]) -> Flock"),
    METH("load", m_load, METH_VARARGS, "load(path, preset or None, [(name, text), ...]) -> Flock"),
    METH("parameters", m_parameters, METH_NOARGS, "the library's parameter table, as dicts"),
    METH("presets", m_presets, METH_NOARGS, "[(name, summary, settings), ...]"),
    METH("preset_def", m_preset_def, METH_VARARGS, "preset_def(preset, pairs) -> {name: text} (checked)"),
    METH("def_memory", m_def_memory, METH_VARARGS, "def_memory(preset, pairs, threads=0) -> bytes"),
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef murmur_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "murmur._murmur",
    .m_doc = "The murmur library's C API for the murmur package (use `import murmur`).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__murmur(void)
{
    if (PyType_Ready(&FlockType) < 0 || PyType_Ready(&murmur_RowsType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&murmur_module);
    if (!m)
        return NULL;
    if (PyModule_AddStringConstant(m, "VERSION", MUR_VERSION_STRING) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
