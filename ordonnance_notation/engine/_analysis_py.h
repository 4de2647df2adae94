/* The analysis of engine/_analysis.h as Python values: what the compiled
 * paths give back (engine/decisions.from_core reads it). Included by the
 * C extensions after Python.h. */
#ifndef ORDO_ANALYSIS_PY_H
#define ORDO_ANALYSIS_PY_H

#include "_analysis.h"

static PyObject *maybe(int value) {
    return value < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(value);
}

/* A play as one byte: the card's mask, then the state (1 to 5) in three bits. */
static int play_code(int card, int state) { return card << 3 | (state + 1); }

static PyObject *losses_of(const analysis_t *a, int target) {
    PyObject *losses = PyTuple_New(a->losses[target]);
    if (losses == NULL)
        return NULL;
    for (int i = 0; i < a->losses[target]; i++) {
        const loss_t *loss = &a->loss[target][i];
        char kept[MAX_KEPT];
        for (int k = 0; k < loss->kept && k < MAX_KEPT; k++)
            kept[k] = (char)play_code(loss->card[k], loss->state[k]);
        PyObject *item = Py_BuildValue("(iiiy#)", loss->seat, loss->ply, loss->by, kept,
                                       (Py_ssize_t)loss->kept);
        if (item == NULL) {
            Py_DECREF(losses);
            return NULL;
        }
        PyTuple_SET_ITEM(losses, i, item);
    }
    return losses;
}

/* (plays as bytes (play_code), five states as (decided, resolved, can-win
 * mask, losses), the game as (decided, can-win mask, losses), exact); a
 * loss is (seat, ply, by, the plays that would have kept it, as bytes). */
static PyObject *analysis_found(const analysis_t *a, const unsigned char *cards,
                                const unsigned char *to, int count) {
    char plays[MAX_PLIES];
    for (int i = 0; i < count; i++)
        plays[i] = (char)play_code(cards[i], to[i]);
    PyObject *states = PyTuple_New(STATES), *game = NULL, *answer = NULL;
    if (states == NULL)
        return NULL;
    for (int s = 0; s < STATES; s++) {
        PyObject *losses = losses_of(a, s);
        PyObject *state = losses == NULL ? NULL
                                         : Py_BuildValue("(NNiN)", maybe(a->decided[s]),
                                                         maybe(a->resolved[s] ? a->resolved[s] : -1),
                                                         a->can[s], losses);
        if (state == NULL)
            goto done;
        PyTuple_SET_ITEM(states, s, state);
    }
    PyObject *losses = losses_of(a, STATES);
    if (losses == NULL)
        goto done;
    game = Py_BuildValue("(NiN)", maybe(a->decided[STATES]), a->can[STATES], losses);
    if (game != NULL)
        answer = Py_BuildValue("(y#OOO)", plays, (Py_ssize_t)count, states, game,
                               a->exact ? Py_True : Py_False);
done:
    Py_DECREF(states);
    Py_XDECREF(game);
    return answer;
}

static PyObject *small_tuple(const int *values, int count) {
    PyObject *tuple = PyTuple_New(count);
    if (tuple == NULL)
        return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *n = PyLong_FromLong(values[i]);
        if (n == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, n);
    }
    return tuple;
}

/* The ranks of armies made (ranks_made), as a tuple: analysis.RANKS. */
static PyObject *ranks_tuple(void) {
    ranks_made();
    return small_tuple(analysis_ranks, RANK_SIZE);
}

#endif
