/* The rules of a ply and of scoring, in C (rules.md): a table changed in
 * place as engine/game.Table.play changes it, the ranking of the armies in a
 * state as engine/armies.rank, and the outcome as engine/scoring.score. The
 * Python modules are the reference; the compiled paths that include this
 * file are held to them by tests/test_quick.py and tests/test_selfplay.py.
 * Nothing here knows text. */
#ifndef ORDO_RULES_H
#define ORDO_RULES_H

#include <string.h>

#define MAX_SEATS 4
#define HAND_SIZE 5
#define STATES 5
#define UNITS 4
#define MAX_PILE 1024 /* cards of the pile held: the analysis, the search and self-play
                        * read a longer one as its first MAX_PILE (no seat draws past the
                        * first MAX_PLIES); the quick check declines it to Python */
#define MAX_PLIES (STATES * UNITS * MAX_SEATS)

enum { SHARED = -2 };

/* ------------------------------------------------------------------ table */

typedef struct {
    int seats;
    int hand[MAX_SEATS][32]; /* cards held, counted by mask */
    int hand_size[MAX_SEATS];
    unsigned char as_dealt[MAX_SEATS][HAND_SIZE]; /* each hand, in the order dealt */
    int dealt; /* bit s: seat s was dealt a hand */
    unsigned char pile[MAX_PILE];
    int pile_size;
    int piles;
    int icons[STATES][MAX_SEATS][5]; /* cards carrying each icon, by army */
    int units[STATES][MAX_SEATS];
    int fourth[STATES][MAX_SEATS]; /* the ply of the army's fourth card */
    int full[STATES];                /* armies of four units, by state */
    int marker[STATES];              /* the marker a resolved state took, else 0 */
    int order[STATES];               /* the state of each marker, in order */
    int ply_of[STATES];              /* the ply that resolved it */
    int ranking[STATES][MAX_SEATS];  /* seats, strongest army first, by marker */
    int resolved;
    int ply;
    int drawn;
    unsigned char played[MAX_PLIES], played_to[MAX_PLIES]; /* each ply's card and state */
} table_t;

/* Greater is stronger (Formations.key): by level, most senior first, how
 * many formations and which icons; icons at a level compare as their mask. */
static inline int strength(const int icons[5]) {
    int key = 0;
    for (int level = 4; level >= 2; level--) {
        int count = 0, mask = 0;
        for (int icon = 0; icon < 5; icon++)
            if (icons[icon] == level)
                count++, mask |= 1 << icon;
        key = key << 8 | count << 5 | mask;
    }
    return key;
}

static inline void resolve(table_t *t, int state) {
    int *rank = t->ranking[t->resolved];
    int key[MAX_SEATS];
    for (int s = 0; s < t->seats; s++) {
        key[s] = strength(t->icons[state][s]);
        int at = s;
        /* stronger first; equal formations: the earlier fourth card first */
        while (at > 0) {
            int other = rank[at - 1];
            int before = key[other] > key[s] ||
                         (key[other] == key[s] && t->fourth[state][other] < t->fourth[state][s]);
            if (before)
                break;
            rank[at] = other;
            at--;
        }
        rank[at] = s;
    }
    t->order[t->resolved] = state;
    t->ply_of[t->resolved] = t->ply;
    t->resolved++;
    t->marker[state] = t->resolved;
}

/* One ply as Table.play: 1 when legal, 0 when not (the record is declined). */
static inline int play(table_t *t, int card, int state, int seat, int drawn) {
    int mover = t->ply % t->seats;
    if (t->resolved == STATES || (seat >= 0 && seat != mover))
        return 0;
    int draw = t->drawn < t->pile_size ? t->pile[t->drawn] : 0;
    if (drawn && drawn != draw)
        return 0;
    if (t->units[state][mover] >= UNITS)
        return 0;
    int *hand = t->hand[mover];
    if (card != draw && hand[card] == 0)
        return 0;
    if (draw) {
        hand[draw]++;
        t->drawn++;
    }
    hand[card]--;
    t->played[t->ply] = (unsigned char)card;
    t->played_to[t->ply] = (unsigned char)state;
    t->ply++;
    for (int icon = 0; icon < 5; icon++)
        t->icons[state][mover][icon] += card >> icon & 1;
    if (++t->units[state][mover] < UNITS)
        return 1;
    t->fourth[state][mover] = t->ply;
    if (++t->full[state] == t->seats)
        resolve(t, state);
    return 1;
}

/* ---------------------------------------------------------------- outcome */

typedef struct {
    int winner; /* a seat, or SHARED */
    int scores[MAX_SEATS];
    int states[MAX_SEATS];
    int tie_break; /* 0 none, 1 more states, 2 later capture (TieBreak) */
    int tied[MAX_SEATS];
    int tied_count;
} outcome_t;

/* scoring.score: points is NULL for classic scoring. */
static inline void score(const table_t *t, const int *points, int point_count, outcome_t *o) {
    int seats = t->seats;
    memset(o, 0, sizeof *o);
    for (int r = 0; r < STATES; r++)
        o->states[t->ranking[r][0]]++;
    for (int s = 0; s < seats; s++) {
        if (points == NULL) {
            o->scores[s] = o->states[s];
            continue;
        }
        for (int r = 0; r < STATES; r++)
            for (int place = 0; place < seats; place++)
                if (t->ranking[r][place] == s && place < point_count)
                    o->scores[s] += points[place];
    }
    int best = o->scores[0];
    for (int s = 1; s < seats; s++)
        if (o->scores[s] > best)
            best = o->scores[s];
    int leaders[MAX_SEATS] = {0}, count = 0;
    for (int s = 0; s < seats; s++)
        if (o->scores[s] == best)
            leaders[count++] = s;
    if (count == 1) {
        o->winner = leaders[0];
        return;
    }
    if (points != NULL) {
        int most = -1, with_most = 0, first = -1;
        for (int i = 0; i < count; i++)
            if (o->states[leaders[i]] > most)
                most = o->states[leaders[i]];
        for (int i = 0; i < count; i++)
            if (o->states[leaders[i]] == most) {
                with_most++;
                if (first < 0)
                    first = leaders[i];
            }
        o->tie_break = 1;
        if (with_most == 1) {
            o->winner = first;
            memcpy(o->tied, leaders, sizeof leaders);
            o->tied_count = count;
            return;
        }
        int kept = 0;
        for (int i = 0; i < count; i++)
            if (o->states[leaders[i]] == most)
                leaders[kept++] = leaders[i];
        count = kept;
    }
    memcpy(o->tied, leaders, sizeof leaders);
    o->tied_count = count;
    int k = o->states[leaders[0]];
    if (k == 0) {
        o->winner = SHARED;
        return;
    }
    /* the seat whose k-th capture carries the higher marker */
    int winner = -1, latest = -1;
    for (int i = 0; i < count; i++) {
        int seen = 0;
        for (int r = 0; r < STATES; r++)
            if (t->ranking[r][0] == leaders[i] && ++seen == k) {
                if (r > latest)
                    latest = r, winner = leaders[i];
                break;
            }
    }
    o->winner = winner;
    o->tie_break = 2;
}

#endif
