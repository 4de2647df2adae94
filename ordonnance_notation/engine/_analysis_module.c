/* The analysis of engine/analysis.py in C, for any game (engine/_analysis.h):
 * analysis.analyse calls it where it was built, for what it can hold; and
 * best play at two seats (engine/_bestplay.h), which bestplay.Solver calls. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_analysis.h"
#include "_analysis_py.h"
#include "_bestplay.h"

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

_Static_assert(MAX_PILE >= MAX_PLIES, "a pile's first MAX_PILE cards hold every card drawn");

/* The card masks of ``bytes`` in ``out``, ``n`` of them: 0 with an
 * exception set. More than ``most`` is an error, but for a pile, which may
 * hold any number (a deck file may list thousands of cards): its first
 * MAX_PILE are read, as no seat draws past the first MAX_PLIES, and neither
 * the analysis nor the search asks more of it. */
static int cards_of(PyObject *bytes, unsigned char *out, Py_ssize_t most, int pile,
                    Py_ssize_t *n) {
    char *data;
    if (PyBytes_AsStringAndSize(bytes, &data, n) < 0)
        return 0;
    if (*n > most && !pile) {
        PyErr_SetString(PyExc_ValueError, "more cards than the core holds");
        return 0;
    }
    if (*n > most)
        *n = most;
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
            if (!cards_of(PyTuple_GET_ITEM(hands, s), dealt[s], HAND_SIZE, 0, &n))
                return NULL;
            if (n != HAND_SIZE)
                return PyErr_Format(PyExc_ValueError, "a hand of %d cards", HAND_SIZE);
        }
    } else {
        return PyErr_Format(PyExc_TypeError, "the hands or the number of seats");
    }
    if (seats < 2 || seats > MAX_SEATS)
        return PyErr_Format(PyExc_ValueError, "2 to 4 seats");
    if (!cards_of(pile, heap, MAX_PILE, 1, &n))
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
    analyse_plays(&p, cards, states, count, &a, 1);
    if (a.spilt)
        Py_RETURN_NONE; /* analysis.py analyses it */
    return analysis_found(&a, cards, states, count);
}


/* 32 counts by mask, from bytes. */
static int counts_from(PyObject *bytes, int out[32]) {
    char *data;
    Py_ssize_t n;
    if (!PyBytes_Check(bytes) || PyBytes_AsStringAndSize(bytes, &data, &n) < 0 || n != 32) {
        PyErr_SetString(PyExc_ValueError, "32 counts by card mask");
        return 0;
    }
    for (int mask = 0; mask < 32; mask++)
        out[mask] = (unsigned char)data[mask];
    return 1;
}

static bp_search_t solver;
static int solver_open;
static long long solver_game = -1; /* whose tables the solver holds */

/* The board of a position told by bestplay.Board: 0 with an exception set. */
static int board_from(bp_board_t *b, PyObject *cards, int ply, PyObject *pile, PyObject *hands,
                      PyObject *pools, PyObject *armies, PyObject *markers, PyObject *leaders) {
    static unsigned char heap[MAX_PILE];
    Py_ssize_t n;
    memset(b, 0, sizeof *b);
    if (!PyTuple_Check(cards) || !PyTuple_Check(hands) || !PyTuple_Check(pools) ||
        PyTuple_GET_SIZE(cards) < 2 || PyTuple_GET_SIZE(cards) > BP_SEATS ||
        PyTuple_GET_SIZE(hands) != PyTuple_GET_SIZE(cards) ||
        PyTuple_GET_SIZE(pools) != PyTuple_GET_SIZE(cards)) {
        PyErr_SetString(PyExc_ValueError, "two to four seats' cards, hands and pools");
        return 0;
    }
    int seats = b->seats = (int)PyTuple_GET_SIZE(cards);
    if (!cards_of(pile, heap, MAX_PILE, 1, &n))
        return 0;
    b->pile = heap;
    b->pile_size = (int)n;
    b->ply = ply;
    for (int seat = 0; seat < seats; seat++) {
        int all[32], at = 0;
        if (!counts_from(PyTuple_GET_ITEM(cards, seat), all) ||
            !counts_from(PyTuple_GET_ITEM(hands, seat), b->hand[seat]) ||
            !counts_from(PyTuple_GET_ITEM(pools, seat), b->pool[seat]))
            return 0;
        for (int mask = 0; mask < 32; mask++) {
            if (b->pool[seat][mask] > all[mask] || b->hand[seat][mask] > b->pool[seat][mask] ||
                (mask == 0 && all[0])) {
                PyErr_SetString(PyExc_ValueError, "a pool holds no more than the seat's cards");
                return 0;
            }
            b->offset[seat][mask] = at;
            at += all[mask];
            for (int i = 0; i < b->pool[seat][mask]; i++)
                b->bits[seat] |= 1u << (b->offset[seat][mask] + i);
        }
        if (at > 32) {
            PyErr_SetString(PyExc_ValueError, "more than 32 cards a seat");
            return 0;
        }
    }
    if (!PyTuple_Check(armies) || PyTuple_GET_SIZE(armies) != STATES * seats * 3 ||
        !PyTuple_Check(markers) || PyTuple_GET_SIZE(markers) != STATES || !PyTuple_Check(leaders) ||
        PyTuple_GET_SIZE(leaders) > STATES) {
        PyErr_SetString(PyExc_ValueError,
                        "each army as packed icons, units and fourth; markers; leaders");
        return 0;
    }
    b->resolved = (int)PyTuple_GET_SIZE(leaders);
    for (int m = 0; m < b->resolved; m++) {
        b->captured[m] = (int)PyLong_AsLong(PyTuple_GET_ITEM(leaders, m));
        if (b->captured[m] < 0 || b->captured[m] >= seats) {
            PyErr_SetString(PyExc_ValueError, "a leader is a seat");
            return 0;
        }
        b->won[b->captured[m]]++;
    }
    for (int i = 0; i < STATES; i++) {
        b->marker[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(markers, i));
        if (b->marker[i] < 0 || b->marker[i] > b->resolved) {
            PyErr_SetString(PyExc_ValueError, "a marker names a leader");
            return 0;
        }
        b->winner[i] = b->marker[i] ? b->captured[b->marker[i] - 1] : -1;
        for (int seat = 0; seat < seats; seat++) {
            PyObject **item = &PyTuple_GET_ITEM(armies, (i * seats + seat) * 3);
            int icons[5];
            long packed = PyLong_AsLong(item[0]);
            if (packed < 0 || packed >= RANK_SIZE || !counts_of((int)packed, icons)) {
                PyErr_SetString(PyExc_ValueError, "an army of four cards or fewer");
                return 0;
            }
            b->base[i][seat] = army_value(icons);
            b->units[i][seat] = (int)PyLong_AsLong(item[1]);
            b->fourth[i][seat] = (int)PyLong_AsLong(item[2]);
        }
    }
    return !PyErr_Occurred();
}

/* The search's Budget.watched (NULL or None: none), which asks Budget.watch when it is time. */
static PyObject *watch;

/* Whether a signal's handler raised (Ctrl-C: KeyboardInterrupt) or the
 * watch did: asked by the search now and then, so that a long one ends at once. */
static int signalled(void) {
    if (PyErr_CheckSignals() < 0)
        return 1;
    if (watch == NULL || watch == Py_None)
        return 0;
    PyObject *said = PyObject_CallNoArgs(watch);
    if (said == NULL)
        return 1;
    Py_DECREF(said);
    return 0;
}

/* bp_search of ``question`` on the position told by bestplay.Board (see Solver._asked). */
static PyObject *searched(PyObject *args, const char *format, int (*question)(bp_search_t *, int)) {
    long long game, most;
    int ply, of;
    double seconds;
    PyObject *cards, *pile, *hands, *pools, *armies, *markers, *leaders, *asked = Py_None;
    if (!PyArg_ParseTuple(args, format, &game, &cards, &ply, &PyBytes_Type, &pile, &hands, &pools,
                          &armies, &markers, &leaders, &of, &most, &seconds, &asked))
        return NULL;
    if (!solver_open && !(solver_open = bp_open(&solver)))
        return PyErr_NoMemory();
    bp_board_t board;
    if (!board_from(&board, cards, ply, pile, hands, pools, armies, markers, leaders))
        return NULL;
    if ((question == bp_at_least) != (board.seats == 2) || of < 0 ||
        (question == bp_wins && of >= board.seats)) {
        PyErr_SetString(PyExc_ValueError,
                        "at_least asks of two seats, wins of a seat of more, selfish of more");
        return NULL;
    }
    if (game != solver_game)
        bp_forget(&solver);
    solver_game = game;
    solver.board = board;
    solver.interrupted = signalled;
    watch = asked;
    int found = bp_search(&solver, question, of, most, seconds);
    watch = NULL;
    if (found == -2)
        return NULL; /* the handler's exception (KeyboardInterrupt), set by PyErr_CheckSignals */
    return Py_BuildValue("iL", found, solver.nodes);
}

static PyObject *at_least(PyObject *module, PyObject *args) {
    (void)module;
    return searched(args, "LOiO!OOOOOiLd|O:at_least", bp_at_least);
}

static PyObject *wins(PyObject *module, PyObject *args) {
    (void)module;
    return searched(args, "LOiO!OOOOOiLd|O:wins", bp_wins);
}

static PyObject *selfish(PyObject *module, PyObject *args) {
    (void)module;
    return searched(args, "LOiO!OOOOOiLd|O:selfish", bp_selfish_of);
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
    {"at_least", at_least, METH_VARARGS,
     "at_least(game, cards, ply, pile, hands, pools, armies, markers, leaders, v, most, seconds,\n"
     "watch=None) -> (found, positions)\n\n"
     "bestplay.Solver.at_least at two seats: whether P1 gets v states or more\n"
     "with best play (1, 0; -1: the budget of ``most`` positions or ``seconds``\n"
     "ran out, -1: none). ``game`` names the tables kept from one call to the\n"
     "next; the rest is bestplay.Board's position (see Solver._asked)."},
    {"wins", wins, METH_VARARGS,
     "wins(game, cards, ply, pile, hands, pools, armies, markers, leaders, seat, most, seconds,\n"
     "watch=None) -> (found, positions)\n\n"
     "bestplay.Solver.wins at three and four seats, classic scoring: whether\n"
     "``seat`` wins with best play against all the others together; the rest\n"
     "as at_least."},
    {"selfish", selfish, METH_VARARGS,
     "selfish(game, cards, ply, pile, hands, pools, armies, markers, leaders, 0, most, seconds,\n"
     "watch=None) -> (found, positions)\n\n"
     "bestplay.Solver.selfish at three and four seats, classic scoring: what\n"
     "best play gives each seat when every seat plays for itself, as each\n"
     "seat's states in 3 bits (P1 lowest) and the winner + 1 from bit 12; the\n"
     "rest as at_least."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_analysis", "The analysis in C (see engine/analysis.py).", -1,
    methods, NULL, NULL, NULL, NULL,
};

/* What the core holds (_rules.h), for tests/test_analysis.py to hold to
 * the engine's constants: analysis.py hands it no more. */
PyMODINIT_FUNC PyInit__analysis(void) {
    PyObject *made = PyModule_Create(&module);
    if (made == NULL)
        return NULL;
    if (PyModule_AddIntConstant(made, "MAX_SEATS", MAX_SEATS) < 0 ||
        PyModule_AddIntConstant(made, "HAND_SIZE", HAND_SIZE) < 0 ||
        PyModule_AddIntConstant(made, "MAX_PILE", MAX_PILE) < 0 ||
        PyModule_AddIntConstant(made, "MAX_PLIES", MAX_PLIES) < 0) {
        Py_DECREF(made);
        return NULL;
    }
    return made;
}
