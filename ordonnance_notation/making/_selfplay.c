/* Self-play in C: the plays of one game between the random and greedy bots
 * (making/heuristics.py), on a table kept by the rules of engine/_rules.h.
 *
 * The bots decide here as heuristics.py decides, and draw their random numbers
 * from the seats' own streams (engine/rng.py): an Rng called back for each
 * choice, or a Stream64 run here from its state, so a game is the same game
 * played here or in Python; the values
 * the greedy bot gives formations are told by playout.py (configure).
 * tests/test_selfplay.py holds the two paths to the same games.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../engine/_analysis.h"
#include "../engine/_rules.h"

enum { RANDOM, GREEDY, CAREFUL };

static int level_value[UNITS + 1]; /* heuristics._LEVEL_VALUE */
static int icon_weight[5];         /* 5 + icon */
static int resolve_bonus;          /* heuristics._RESOLVE_BONUS */
static double dump_value;          /* heuristics._DUMP_VALUE */
static double kept_state_value;    /* heuristics._KEPT_STATE_VALUE */
static int checked_plays;          /* heuristics._CHECKED_PLAYS */

/* heuristics._strength: what an army's icon counts are worth to the greedy bot. */
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

/* A seat's stream: a Python callable (Rng.below), or, with ``call`` NULL,
 * rng.Stream64 from its ``state``: SplitMix64's words, Rng.below's rejection. */
typedef struct {
    PyObject *call;
    uint64_t state;
} stream_t;

/* The next number below ``n`` from a seat's stream: -1 with an exception set. */
static int below(stream_t *stream, int n) {
    if (stream->call == NULL) {
        uint64_t rest = (0 - (uint64_t)n) % (uint64_t)n; /* 2**64 mod n */
        for (;;) {
            uint64_t z = (stream->state += 0x9E3779B97F4A7C15ULL);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
            z ^= z >> 31;
            if (rest == 0 || z < 0 - rest)
                return (int)(z % (uint64_t)n);
        }
    }
    PyObject *got = PyObject_CallFunction(stream->call, "i", n);
    if (got == NULL)
        return -1;
    long value = PyLong_AsLong(got);
    Py_DECREF(got);
    return (int)value;
}

/* analysis.position_as_seen: the table as ``seat`` sees it holding ``held``
 * (by mask), with ``draws`` cards still to draw and every card to come any
 * card; with a ``card`` (else 0), as after it played it to ``state``. */
static void as_seen(position_t *p, const table_t *t, int seat, const int held[32], int draws,
                    int card, int state) {
    position_start(p, t->seats, NULL, NULL, 0, 1, NULL, 0);
    for (int other = 0; other < t->seats; other++) {
        int played = 0;
        for (int s = 0; s < STATES; s++)
            played += t->units[s][other];
        p->seat[other].wild = STATES * UNITS - played;
    }
    for (int mask = 0; mask < 32; mask++)
        p->seat[seat].pool[mask] = (unsigned char)held[mask];
    if (card)
        p->seat[seat].pool[card]--;
    pooled(p, seat);
    p->seat[seat].wild = draws;
    for (int s = 0; s < STATES; s++)
        for (int other = 0; other < t->seats; other++) {
            p->seat[other].base[s] = army_value(t->icons[s][other]);
            p->seat[other].units[s] = t->units[s][other];
            p->seat[other].fourth[s] = t->fourth[s][other];
        }
    if (card) {
        p->seat[seat].base[state] += card_value[card];
        if (++p->seat[seat].units[state] == UNITS)
            p->seat[seat].fourth[state] = t->ply + 1;
    }
}

/* The states of ``among`` (a mask) that ``seat`` can still win in ``p``. */
static int winnable(position_t *p, int seat, int among) {
    int found = 0;
    for (int s = 0; s < STATES; s++)
        if (among >> s & 1 && can_win(p, s, seat))
            found |= 1 << s;
    return found;
}

static int bits(int mask) { return __builtin_popcount((unsigned)mask); }

/* CarefulBot.choose, the plays in ``cards`` x ``states`` (card-major, as its values are kept). */
static int careful(const table_t *t, stream_t *stream, const int held[32], const int *cards,
                   int card_count, const int *states, int state_count, int *card, int *state) {
    int seat = t->ply % t->seats, played = 0;
    for (int s = 0; s < STATES; s++)
        played += t->units[s][seat];
    int turns = STATES * UNITS - played - 1, left = t->pile_size - t->drawn;
    int draws = (left - 1) / t->seats;
    draws = left - 1 < 0 ? 0 : draws < turns ? draws : turns;
    static position_t p;
    as_seen(&p, t, seat, held, draws, 0, 0);
    int live = 0, contested = 0;
    for (int s = 0; s < STATES; s++)
        live |= (t->marker[s] == 0) << s;
    int can = winnable(&p, seat, live);
    for (int s = 0; s < STATES; s++)
        if (can >> s & 1 && winners(&p, s, (1 << t->seats) - 1) != 1 << seat)
            contested |= 1 << s;
    int n = card_count * state_count, greedy[32 * STATES], order[32 * STATES] = {0};
    double value[32 * STATES];
    for (int i = 0; i < card_count; i++) {
        int worth = 0, any = 0;
        for (int j = 0; j < state_count; j++) {
            int g = greedy[i * state_count + j] = greedy_value(t, seat, cards[i], states[j]);
            if (contested >> states[j] & 1 && (!any || g > worth))
                worth = g, any = 1;
        }
        int weight = 0;
        for (int icon = 0; icon < 5; icon++)
            weight += (cards[i] >> icon & 1) * (5 + icon);
        for (int j = 0; j < state_count; j++) {
            int k = i * state_count + j, g = greedy[k];
            if (contested >> states[j] & 1)
                value[k] = g;
            else
                value[k] = dump_value - worth - weight / 10.0 + (g >= resolve_bonus ? resolve_bonus : 0);
        }
    }
    for (int k = 0; k < n; k++)
        order[k] = k;
    if (n == 0)
        return 0;
    for (int i = n - 1; i > 0; i--) { /* Rng.shuffle */
        int j = below(stream, i + 1);
        if (j < 0)
            return 0;
        int swap = order[i];
        order[i] = order[j];
        order[j] = swap;
    }
    for (int i = 1; i < n; i++) { /* sorted by value, highest first, stably */
        int k = order[i], at = i;
        while (at > 0 && value[order[at - 1]] < value[k]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = k;
    }
    int choice = order[0], first = 1;
    double best = 0;
    for (int i = 0; i < n && i < checked_plays; i++) {
        int k = order[i];
        double v = value[k];
        if (!first && v <= best)
            break; /* a play only loses value when tried */
        if (can) {
            as_seen(&p, t, seat, held, draws, cards[k / state_count], states[k % state_count]);
            v -= kept_state_value * bits(can & ~winnable(&p, seat, can));
        }
        if (first || v > best)
            choice = k, best = v, first = 0;
    }
    *card = cards[choice / state_count];
    *state = states[choice % state_count];
    return 1;
}

/* The seat to move chooses its play: 1, or 0 with an exception set. */
static int choose(const table_t *t, int kind, stream_t *stream, int *card, int *state) {
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
    if (kind == CAREFUL)
        return careful(t, stream, held, cards, card_count, states, state_count, card, state);
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

/* The card masks of ``sequence`` in ``out``: how many, or -1 with an
 * exception set. More than ``most`` is an error, but with ``first``: then
 * the first ``most`` are read. */
static int masks(PyObject *sequence, unsigned char *out, int most, int first, const char *what) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(sequence);
    if (n > most && !first) {
        PyErr_Format(PyExc_ValueError, "%s: more than %d cards", what, most);
        return -1;
    }
    if (n > most)
        n = most;
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

_Static_assert(MAX_PILE > 2 * MAX_PLIES, "a pile cut to MAX_PILE keeps more than any seat draws");

/* Deals ``hands`` and ``pile`` (card masks) to ``t`` and reads a bot a
 * seat: 1, or 0 with an exception set. */
static int dealt(table_t *t, PyObject *hands, PyObject *pile, PyObject *kinds, PyObject *streams,
                 int kind[MAX_SEATS], stream_t stream[MAX_SEATS]) {
    int seats = (int)PyTuple_GET_SIZE(hands);
    if (seats < 2 || seats > MAX_SEATS || PyTuple_GET_SIZE(kinds) != seats ||
        PyTuple_GET_SIZE(streams) != seats) {
        PyErr_Format(PyExc_ValueError, "2 to 4 seats, each with a hand, a bot, a stream");
        return 0;
    }
    memset(t->hand, 0, sizeof t->hand);
    for (int s = 0; s < seats; s++) {
        unsigned char cards[HAND_SIZE * 4];
        PyObject *hand = PySequence_Fast(PyTuple_GET_ITEM(hands, s), "a hand is a sequence");
        if (hand == NULL)
            return 0;
        int n = masks(hand, cards, (int)sizeof cards, 0, "a hand");
        Py_DECREF(hand);
        if (n < 0)
            return 0;
        for (int i = 0; i < n; i++)
            t->hand[s][cards[i]]++;
        PyObject *given = PyTuple_GET_ITEM(streams, s);
        stream[s].call = PyLong_Check(given) ? NULL : given;
        stream[s].state = stream[s].call ? 0 : PyLong_AsUnsignedLongLongMask(given);
        kind[s] = (int)PyLong_AsLong(PyTuple_GET_ITEM(kinds, s));
        if (kind[s] != RANDOM && kind[s] != GREEDY && kind[s] != CAREFUL) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "no such bot");
            return 0;
        }
    }
    PyObject *cards = PySequence_Fast(pile, "the pile is a sequence");
    if (cards == NULL)
        return 0;
    /* A pile of any size (a deck file may hold thousands of cards) is played
     * as its first MAX_PILE cards: no seat draws past the first MAX_PLIES,
     * and of the rest a bot asks only whether more are left than it can
     * still draw (careful's draws to come), as MAX_PILE - MAX_PLIES are. */
    t->pile_size = masks(cards, t->pile, MAX_PILE, 1, "the pile");
    t->drawn = 0;
    Py_DECREF(cards);
    return t->pile_size >= 0;
}

/* The bots play ``t`` to its end; each play is appended to ``made`` if it is
 * not NULL. 1, or 0 with an exception set. */
static int played_on(table_t *t, const int kind[MAX_SEATS], stream_t stream[MAX_SEATS],
                     PyObject *made) {
    while (t->resolved < STATES) {
        int seat = t->ply % t->seats, card, state;
        if (!choose(t, kind[seat], &stream[seat], &card, &state))
            return 0;
        if (!play(t, card, state, -1, 0)) {
            PyErr_SetString(PyExc_RuntimeError, "a bot chose an illegal play");
            return 0;
        }
        if (made != NULL) {
            PyObject *pair = Py_BuildValue("(ii)", card, state);
            if (pair == NULL || PyList_Append(made, pair) < 0) {
                Py_XDECREF(pair);
                return 0;
            }
            Py_DECREF(pair);
        }
    }
    return 1;
}

static PyObject *plays(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *hands, *pile, *kinds, *streams;
    if (!PyArg_ParseTuple(args, "O!O!O!O!:plays", &PyTuple_Type, &hands, &PyTuple_Type, &pile,
                          &PyTuple_Type, &kinds, &PyTuple_Type, &streams))
        return NULL;
    static table_t t;
    memset(&t, 0, sizeof t);
    t.seats = (int)PyTuple_GET_SIZE(hands);
    int kind[MAX_SEATS];
    stream_t stream[MAX_SEATS];
    if (!dealt(&t, hands, pile, kinds, streams, kind, stream))
        return NULL;
    PyObject *made = PyList_New(0);
    if (made == NULL)
        return NULL;
    if (!played_on(&t, kind, stream, made)) {
        Py_DECREF(made);
        return NULL;
    }
    return made;
}

static PyObject *played_out(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *prefix, *hands, *pile, *kinds, *streams, *table = NULL;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!|O!:played_out", &PyTuple_Type, &prefix, &PyTuple_Type,
                          &hands, &PyTuple_Type, &pile, &PyTuple_Type, &kinds, &PyTuple_Type,
                          &streams, &PyTuple_Type, &table))
        return NULL;
    int points[MAX_SEATS] = {0}, point_count = table == NULL ? 0 : (int)PyTuple_GET_SIZE(table);
    if (point_count > MAX_SEATS)
        return PyErr_Format(PyExc_ValueError, "points for %d places at most", MAX_SEATS);
    for (int i = 0; i < point_count; i++) {
        points[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(table, i));
        if (points[i] == -1 && PyErr_Occurred())
            return NULL;
    }
    static table_t t;
    memset(&t, 0, sizeof t);
    t.seats = (int)PyTuple_GET_SIZE(hands);
    if (t.seats < 2 || t.seats > MAX_SEATS)
        return PyErr_Format(PyExc_ValueError, "2 to 4 seats");
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(prefix); i++) {
        int card, state;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(prefix, i), "ii", &card, &state))
            return NULL;
        if (card < 1 || card > 31 || state < 0 || state >= STATES)
            return PyErr_Format(PyExc_ValueError, "ply %zd: no such card or state", i + 1);
        t.hand[t.ply % t.seats][card]++; /* the table's plays: held when played */
        if (!play(&t, card, state, -1, 0))
            return PyErr_Format(PyExc_ValueError, "ply %zd cannot be played", i + 1);
    }
    int kind[MAX_SEATS];
    stream_t stream[MAX_SEATS];
    if (!dealt(&t, hands, pile, kinds, streams, kind, stream) ||
        !played_on(&t, kind, stream, NULL))
        return NULL;
    outcome_t o;
    score(&t, table == NULL ? NULL : points, point_count, &o);
    PyObject *states = PyTuple_New(t.seats);
    if (states == NULL)
        return NULL;
    for (int s = 0; s < t.seats; s++)
        PyTuple_SET_ITEM(states, s, PyLong_FromLong(o.states[s]));
    return Py_BuildValue("(iN)", o.winner, states);
}

static PyObject *configure(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *levels, *weights, *packed;
    int bonus;
    if (!PyArg_ParseTuple(args, "O!O!iddiO!:configure", &PyTuple_Type, &levels, &PyTuple_Type,
                          &weights, &bonus, &dump_value, &kept_state_value, &checked_plays,
                          &PyTuple_Type, &packed))
        return NULL;
    if (PyTuple_GET_SIZE(levels) != UNITS + 1 || PyTuple_GET_SIZE(weights) != 5 ||
        PyTuple_GET_SIZE(packed) != 32)
        return PyErr_Format(PyExc_ValueError,
                            "a value a level (0 to 4), a weight an icon, 32 packed cards");
    for (int i = 0; i <= UNITS; i++)
        level_value[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(levels, i));
    for (int i = 0; i < 5; i++)
        icon_weight[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(weights, i));
    for (int i = 0; i < 32; i++)
        analysis_packed[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(packed, i));
    resolve_bonus = bonus;
    if (PyErr_Occurred())
        return NULL;
    ranks_made();
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"plays", plays, METH_VARARGS,
     "plays(hands, pile, bots, streams) -> [(card mask, state index), ...]\n\n"
     "The plays of one game from its deal (card masks), a bot a seat (0 random,\n"
     "1 greedy, 2 careful) and a seat's stream each: Rng.below, or a Stream64's state."},
    {"played_out", played_out, METH_VARARGS,
     "played_out(prefix, hands, pile, bots, streams[, points]) -> (winner, states by seat)\n\n"
     "The game after the plays of ``prefix`` ((card mask, state index), ...),\n"
     "the seats then holding ``hands`` and the pile ``pile``, played to its end\n"
     "by the bots (classic scoring, or points by place; winner -1: shared)."},
    {"configure", configure, METH_VARARGS,
     "configure(level_values, icon_weights, resolve_bonus, dump_value, kept_state_value,\n"
     "          checked_plays, packed): the bots' values (heuristics.bot_values()) and\n"
     "armies.PACKED."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_selfplay", "Self-play in C (see making/playout.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__selfplay(void) { return PyModule_Create(&module); }
