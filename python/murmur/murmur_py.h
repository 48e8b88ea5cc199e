/* Shared by the two files of murmur._murmur: _murmur.c (the module, the Flock type) and rows.c (the
 * zero-copy views and label_groups). Private to the extension. */
#ifndef MURMUR_PY_H
#define MURMUR_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#include "murmur/murmur.h"

/// A flock as Python holds it (_murmur.c's rules: exports, layout, busy, closed).
typedef struct {
    PyObject_HEAD
    mur_flock *f;
    Py_ssize_t exports; ///< live buffer exports of its rows
    uint64_t layout;    ///< bumped whenever the rows may have moved
    int busy;           ///< a step runs without the GIL
    int closed;         ///< close() called (f freed once exports reach 0)
} FlockObject;

/// Free the library's flock (once: f is NULL afterwards).
static inline void murmur_free_flock(FlockObject *self)
{
    mur_flock_destroy(self->f);
    self->f = NULL;
}

/// The Rows type (rows.c).
extern PyTypeObject murmur_RowsType;
/// A Rows object over row `which` ("pos", "vel", "perch", "roll", "pred_pos", "pred_vel") of self.
PyObject *murmur_rows_new(FlockObject *self, const char *which);
/// label_groups(points, link, labels) -> groups (the module function).
PyObject *murmur_label_groups(PyObject *mod, PyObject *args);

#define METH(name, fn, flags, doc) {name, (PyCFunction)(void (*)(void))(fn), flags, doc}

#endif
