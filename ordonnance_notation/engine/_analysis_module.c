/* The analysis of engine/analysis.py in C, for any game (engine/_analysis.h):
 * analysis.analyse calls it where it was built, for what it can hold. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_analysis.h"
#include "_analysis_py.h"

static PyObject *configure(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *packed;
    if (!PyArg_ParseTuple(args, "O!:configure", &PyTuple_Type, &packed))
        return NULL;
    if (PyTuple_GET_SIZE(packed) != 32)
        return PyErr_Format(PyExc_ValueError, "32 packed cards");
    for (int i = 0; i < 32; i++)
        analysis_packed[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(packed, i));
    if (PyErr_Occurred())
        return NULL;
    return ranks_tuple();
}

static int cards_of(PyObject *bytes, unsigned char *out, Py_ssize_t most, Py_ssize_t *n) {
    char *data;
    if (PyBytes_AsStringAndSize(bytes, &data, n) < 0)
        return 0;
    if (*n > most) {
        PyErr_SetString(PyExc_ValueError, "more cards than the core holds");
        return 0;
    }
    for (Py_ssize_t i = 0; i < *n; i++) {
        out[i] = (unsigned char)data[i];
        if (out[i] < 1 || out[i] > 31) {
            PyErr_SetString(PyExc_ValueError, "a card mask is 1 to 31");
            return 0;
        }
    }
    return 1;
}

static PyObject *analyse(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *hands, *pile, *plays, *points;
    int draws_known;
    if (!PyArg_ParseTuple(args, "OO!pO!O:analyse", &hands, &PyBytes_Type, &pile, &draws_known,
                          &PyBytes_Type, &plays, &points))
        return NULL;
    static unsigned char dealt[MAX_SEATS][HAND_SIZE], heap[MAX_PILE];
    static unsigned char cards[MAX_PLIES], states[MAX_PLIES];
    int seats, table[MAX_SEATS], count = 0;
    Py_ssize_t n;
    if (PyLong_Check(hands)) {
        seats = (int)PyLong_AsLong(hands);
        hands = NULL;
    } else if (PyTuple_Check(hands)) {
        seats = (int)PyTuple_GET_SIZE(hands);
        for (int s = 0; s < seats && s < MAX_SEATS; s++) {
            if (!cards_of(PyTuple_GET_ITEM(hands, s), dealt[s], HAND_SIZE, &n))
                return NULL;
            if (n != HAND_SIZE)
                return PyErr_Format(PyExc_ValueError, "a hand of %d cards", HAND_SIZE);
        }
    } else {
        return PyErr_Format(PyExc_TypeError, "the hands or the number of seats");
    }
    if (seats < 2 || seats > MAX_SEATS)
        return PyErr_Format(PyExc_ValueError, "2 to 4 seats");
    if (!cards_of(pile, heap, MAX_PILE, &n))
        return NULL;
    int pile_size = (int)n;
    char *codes;
    if (PyBytes_AsStringAndSize(plays, &codes, &n) < 0)
        return NULL;
    if (n > MAX_PLIES)
        return PyErr_Format(PyExc_ValueError, "more plays than a game holds");
    for (; count < n; count++) {
        int code = (unsigned char)codes[count];
        cards[count] = (unsigned char)(code >> 3);
        states[count] = (unsigned char)((code & 7) - 1);
        if (cards[count] == 0 || states[count] >= STATES)
            return PyErr_Format(PyExc_ValueError, "a play is card << 3 | state (1 to 5)");
    }
    if (points != Py_None) {
        if (!PyTuple_Check(points) || PyTuple_GET_SIZE(points) > MAX_SEATS)
            return PyErr_Format(PyExc_ValueError, "a points table of up to four places");
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(points); i++)
            table[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(points, i));
        if (PyErr_Occurred())
            return NULL;
    }
    int point_count = points == Py_None ? 0 : (int)PyTuple_GET_SIZE(points);
    static position_t p;
    static analysis_t a;
    position_start(&p, seats, hands == NULL ? NULL : (const unsigned char(*)[HAND_SIZE])dealt,
                   heap, hands == NULL ? 0 : pile_size, draws_known,
                   points == Py_None ? NULL : table, point_count);
    analyse_plays(&p, cards, states, count, &a);
    if (a.spilt)
        Py_RETURN_NONE; /* analysis.py analyses it */
    return analysis_found(&a, cards, states, count);
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS,
     "configure(packed) -> ranks\n\n"
     "armies.PACKED as a tuple: called once before analyse. Gives back the\n"
     "ranks of armies it made (analysis.RANKS)."},
    {"analyse", analyse, METH_VARARGS,
     "analyse(hands or seats, pile, draws_known, plays, points) -> found\n\n"
     "analysis.analyse: the hands as bytes of card masks (or the number of\n"
     "seats: no deal), the pile as bytes, the plays as bytes of card << 3 |\n"
     "state, the points table (None: classic scoring). What it found is read\n"
     "by decisions.from_core; None when it cannot tell (analysis.py can)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_analysis", "The analysis in C (see engine/analysis.py).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__analysis(void) { return PyModule_Create(&module); }
