/* Self-play in C: the plays of one game between the random and greedy bots
 * (making/bots.py), on a table kept by the rules of engine/_rules.h.
 *
 * The bots decide here as bots.py decides, and draw their random numbers
 * from the seats' own streams (engine/rng.py), called back for each
 * choice, so a game is the same game played here or in Python; the values
 * the greedy bot gives formations are told by bots.py (configure).
 * tests/test_selfplay.py holds the two paths to the same games.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../engine/_rules.h"

enum { RANDOM, GREEDY };

static int level_value[UNITS + 1]; /* bots._LEVEL_VALUE */
static int icon_weight[5];         /* 5 + icon */
static int resolve_bonus;          /* bots._RESOLVE_BONUS */

/* bots._strength: what an army's icon counts are worth to the greedy bot. */
static int worth(const int icons[5]) {
    int total = 0;
    for (int icon = 0; icon < 5; icon++)
        total += level_value[icons[icon] < UNITS ? icons[icon] : UNITS] * icon_weight[icon];
    return total;
}

/* GreedyBot._value: what playing ``card`` to ``state`` adds for ``seat``. */
static int greedy_value(const table_t *t, int seat, int card, int state) {
    int after[5];
    for (int icon = 0; icon < 5; icon++)
        after[icon] = t->icons[state][seat][icon] + (card >> icon & 1);
    int value = worth(after) - worth(t->icons[state][seat]);
    if (t->units[state][seat] + 1 < UNITS)
        return value;
    int mine = strength(after), first = 1;
    for (int other = 0; other < t->seats; other++) {
        if (other == seat)
            continue;
        if (t->units[state][other] < UNITS)
            return value;
        /* the others' fourth cards came earlier: equal formations rank them first */
        if (strength(t->icons[state][other]) >= mine)
            first = 0;
    }
    return value + (first ? resolve_bonus : -resolve_bonus);
}

/* The next number below ``n`` from a seat's stream (Rng.below). */
static int below(PyObject *stream, int n) {
    PyObject *got = PyObject_CallFunction(stream, "i", n);
    if (got == NULL)
        return -1;
    long value = PyLong_AsLong(got);
    Py_DECREF(got);
    return (int)value;
}

/* The seat to move chooses its play: 1, or 0 with an exception set. */
static int choose(const table_t *t, int kind, PyObject *stream, int *card, int *state) {
    int seat = t->ply % t->seats;
    int held[32];
    memcpy(held, t->hand[seat], sizeof held);
    if (t->drawn < t->pile_size)
        held[t->pile[t->drawn]]++;
    int cards[32], card_count = 0, states[STATES], state_count = 0;
    for (int mask = 1; mask < 32; mask++)
        if (held[mask] > 0)
            cards[card_count++] = mask;
    for (int s = 0; s < STATES; s++)
        if (t->units[s][seat] < UNITS)
            states[state_count++] = s;
    if (card_count == 0 || state_count == 0) {
        PyErr_SetString(PyExc_RuntimeError, "a seat to move with no card or no open state");
        return 0;
    }
    if (kind == RANDOM) {
        int i = below(stream, card_count);
        if (i < 0)
            return 0;
        int j = below(stream, state_count);
        if (j < 0)
            return 0;
        *card = cards[i], *state = states[j];
        return 1;
    }
    int best[32 * STATES][2], best_count = 0, best_value = 0;
    for (int i = 0; i < card_count; i++)
        for (int j = 0; j < state_count; j++) {
            int value = greedy_value(t, seat, cards[i], states[j]);
            if (best_count == 0 || value > best_value)
                best_count = 0, best_value = value;
            if (value == best_value) {
                best[best_count][0] = cards[i];
                best[best_count][1] = states[j];
                best_count++;
            }
        }
    int k = below(stream, best_count);
    if (k < 0)
        return 0;
    *card = best[k][0], *state = best[k][1];
    return 1;
}

static int masks(PyObject *sequence, unsigned char *out, int most, const char *what) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(sequence);
    if (n > most) {
        PyErr_Format(PyExc_ValueError, "%s: more than %d cards", what, most);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long mask = PyLong_AsLong(PySequence_Fast_GET_ITEM(sequence, i));
        if (mask < 1 || mask > 31) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "%s: %ld is no card", what, mask);
            return -1;
        }
        out[i] = (unsigned char)mask;
    }
    return (int)n;
}

static PyObject *plays(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *hands, *pile, *kinds, *streams;
    if (!PyArg_ParseTuple(args, "O!O!O!O!:plays", &PyTuple_Type, &hands, &PyTuple_Type, &pile,
                          &PyTuple_Type, &kinds, &PyTuple_Type, &streams))
        return NULL;
    int seats = (int)PyTuple_GET_SIZE(hands);
    if (seats < 2 || seats > MAX_SEATS || PyTuple_GET_SIZE(kinds) != seats ||
        PyTuple_GET_SIZE(streams) != seats)
        return PyErr_Format(PyExc_ValueError, "2 to 4 seats, each with a hand, a bot, a stream");
    static table_t t;
    memset(&t, 0, sizeof t);
    t.seats = seats;
    int kind[MAX_SEATS];
    for (int s = 0; s < seats; s++) {
        unsigned char cards[HAND_SIZE * 4];
        PyObject *hand = PySequence_Fast(PyTuple_GET_ITEM(hands, s), "a hand is a sequence");
        if (hand == NULL)
            return NULL;
        int n = masks(hand, cards, (int)sizeof cards, "a hand");
        Py_DECREF(hand);
        if (n < 0)
            return NULL;
        for (int i = 0; i < n; i++)
            t.hand[s][cards[i]]++;
        kind[s] = (int)PyLong_AsLong(PyTuple_GET_ITEM(kinds, s));
        if (kind[s] != RANDOM && kind[s] != GREEDY)
            return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "no such bot");
    }
    PyObject *cards = PySequence_Fast(pile, "the pile is a sequence");
    if (cards == NULL)
        return NULL;
    t.pile_size = masks(cards, t.pile, MAX_PILE, "the pile");
    Py_DECREF(cards);
    if (t.pile_size < 0)
        return NULL;
    PyObject *made = PyList_New(0);
    if (made == NULL)
        return NULL;
    while (t.resolved < STATES) {
        int seat = t.ply % seats, card, state;
        if (!choose(&t, kind[seat], PyTuple_GET_ITEM(streams, seat), &card, &state))
            goto fail;
        if (!play(&t, card, state, -1, 0)) {
            PyErr_SetString(PyExc_RuntimeError, "a bot chose an illegal play");
            goto fail;
        }
        PyObject *pair = Py_BuildValue("(ii)", card, state);
        if (pair == NULL || PyList_Append(made, pair) < 0) {
            Py_XDECREF(pair);
            goto fail;
        }
        Py_DECREF(pair);
    }
    return made;
fail:
    Py_DECREF(made);
    return NULL;
}

static PyObject *configure(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *levels, *weights;
    int bonus;
    if (!PyArg_ParseTuple(args, "O!O!i:configure", &PyTuple_Type, &levels, &PyTuple_Type,
                          &weights, &bonus))
        return NULL;
    if (PyTuple_GET_SIZE(levels) != UNITS + 1 || PyTuple_GET_SIZE(weights) != 5)
        return PyErr_Format(PyExc_ValueError, "a value a level (0 to 4), a weight an icon");
    for (int i = 0; i <= UNITS; i++)
        level_value[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(levels, i));
    for (int i = 0; i < 5; i++)
        icon_weight[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(weights, i));
    resolve_bonus = bonus;
    if (PyErr_Occurred())
        return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"plays", plays, METH_VARARGS,
     "plays(hands, pile, bots, streams) -> [(card mask, state index), ...]\n\n"
     "The plays of one game from its deal (card masks), a bot a seat (0 random,\n"
     "1 greedy) and a seat's stream (Rng.below) each."},
    {"configure", configure, METH_VARARGS,
     "configure(level_values, icon_weights, resolve_bonus): the greedy bot's values."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_selfplay", "Self-play in C (see making/selfplay.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__selfplay(void) { return PyModule_Create(&module); }
