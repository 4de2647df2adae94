/* Best play (engine/bestplay.py's Solver.at_least at two seats, Solver.wins
 * at three and four with classic scoring), in C.
 *
 * The Python module is the reference and says what the value is and why the
 * search is sound; this file runs the same searches: at two seats,
 * zero-window alpha-beta on "P1 gets v states or more"; at more, whether a
 * seat wins against all the others together (the paranoid value). Both keep
 * a transposition table keyed on the position whatever the order of its
 * plays, try identical cards and states alike as one play, use the
 * per-state reach and the commitment bound as cut-offs, and look one ply
 * ahead by them to order the plays; where they leave plays equal, the play
 * that ended most searches so far goes first (the history heuristic of
 * chess programs: at 28 plies from the end it solved 23 of 30 two-seat
 * positions within 10 s where the bounds' order alone solved 19). The
 * answers are exact, so they equal the reference's whatever the order of
 * the search; tests/test_bestplay.py holds the two together. Armies are in base 5
 * (_analysis.h's rank_of and card_value, made by ranks_made). Nothing here
 * knows text or Python. */
#ifndef ORDO_BESTPLAY_H
#define ORDO_BESTPLAY_H

#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_analysis.h"

#define BP_SEATS 4 /* the most */
#define BP_WIN (STATES / 2 + 1)
#define BP_PLAYS (31 * STATES)
#define BP_KEY (3 + 2 * STATES) /* the words of a position's key, at most */
#define BP_GROUPS 3 /* the groups of cards the commitment bound tries a state */

/* ------------------------------------------------------------------ tables */

/* An open-addressed hash table of keys of ``words`` 64-bit words and a
 * 64-bit value each, emptied when it is full: a cache of facts found. */
typedef struct {
    uint64_t *slots; /* words of key, then the value: an entry */
    uint64_t *hashes; /* each entry's hash, | 1: 0 is an empty slot */
    size_t size, used, most;
    int words;
} bp_table_t;

static void table_clear(bp_table_t *t) {
    if (t->hashes)
        memset(t->hashes, 0, t->size * 8);
    t->used = 0;
}

static int table_grow(bp_table_t *t, size_t size);

static int table_open(bp_table_t *t, int words, size_t most) {
    memset(t, 0, sizeof *t);
    t->words = words;
    t->most = most;
    return table_grow(t, 1 << 12);
}

static inline uint64_t table_hash(const uint64_t *key, int words) {
    uint64_t h = 0x9E3779B97F4A7C15u;
    for (int i = 0; i < words; i++) {
        h ^= key[i];
        h *= 0xBF58476D1CE4E5B9u;
        h ^= h >> 31;
    }
    return h | 1;
}

static inline int same_key(const uint64_t *a, const uint64_t *b, int words) {
    for (int i = 0; i < words; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

/* The slot of ``key`` (its ``hash``): its entry, or the empty slot it would take. */
static inline size_t table_slot(const bp_table_t *t, const uint64_t *key, uint64_t hash) {
    size_t at = (size_t)(hash >> 7) & (t->size - 1);
    size_t stride = (size_t)t->words + 1;
    while (t->hashes[at] &&
           (t->hashes[at] != hash || !same_key(t->slots + at * stride, key, t->words)))
        at = (at + 1) & (t->size - 1);
    return at;
}

static inline int table_get(const bp_table_t *t, const uint64_t *key, uint64_t *value) {
    size_t at = table_slot(t, key, table_hash(key, t->words));
    if (!t->hashes[at])
        return 0;
    *value = t->slots[at * ((size_t)t->words + 1) + (size_t)t->words];
    return 1;
}

static int table_grow(bp_table_t *t, size_t size) {
    bp_table_t old = *t;
    size_t stride = (size_t)t->words + 1;
    t->slots = malloc(size * stride * 8);
    t->hashes = calloc(size, 8);
    if (!t->slots || !t->hashes) {
        free(t->slots);
        free(t->hashes);
        *t = old;
        return 0;
    }
    t->size = size;
    t->used = 0;
    for (size_t i = 0; i < old.size; i++)
        if (old.hashes[i]) {
            size_t at = table_slot(t, old.slots + i * stride, old.hashes[i]);
            memcpy(t->slots + at * stride, old.slots + i * stride, stride * 8);
            t->hashes[at] = old.hashes[i];
            t->used++;
        }
    free(old.slots);
    free(old.hashes);
    return 1;
}

static inline void table_put(bp_table_t *t, const uint64_t *key, uint64_t value) {
    size_t stride = (size_t)t->words + 1;
    if (2 * (t->used + 1) > t->size && !(t->size < t->most && table_grow(t, 2 * t->size)))
        table_clear(t);
    uint64_t hash = table_hash(key, t->words);
    size_t at = table_slot(t, key, hash);
    if (!t->hashes[at]) {
        memcpy(t->slots + at * stride, key, (size_t)t->words * 8);
        t->hashes[at] = hash;
        t->used++;
    }
    t->slots[at * stride + (size_t)t->words] = value;
}

/* ------------------------------------------------------------------ board */

static const int bp_icons[32] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                 1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5};

typedef struct {
    int seats, ply;
    const unsigned char *pile;
    int pile_size;
    int hand[BP_SEATS][32]; /* by mask, before the turn's draw */
    int pool[BP_SEATS][32]; /* every card still to play or hold */
    int offset[BP_SEATS][32]; /* where each mask's cards begin in the seat's cards, sorted */
    uint32_t bits[BP_SEATS]; /* the pool as a set of the seat's cards: its key */
    int base[STATES][BP_SEATS]; /* each army in base 5 */
    int units[STATES][BP_SEATS];
    int fourth[STATES][BP_SEATS];
    int winner[STATES]; /* -1 while open */
    int marker[STATES]; /* 0 while open */
    int captured[STATES]; /* the winner of each marker's state, by marker - 1 */
    int resolved, won[BP_SEATS];
} bp_board_t;

static inline int bp_mover(const bp_board_t *b) { return b->ply % b->seats; }

static inline void bp_play(bp_board_t *b, int mask, int index) {
    int seat = bp_mover(b);
    if (b->ply < b->pile_size)
        b->hand[seat][b->pile[b->ply]]++;
    b->hand[seat][mask]--;
    b->bits[seat] &= ~(1u << (b->offset[seat][mask] + --b->pool[seat][mask]));
    b->base[index][seat] += card_value[mask];
    b->ply++;
    if (++b->units[index][seat] == UNITS) {
        b->fourth[index][seat] = b->ply;
        int w = 0, *units = b->units[index], *fourth = b->fourth[index], *base = b->base[index];
        for (int other = 0; other < b->seats; other++) {
            if (units[other] < UNITS)
                return;
            /* the strongest army wins; of equals, the one finished first */
            int r = rank_of[base[other]], best = rank_of[base[w]];
            if (r > best || (r == best && fourth[other] < fourth[w]))
                w = other;
        }
        b->winner[index] = w;
        b->captured[b->resolved++] = w;
        b->marker[index] = b->resolved;
        b->won[w]++;
    }
}

static inline void bp_undo(bp_board_t *b, int mask, int index) {
    b->ply--;
    int seat = bp_mover(b);
    if (b->units[index][seat] == UNITS) {
        if (b->winner[index] >= 0) {
            b->won[b->winner[index]]--;
            b->winner[index] = -1;
            b->marker[index] = 0;
            b->resolved--;
        }
        b->fourth[index][seat] = 0;
    }
    b->units[index][seat]--;
    b->base[index][seat] -= card_value[mask];
    b->bits[seat] |= 1u << (b->offset[seat][mask] + b->pool[seat][mask]++);
    b->hand[seat][mask]++;
    if (b->ply < b->pile_size)
        b->hand[seat][b->pile[b->ply]]--;
}

/* scoring.scored's winner at classic scoring, the game over: the seat of the
 * most states; of equals, the one whose last state came later (-1: shared, D9). */
static int bp_outcome_winner(const bp_board_t *b) {
    int most = 0;
    for (int seat = 0; seat < b->seats; seat++)
        if (b->won[seat] > most)
            most = b->won[seat];
    if (most == 0)
        return -1;
    int counts[BP_SEATS] = {0}, winner = -1;
    for (int m = 0; m < b->resolved; m++) {
        int seat = b->captured[m];
        if (++counts[seat] == most && b->won[seat] == most)
            winner = seat;
    }
    return winner;
}

/* ----------------------------------------------------------------- search */

typedef struct {
    bp_board_t board;
    bp_table_t states;  /* position: low | high << 8 | best play << 16 (0: none) */
    bp_table_t reaches; /* seat, pool, army, cards lacking: low | high << 16 */
    bp_table_t commits; /* seat, pool, needs: the count */
    bp_table_t beating; /* seat, pool, army, lacking, threshold: groups */
    bp_table_t paranoid; /* three and four seats: the seat, the position: whether it wins;
                          * seat ``seats``: what best play gives each seat (bp_selfish) */
    bp_table_t contests; /* two seats: the rival, its pool, two committed armies: whether it beats both */
    long long history[BP_SEATS][32][STATES]; /* how often each play ended a search, by weight */
    long long nodes, most; /* most < 0: no limit */
    unsigned long long work; /* steps of the bounds' work (bp_tick) */
    double deadline;       /* < 0: none */
    int (*interrupted)(void); /* asked now and then: whether to stop at once (NULL: never) */
    jmp_buf out;
} bp_search_t;

typedef struct {
    int can[STATES];  /* the seats that can still win each state, a mask */
    int sure[STATES]; /* the seat sure of it, -1: none */
    int reach[STATES][BP_SEATS][2]; /* the weakest and strongest army, as ranks (open states) */
    uint64_t key[BP_KEY]; /* two seats: 1 + STATES words; more: 3 + 2 * STATES */
} bp_survey_t;

/* The process's CPU time: a budget is the search's cost, whatever else the machine runs. */
static double bp_clock(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* Out of the search (bp_search) once the budget's time is spent (1), or as
 * soon as ``interrupted`` says so (2). */
static void bp_check(bp_search_t *s) {
    if (s->interrupted && s->interrupted())
        longjmp(s->out, 2);
    if (s->deadline >= 0 && bp_clock() >= s->deadline)
        longjmp(s->out, 1);
}

/* One more position: out of the search once the budget is spent. */
static inline void bp_spend(bp_search_t *s) {
    s->nodes++;
    if (s->most >= 0 && s->nodes > s->most)
        longjmp(s->out, 1);
    if (!(s->nodes & 63)) /* a node asks the contest bounds of its children: up to ~0.1 ms */
        bp_check(s);
}

/* A step of a bound's work (the contest bound's answers): the clock is asked
 * every 256, so that no bound outlasts the budget by more than moments. */
static inline void bp_tick(bp_search_t *s) {
    if (!(++s->work & 255))
        bp_check(s);
}

/* The masks of the pool worth trying for the strongest (weakest) army of k
 * more: those that k others at least as good do not outdo (analysis._candidates). */
static int bp_candidates(const int pool[32], int k, int strongest, int out[32]) {
    int n = 0;
    for (int mask = 1; mask < 32; mask++)
        if (pool[mask] && outdoing(pool, mask, strongest) < k)
            out[n++] = mask;
    return n;
}

/* The weakest or strongest rank of ``army`` and k cards of the masks ``masks`` (n), as counted in pool. */
static int bp_extreme(int pool[32], const int *masks, int n, int k, int army, int strongest) {
    if (k == 0)
        return rank_of[army];
    int best = strongest ? -1 : 1 << 30;
    for (int i = 0; i < n; i++) {
        int mask = masks[i];
        if (!pool[mask])
            continue;
        pool[mask]--;
        int rank = bp_extreme(pool, masks + i, n - i, k - 1, army + card_value[mask], strongest);
        pool[mask]++;
        if (strongest ? rank > best : rank < best)
            best = rank;
    }
    return best;
}

/* What ``seat`` can still make in the state ``index``: its weakest and strongest army. */
static void bp_reach(bp_search_t *s, int index, int seat, int out[2]) {
    bp_board_t *b = &s->board;
    int army = b->base[index][seat], k = UNITS - b->units[index][seat];
    if (k == 0) {
        out[0] = out[1] = rank_of[army];
        return;
    }
    uint64_t key[1] = {(uint64_t)b->bits[seat] | (uint64_t)army << 32 | (uint64_t)k << 48 |
                       (uint64_t)seat << 52};
    uint64_t found;
    if (!table_get(&s->reaches, key, &found)) {
        int masks[32], n;
        n = bp_candidates(b->pool[seat], k, 0, masks);
        int low = bp_extreme(b->pool[seat], masks, n, k, army, 0);
        n = bp_candidates(b->pool[seat], k, 1, masks);
        int high = bp_extreme(b->pool[seat], masks, n, k, army, 1);
        found = (uint64_t)low | (uint64_t)high << 16;
        table_put(&s->reaches, key, found);
    }
    out[0] = (int)(found & 0xffff);
    out[1] = (int)(found >> 16 & 0xffff);
}

/* analysis.could_outrank */
static inline int bp_outranks(int high, int fourth, int low, int other) {
    if (high != low)
        return high > low;
    if (!other)
        return 1;
    return 0 < fourth && fourth < other;
}

/* What a play changes of a survey: only the reach of the seat that made it,
 * and in the states it did not play to, only by the card it played. */
typedef struct {
    const bp_survey_t *before; /* the survey before the play */
    int seat, index;           /* who played, and to which state */
    int (*by_card)[2];         /* the seat's reach in each state once the card is gone (-1: not yet) */
} bp_change_t;

/* A state's part of a position's key: two words, compared in order. */
typedef struct {
    uint64_t high, low;
} bp_part_t;

/* bestplay.survey (two seats; three and four at classic scoring): the
 * bounds of every open state and the key (``change``: the board is one play
 * after a survey; NULL: no survey before). At two seats each state's part
 * is folded into one word: its fields fit, and the positions' table holds
 * twice as many. */
static void bp_survey(bp_search_t *s, bp_survey_t *seen, const bp_change_t *change) {
    bp_board_t *b = &s->board;
    int seats = b->seats;
    bp_part_t wide[STATES];
    for (int i = 0; i < STATES; i++) {
        uint64_t units = 0;
        for (int seat = 0; seat < seats; seat++)
            units |= (uint64_t)b->units[i][seat] << 3 * seat;
        if (b->winner[i] >= 0) {
            seen->sure[i] = b->winner[i];
            seen->can[i] = 1 << b->winner[i];
            /* at more seats the order of capture can break a tie */
            uint64_t marker = seats > 2 ? (uint64_t)b->marker[i] : 0;
            wide[i] = (bp_part_t){(uint64_t)b->winner[i] << 3 | marker, 0};
            continue;
        }
        int *fourth = b->fourth[i];
        for (int seat = 0; seat < seats; seat++) {
            int *reach = seen->reach[i][seat];
            if (!change)
                bp_reach(s, i, seat, reach);
            else if (seat != change->seat)
                memcpy(reach, change->before->reach[i][seat], 2 * sizeof(int));
            else if (i == change->index)
                bp_reach(s, i, seat, reach);
            else {
                if (change->by_card[i][0] < 0)
                    bp_reach(s, i, seat, change->by_card[i]);
                reach[0] = change->by_card[i][0];
                reach[1] = change->by_card[i][1];
            }
        }
        int mask = 0;
        for (int seat = 0; seat < seats; seat++) {
            int beats = 1;
            for (int other = 0; other < seats && beats; other++)
                beats = other == seat || bp_outranks(seen->reach[i][seat][1], fourth[seat],
                                                     seen->reach[i][other][0], fourth[other]);
            mask |= beats << seat;
        }
        seen->can[i] = mask;
        if ((mask & (mask - 1)) == 0) {
            seen->sure[i] = mask ? __builtin_ctz((unsigned)mask) : -1;
            wide[i] = (bp_part_t){1ull << 62 | (uint64_t)(seen->sure[i] + 1), units};
            continue;
        }
        seen->sure[i] = -1;
        uint64_t bases = 0, order = 0;
        int by[BP_SEATS], count = 0; /* the seats with four cards there, the first first */
        for (int seat = 0; seat < seats; seat++) {
            bases |= (uint64_t)b->base[i][seat] << 12 * seat;
            if (!fourth[seat])
                continue;
            int at = count++;
            for (; at > 0 && fourth[by[at - 1]] > fourth[seat]; at--)
                by[at] = by[at - 1];
            by[at] = seat;
        }
        for (int j = 0; j < count; j++)
            order |= (uint64_t)by[j] << 2 * j;
        wide[i] = (bp_part_t){2ull << 62 | bases, units | (uint64_t)count << 12 | order << 15};
    }
    for (int i = 1; i < STATES; i++) /* sorted: the key whatever the states' order */
        for (int j = i; j > 0 && (wide[j - 1].high > wide[j].high ||
                                  (wide[j - 1].high == wide[j].high && wide[j - 1].low > wide[j].low));
             j--) {
            bp_part_t part = wide[j];
            wide[j] = wide[j - 1];
            wide[j - 1] = part;
        }
    seen->key[0] = (uint64_t)b->bits[0] | (uint64_t)b->bits[1] << 32;
    if (seats == 2) { /* high: 24 bits and the tag (62, 63); low: 19 bits */
        for (int i = 0; i < STATES; i++)
            seen->key[1 + i] = wide[i].high | wide[i].low << 24;
        return;
    }
    seen->key[1] = (uint64_t)b->bits[2] | (uint64_t)b->bits[3] << 32;
    seen->key[2] = 0; /* the seat a question is about: its asker's to set */
    for (int i = 0; i < STATES; i++) {
        seen->key[3 + 2 * i] = wide[i].high;
        seen->key[4 + 2 * i] = wide[i].low;
    }
}

/* The multisets of k of n masks, as non-decreasing indices ``at`` (first: all 0). */
static int bp_next(int at[UNITS], int k, int n) {
    int j = k - 1;
    while (j >= 0 && at[j] == n - 1)
        j--;
    if (j < 0)
        return 0;
    at[j]++;
    for (int i = j + 1; i < k; i++)
        at[i] = at[j];
    return 1;
}

/* bestplay._beating: up to BP_GROUPS groups of k cards of the pool that make
 * of ``army`` one above ``threshold`` (or equal, with ``ties``), those of the
 * fewest icons first; each group as k masks of 5 bits. */
static int bp_beating(int pool[32], int army, int k, int threshold, int ties, uint32_t groups[]) {
    int masks[32], n = 0;
    if (k >= 3)
        n = bp_candidates(pool, k, 1, masks);
    else
        for (int mask = 1; mask < 32; mask++)
            if (pool[mask])
                masks[n++] = mask;
    if (k > 0 && n == 0)
        return 0;
    int found = 0, icons[BP_GROUPS];
    int at[UNITS] = {0};
    /* every multiset of k of the masks, as non-decreasing indices */
    for (;;) {
        int fits = 1, value = army, count = 0;
        for (int j = 0; j < k; j++) {
            int mask = masks[at[j]], same = 0;
            for (int i = 0; i < k; i++)
                same += at[i] == at[j];
            fits &= same <= pool[mask];
            value += card_value[mask];
            count += bp_icons[mask];
        }
        int rank = fits ? rank_of[value] : -1;
        if (fits && (rank > threshold || (ties && rank == threshold))) {
            /* kept in order of icons, the first found first among equals */
            int place = found;
            while (place > 0 && icons[place - 1] > count)
                place--;
            if (place < BP_GROUPS) {
                for (int j = (found < BP_GROUPS ? found : BP_GROUPS - 1); j > place; j--)
                    groups[j] = groups[j - 1], icons[j] = icons[j - 1];
                uint32_t group = 0;
                for (int j = 0; j < k; j++)
                    group |= (uint32_t)masks[at[j]] << 5 * j;
                groups[place] = group;
                icons[place] = count;
                if (found < BP_GROUPS)
                    found++;
            }
        }
        if (!bp_next(at, k, n))
            break;
    }
    return found;
}

typedef struct {
    int army, k, threshold, ties;
} bp_need_t;

typedef struct {
    bp_search_t *s;
    int seat, n, best;
    int *pool;
    uint32_t bits; /* the pool as a set of the seat's cards */
    const bp_need_t *needs;
} bp_commit_t;

static void bp_commit_search(bp_commit_t *c, int at, int count) {
    if (count + c->n - at <= c->best)
        return;
    if (at == c->n) {
        c->best = count;
        return;
    }
    const bp_need_t *need = &c->needs[at];
    uint32_t bits = c->bits;
    uint64_t key[2] = {(uint64_t)bits | (uint64_t)c->seat << 32 | (uint64_t)need->k << 34 |
                           (uint64_t)need->ties << 37,
                       (uint64_t)need->army | (uint64_t)need->threshold << 16};
    uint64_t value;
    uint32_t groups[BP_GROUPS];
    int found;
    if (table_get(&c->s->beating, key, &value)) {
        found = (int)(value >> 60);
        for (int g = 0; g < found; g++)
            groups[g] = (uint32_t)(value >> 20 * g & 0xfffff);
    } else {
        found = bp_beating(c->pool, need->army, need->k, need->threshold, need->ties, groups);
        value = (uint64_t)found << 60;
        for (int g = 0; g < found; g++)
            value |= (uint64_t)groups[g] << 20 * g;
        table_put(&c->s->beating, key, value);
    }
    const int *offset = c->s->board.offset[c->seat];
    for (int g = 0; g < found; g++) {
        for (int j = 0; j < need->k; j++) {
            int mask = groups[g] >> 5 * j & 31;
            c->bits &= ~(1u << (offset[mask] + --c->pool[mask]));
        }
        bp_commit_search(c, at + 1, count + 1);
        for (int j = 0; j < need->k; j++) {
            int mask = groups[g] >> 5 * j & 31;
            c->bits |= 1u << (offset[mask] + c->pool[mask]++);
        }
        if (c->best == c->n)
            return;
    }
    bp_commit_search(c, at + 1, count);
}

/* bestplay.committed for ``seat``: how many of the states still open to
 * more than one seat it can win whatever is played, by disjoint groups of its cards. */
static int bp_commitment(bp_search_t *s, const bp_survey_t *seen, int seat) {
    bp_board_t *b = &s->board;
    bp_need_t needs[STATES];
    int n = 0;
    for (int i = 0; i < STATES; i++) {
        if (seen->sure[i] >= 0 || !(seen->can[i] >> seat & 1))
            continue;
        /* the strongest army another seat can make; a tie goes this seat's way
         * only when its fourth card is down and the other's not */
        int *fourth = b->fourth[i], threshold = -1, ties = 1;
        for (int other = 0; other < b->seats; other++) {
            if (other == seat)
                continue;
            int high = seen->reach[i][other][1];
            int tie = fourth[seat] > 0 && (fourth[other] == 0 || fourth[seat] < fourth[other]);
            if (high > threshold)
                threshold = high, ties = tie;
            else if (high == threshold)
                ties = ties && tie;
        }
        bp_need_t need = {b->base[i][seat], UNITS - b->units[i][seat], threshold, ties};
        int at = n++;
        while (at > 0 && needs[at - 1].k > need.k) /* by cards lacking, stably */
            needs[at] = needs[at - 1], at--;
        needs[at] = need;
    }
    if (!n)
        return 0;
    uint64_t key[4] = {(uint64_t)b->bits[seat] | (uint64_t)seat << 32 | (uint64_t)n << 34, 0, 0, 0};
    for (int j = 0; j < n; j++) {
        uint64_t word = (uint64_t)needs[j].army | (uint64_t)needs[j].k << 12 |
                        (uint64_t)needs[j].ties << 15 | (uint64_t)needs[j].threshold << 16;
        key[1 + j / 2] |= word << 32 * (j % 2);
    }
    uint64_t value;
    if (table_get(&s->commits, key, &value))
        return (int)value;
    int pool[32];
    memcpy(pool, b->pool[seat], sizeof pool);
    bp_commit_t c = {s, seat, n, 0, pool, b->bits[seat], needs};
    bp_commit_search(&c, 0, 0);
    table_put(&s->commits, key, (uint64_t)c.best);
    return c.best;
}

/* ------------------------------------------- the contest bound (two seats) */

#define BP_OPTIONS 3 /* the armies a seat commits to a state: its strongest ranks */
#define BP_ANSWERS 4096 /* the rival's answers in a state looked at, at most */

/* The group of k masks at ``at`` as 5 bits each, its army's value and icons; 0 if the pool lacks it. */
static int bp_group(const int pool[32], const int *masks, const int at[UNITS], int k,
                    uint32_t *group, int *value, int *icons) {
    *group = 0;
    *icons = 0;
    for (int j = 0; j < k; j++) {
        int mask = masks[at[j]], same = 0;
        for (int i = 0; i < k; i++)
            same += at[i] == at[j];
        if (same > pool[mask])
            return 0;
        *group |= (uint32_t)mask << 5 * j;
        *value += card_value[mask];
        *icons += bp_icons[mask];
    }
    return 1;
}

static inline void bp_take(int pool[32], uint32_t *bits, const int offset[32], uint32_t group,
                           int k) {
    for (int j = 0; j < k; j++) {
        int mask = group >> 5 * j & 31;
        *bits &= ~(1u << (offset[mask] + --pool[mask]));
    }
}

static inline void bp_give(int pool[32], uint32_t *bits, const int offset[32], uint32_t group,
                           int k) {
    for (int j = 0; j < k; j++) {
        int mask = group >> 5 * j & 31;
        *bits |= 1u << (offset[mask] + pool[mask]++);
    }
}

/* The strongest army ``seat`` can make of ``army`` and k cards of ``pool`` (its set ``bits``). */
static int bp_strongest(bp_search_t *s, int seat, int pool[32], uint32_t bits, int army, int k) {
    if (k == 0)
        return rank_of[army];
    uint64_t key[1] = {(uint64_t)bits | (uint64_t)army << 32 | (uint64_t)k << 48 |
                       (uint64_t)seat << 52 | 1ull << 56};
    uint64_t found;
    if (!table_get(&s->reaches, key, &found)) {
        int masks[32], n = bp_candidates(pool, k, 1, masks);
        found = (uint64_t)bp_extreme(pool, masks, n, k, army, 1);
        table_put(&s->reaches, key, found);
    }
    return (int)found;
}

/* A state of the contest: the committed seat's army there (its rank once
 * committed), the rival's, and whether a tie goes the committed seat's way. */
typedef struct {
    int index, army, k, rival_army, rival_k, ties, rank;
} bp_held_t;

static inline int bp_beats(int rank, const bp_held_t *h) {
    return rank > h->rank || (rank == h->rank && !h->ties);
}

/* Whether the rival can beat the committed armies of ``x`` and ``y`` both, by disjoint cards. */
static int bp_both(bp_search_t *s, int rival, const bp_held_t *x, const bp_held_t *y) {
    bp_board_t *b = &s->board;
    uint64_t key[3] = {(uint64_t)b->bits[rival] | (uint64_t)rival << 32,
                       (uint64_t)x->rival_army | (uint64_t)x->rival_k << 12 |
                           (uint64_t)x->rank << 15 | (uint64_t)x->ties << 31 |
                           (uint64_t)y->rival_army << 32,
                       (uint64_t)y->rival_k | (uint64_t)y->rank << 3 | (uint64_t)y->ties << 19};
    uint64_t value;
    if (table_get(&s->contests, key, &value))
        return (int)value;
    int pool[32], masks[32], n = 0, k = x->rival_k;
    memcpy(pool, b->pool[rival], sizeof pool);
    for (int mask = 1; mask < 32; mask++)
        if (pool[mask])
            masks[n++] = mask;
    /* every answer in x that beats it, the plainest first: it leaves the most for y */
    static uint32_t answers[BP_ANSWERS];
    static int icons_of[BP_ANSWERS];
    int found = 0, both = 0, at[UNITS] = {0};
    if (k == 0 || n > 0)
        do {
            uint32_t group;
            int army = x->rival_army, icons;
            if (!bp_group(pool, masks, at, k, &group, &army, &icons) ||
                !bp_beats(rank_of[army], x))
                continue;
            if (found == BP_ANSWERS) { /* too many to look at: said possible, which is safe */
                both = 1;
                break;
            }
            int place = found++;
            for (; place > 0 && icons_of[place - 1] > icons; place--)
                answers[place] = answers[place - 1], icons_of[place] = icons_of[place - 1];
            answers[place] = group;
            icons_of[place] = icons;
        } while (k > 0 && bp_next(at, k, n));
    uint32_t bits = b->bits[rival];
    const int *offset = b->offset[rival];
    for (int g = 0; g < found && !both; g++) {
        bp_tick(s);
        bp_take(pool, &bits, offset, answers[g], k);
        both = bp_beats(bp_strongest(s, rival, pool, bits, y->rival_army, y->rival_k), y);
        bp_give(pool, &bits, offset, answers[g], k);
    }
    table_put(&s->contests, key, (uint64_t)both);
    return both;
}

/* The most of the committed states (``held``, n) the rival can beat at once:
 * a set of them it beats pairwise together, at most (a clique of bp_both). */
static int bp_beaten(bp_search_t *s, int rival, bp_held_t *held, int n) {
    int alone = 0;
    for (int i = 0; i < n; i++) {
        int rank = bp_strongest(s, rival, s->board.pool[rival], s->board.bits[rival],
                                held[i].rival_army, held[i].rival_k);
        alone |= bp_beats(rank, &held[i]) << i;
    }
    int with[STATES] = {0};
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if ((alone >> i & 1) && (alone >> j & 1) && bp_both(s, rival, &held[i], &held[j]))
                with[i] |= 1 << j, with[j] |= 1 << i;
    int most = 0;
    for (int set = alone; set; set = (set - 1) & alone) {
        int size = __builtin_popcount((unsigned)set);
        if (size <= most)
            continue;
        int clique = 1;
        for (int i = 0; i < n && clique; i++)
            clique = !(set >> i & 1) || (set & ~(with[i] | 1 << i)) == 0;
        if (clique)
            most = size;
    }
    return most;
}

typedef struct {
    bp_search_t *s;
    int seat, n, best, need;
    int pool[32];
    uint32_t bits;
    bp_held_t *held;
    int options[STATES][BP_OPTIONS][2]; /* each state's armies: rank, group */
    int count[STATES];
    bp_held_t chosen[STATES];
} bp_contest_t;

static void bp_contest_search(bp_contest_t *c, int at, int taken) {
    if (c->best >= c->need || taken + c->n - at <= c->best)
        return;
    if (at == c->n) {
        int won = taken - bp_beaten(c->s, 1 - c->seat, c->chosen, taken);
        if (won > c->best)
            c->best = won;
        return;
    }
    const int *offset = c->s->board.offset[c->seat];
    int k = c->held[at].k;
    for (int o = 0; o < c->count[at]; o++) {
        uint32_t group = (uint32_t)c->options[at][o][1];
        int fits = 1, need[32] = {0};
        for (int j = 0; j < k; j++) {
            int mask = group >> 5 * j & 31;
            fits &= ++need[mask] <= c->pool[mask];
        }
        if (!fits)
            continue;
        bp_take(c->pool, &c->bits, offset, group, k);
        c->chosen[taken] = c->held[at];
        c->chosen[taken].rank = c->options[at][o][0];
        bp_contest_search(c, at + 1, taken + 1);
        bp_give(c->pool, &c->bits, offset, group, k);
    }
    bp_contest_search(c, at + 1, taken);
}

/* The strongest ranks ``seat`` can make of a held army, up to BP_OPTIONS, the
 * plainest group of each (rank, group): their count. */
static int bp_options(bp_search_t *s, int seat, const bp_held_t *held, int out[BP_OPTIONS][2]) {
    bp_board_t *b = &s->board;
    int k = held->k;
    if (k == 0) {
        out[0][0] = rank_of[held->army];
        out[0][1] = 0;
        return 1;
    }
    uint64_t key[1] = {(uint64_t)b->bits[seat] | (uint64_t)held->army << 32 | (uint64_t)k << 48 |
                       (uint64_t)seat << 52 | 1ull << 57};
    uint64_t found;
    if (table_get(&s->reaches, key, &found)) {
        int count = (int)(found >> 60);
        for (int o = 0; o < count; o++) {
            uint32_t group = (uint32_t)(found >> 20 * o & 0xfffff);
            int army = held->army;
            for (int j = 0; j < k; j++)
                army += card_value[group >> 5 * j & 31];
            out[o][0] = rank_of[army];
            out[o][1] = (int)group;
        }
        return count;
    }
    int *pool = b->pool[seat], masks[32], n = bp_candidates(pool, k, 1, masks), at[UNITS] = {0};
    int icons_of[BP_OPTIONS], count = 0;
    if (n > 0)
        do {
            uint32_t group;
            int army = held->army, icons;
            if (!bp_group(pool, masks, at, k, &group, &army, &icons))
                continue;
            int rank = rank_of[army], place = 0;
            while (place < count && out[place][0] > rank)
                place++;
            if (place < count && out[place][0] == rank) {
                if (icons < icons_of[place])
                    out[place][1] = (int)group, icons_of[place] = icons;
                continue;
            }
            if (place == BP_OPTIONS)
                continue;
            for (int j = (count < BP_OPTIONS ? count : BP_OPTIONS - 1); j > place; j--) {
                out[j][0] = out[j - 1][0];
                out[j][1] = out[j - 1][1];
                icons_of[j] = icons_of[j - 1];
            }
            out[place][0] = rank;
            out[place][1] = (int)group;
            icons_of[place] = icons;
            if (count < BP_OPTIONS)
                count++;
        } while (bp_next(at, k, n));
    found = (uint64_t)count << 60;
    for (int o = 0; o < count; o++)
        found |= (uint64_t)out[o][1] << 20 * o;
    table_put(&s->reaches, key, found);
    return count;
}

/* bestplay.contested for ``seat`` of two: how many of the states still open
 * to both it wins at least (up to ``need``) when it commits its strongest
 * armies to some of them, by disjoint groups of its cards, and the rival
 * beats as many of those at once as its own cards allow: the contest bound. */
static int bp_contest(bp_search_t *s, const bp_survey_t *seen, int seat, int need) {
    bp_board_t *b = &s->board;
    int rival = 1 - seat;
    bp_contest_t c = {.s = s, .seat = seat, .bits = b->bits[seat]};
    bp_held_t held[STATES];
    memcpy(c.pool, b->pool[seat], sizeof c.pool);
    for (int i = 0; i < STATES; i++) {
        if (seen->sure[i] >= 0 || !(seen->can[i] >> seat & 1))
            continue;
        int *fourth = b->fourth[i];
        held[c.n++] = (bp_held_t){i,
                                  b->base[i][seat],
                                  UNITS - b->units[i][seat],
                                  b->base[i][rival],
                                  UNITS - b->units[i][rival],
                                  fourth[seat] > 0 && (fourth[rival] == 0 || fourth[seat] < fourth[rival]),
                                  0};
    }
    if (c.n == 0)
        return 0;
    c.held = held;
    c.need = need < c.n ? need : c.n;
    for (int i = 0; i < c.n; i++)
        c.count[i] = bp_options(s, seat, &held[i], c.options[i]);
    bp_contest_search(&c, 0, 0);
    return c.best;
}

/* Solver._static: what the bounds say of the states P1 gets; the commitment
 * bounds only where they could settle whether it gets v (v < 0: anywhere). */
static void bp_static(bp_search_t *s, const bp_survey_t *seen, int v, int contest, int *low,
                      int *high) {
    int sure[BP_SEATS] = {0}, can0 = 0;
    for (int i = 0; i < STATES; i++) {
        if (seen->sure[i] >= 0)
            sure[seen->sure[i]]++;
        can0 += seen->can[i] & 1;
    }
    *low = sure[0];
    *high = can0;
    if (*low < *high && (v < 0 || (*low < v && v <= *high))) {
        int committed = sure[0] + bp_commitment(s, seen, 0);
        if (committed > *low)
            *low = committed;
    }
    if (*low < *high && (v < 0 || (*low < v && v <= *high))) {
        int most = STATES - sure[1] - bp_commitment(s, seen, 1);
        if (most < *high)
            *high = most;
    }
    if (contest && *low < *high && (v < 0 || (*low < v && v <= *high))) {
        int contested = sure[0] + bp_contest(s, seen, 0, v < 0 ? STATES : v - sure[0]);
        if (contested > *low)
            *low = contested;
    }
    if (contest && *low < *high && (v < 0 || (*low < v && v <= *high))) {
        int most = STATES - sure[1] - bp_contest(s, seen, 1, v < 0 ? STATES : STATES - sure[1] - v + 1);
        if (most < *high)
            *high = most;
    }
}

/* Solver._look: the survey, and what the table or else the bounds say. The
 * table keeps only what searches found (bp_settle): the bounds are cheap to
 * find again (their parts are kept), and a table filled with every position
 * looked at one ply ahead is emptied too often. */
static void bp_look(bp_search_t *s, int v, bp_survey_t *seen, const bp_change_t *change, int *low,
                    int *high, int *best) {
    bp_survey(s, seen, change);
    uint64_t value;
    if (table_get(&s->states, seen->key, &value)) {
        *low = (int)(value & 0xff);
        *high = (int)(value >> 8 & 0xff);
        *best = (int)(value >> 16 & 0xffff);
        return;
    }
    bp_static(s, seen, v, 1, low, high); /* the contest bounds one ply ahead too: Solver._static */
    *best = 0;
}

static int bp_settle(bp_search_t *s, const bp_survey_t *seen, int low, int high, int v,
                     int result, int best) {
    if (result)
        low = v;
    else
        high = v - 1;
    table_put(&s->states, seen->key, (uint64_t)low | (uint64_t)high << 8 | (uint64_t)best << 16);
    return result;
}

typedef struct {
    int weight, mask, index;
} bp_ordered_t;

static int by_weight(const void *a, const void *b) {
    const bp_ordered_t *x = a, *y = b;
    if (x->weight != y->weight)
        return (x->weight < y->weight) - (x->weight > y->weight);
    if (x->mask != y->mask)
        return (x->mask > y->mask) - (x->mask < y->mask);
    return (x->index > y->index) - (x->index < y->index);
}

/* A play as one number: mask << 3 | state + 1 (0: none). */
#define BP_PLAY(mask, index) ((mask) << 3 | ((index) + 1))

/* Solver._ordered (classic scoring, or two seats): the mover's plays, one
 * of each set alike; ``selfish``: the mover wants its own armies strong and
 * nothing else, so it spends no card where the winner is certain that
 * carries every icon of a plainer card it holds. */
static int bp_ordered(bp_search_t *s, const bp_survey_t *seen, int best, int selfish,
                      int out[BP_PLAYS]) {
    bp_board_t *b = &s->board;
    int seat = bp_mover(b);
    int hand[32];
    memcpy(hand, b->hand[seat], sizeof hand);
    if (b->ply < b->pile_size)
        hand[b->pile[b->ply]]++;
    /* a card carrying every icon of a plainer card held is not spent where the winner is certain */
    int spare[32] = {0};
    for (int mask = 1; mask < 32; mask++) {
        if (!hand[mask])
            continue;
        int icons = bp_icons[mask], plainer = 0;
        for (int other = 1; other < 32 && !plainer; other++) {
            int fewer = bp_icons[other];
            plainer = selfish && other != mask && hand[other] && (other & mask) == other &&
                      (fewer < icons || (fewer == icons && other < mask));
        }
        spare[mask] = !plainer;
    }
    bp_ordered_t plays[BP_PLAYS];
    int n = 0;
    for (int mask = 1; mask < 32; mask++) {
        if (!hand[mask])
            continue;
        for (int i = 0; i < STATES; i++) {
            if (b->units[i][seat] >= UNITS)
                continue;
            int weight;
            if (seen->sure[i] >= 0) {
                if (!spare[mask])
                    continue;
                weight = 1000 - bp_icons[mask];
            } else {
                int army = b->base[i][seat];
                weight = 2000 + rank_of[army + card_value[mask]] - rank_of[army];
            }
            if (BP_PLAY(mask, i) == best)
                weight = 1 << 20;
            plays[n++] = (bp_ordered_t){weight, mask, i};
        }
    }
    qsort(plays, (size_t)n, sizeof plays[0], by_weight);
    int count = 0;
    for (int j = 0; j < n; j++) {
        int mask = plays[j].mask, i = plays[j].index, twin = 0;
        for (int m = 0; m < count && !twin; m++) {
            int other = out[m] & 7 ? (out[m] & 7) - 1 : 0;
            if (out[m] >> 3 != mask)
                continue;
            /* Solver._part: a state whose winner is certain is told apart by winner and units */
            twin = other == i || (seen->sure[i] >= 0 && seen->sure[other] == seen->sure[i] &&
                                  !memcmp(b->units[other], b->units[i], sizeof b->units[i]));
        }
        if (!twin)
            out[count++] = BP_PLAY(mask, i);
    }
    return count;
}

typedef struct {
    int promise, at, play;
    long long history;
} bp_promise_t;

/* The history heuristic: a play of ``seat`` ended a search; the more plies
 * it had left below it, the more that counts. */
static inline void bp_credit(bp_search_t *s, int seat, int mask, int index) {
    int left = s->board.seats * STATES * UNITS - s->board.ply;
    s->history[seat][mask][index] += (long long)left * left;
}

static int by_promise(const void *a, const void *b) {
    const bp_promise_t *x = a, *y = b;
    if (x->promise != y->promise)
        return (x->promise < y->promise) - (x->promise > y->promise);
    if (x->history != y->history)
        return (x->history < y->history) - (x->history > y->history);
    return (x->at > y->at) - (x->at < y->at);
}

/* Solver.at_least: whether P1 gets at least v states with best play. */
static int bp_at_least(bp_search_t *s, int v) {
    bp_board_t *b = &s->board;
    bp_spend(s);
    if (b->resolved == STATES)
        return b->won[0] >= v;
    bp_survey_t seen;
    int low, high, best;
    bp_look(s, v, &seen, NULL, &low, &high, &best);
    if (low >= v || high < v)
        return low >= v;
    int maximizing = bp_mover(b) == 0;
    int plays[BP_PLAYS];
    int n = bp_ordered(s, &seen, best, 1, plays);
    bp_promise_t promising[BP_PLAYS];
    int kept = 0, by_card[32][STATES][2], seat = bp_mover(b);
    memset(by_card, -1, sizeof by_card);
    for (int j = 0; j < n; j++) {
        int mask = plays[j] >> 3, index = (plays[j] & 7) - 1;
        int child_low, child_high, child_best;
        bp_play(b, mask, index);
        if (b->resolved == STATES) {
            child_low = child_high = b->won[0];
        } else {
            bp_survey_t child;
            bp_change_t change = {&seen, seat, index, by_card[mask]};
            bp_look(s, v, &child, &change, &child_low, &child_high, &child_best);
        }
        bp_undo(b, mask, index);
        if (maximizing ? child_low >= v : child_high < v)
            return bp_settle(s, &seen, low, high, v, maximizing, plays[j]);
        if (maximizing ? child_high >= v : child_low < v) {
            promising[kept] = (bp_promise_t){maximizing ? child_high : -child_low, kept, plays[j],
                                             s->history[seat][mask][index]};
            kept++;
        }
    }
    qsort(promising, (size_t)kept, sizeof promising[0], by_promise);
    for (int j = 0; j < kept; j++) {
        int mask = promising[j].play >> 3, index = (promising[j].play & 7) - 1;
        bp_play(b, mask, index);
        int found = bp_at_least(s, v);
        bp_undo(b, mask, index);
        if (found == maximizing) {
            bp_credit(s, seat, mask, index);
            return bp_settle(s, &seen, low, high, v, found, promising[j].play);
        }
    }
    return bp_settle(s, &seen, low, high, v, !maximizing, best);
}

/* --------------------------------------- three and four seats, classic scoring */

/* The states a seat can win that another's commitment of ``commits`` takes
 * from it, at least, ``beyond`` of those it could commit to out of its reach. */
static inline int bp_lost(int commits, int beyond) { return commits > beyond ? commits - beyond : 0; }

/* Solver._settled: whether the bounds alone say that ``seat`` wins (1) or cannot (0); -1: neither. */
static int bp_settled(bp_search_t *s, const bp_survey_t *seen, int seat) {
    int seats = s->board.seats, sure[BP_SEATS] = {0}, can[BP_SEATS] = {0};
    for (int i = 0; i < STATES; i++) {
        if (seen->sure[i] >= 0)
            sure[seen->sure[i]]++;
        for (int other = 0; other < seats; other++)
            can[other] += seen->can[i] >> other & 1;
    }
    /* A seat that commits its cards to states wins them, and the others lose
     * them, if it wants to: the seat asked about always does, the others when
     * they play against it. The states two seats commit to are apart (each
     * would beat the other). beyond[p][x]: the states p could commit to that x
     * cannot win anyway. */
    int commits[BP_SEATS] = {0}, beyond[BP_SEATS][BP_SEATS] = {{0}};
    for (int p = 0; p < seats; p++) {
        int contested = 0;
        for (int i = 0; i < STATES; i++)
            if (seen->sure[i] < 0 && seen->can[i] >> p & 1) {
                contested++;
                for (int x = 0; x < seats; x++)
                    beyond[p][x] += !(seen->can[i] >> x & 1);
            }
        if (contested)
            commits[p] = bp_commitment(s, seen, p);
    }
    int most = can[seat];
    for (int other = 0; other < seats; other++)
        if (other != seat)
            most -= bp_lost(commits[other], beyond[other][seat]);
    /* five states: a seat with fewer than two has fewer than another */
    if (most < 2)
        return 0;
    for (int other = 0; other < seats; other++)
        if (other != seat && sure[other] + commits[other] > most)
            return 0;
    int least = sure[seat] + commits[seat];
    for (int other = 0; other < seats; other++)
        if (other != seat && least <= can[other] - bp_lost(commits[seat], beyond[seat][other]))
            return -1;
    return 1;
}

/* What the table or else the bounds say of whether ``seat`` wins from the
 * board (``seen``: its survey): 1, 0; -1: neither. As in bp_look, the table
 * keeps only what searches found. */
static int bp_known(bp_search_t *s, bp_survey_t *seen, int seat) {
    seen->key[2] = (uint64_t)seat;
    uint64_t value;
    if (table_get(&s->paranoid, seen->key, &value))
        return (int)value;
    return bp_settled(s, seen, seat);
}

/* Solver.wins: whether ``seat`` wins with best play against all the others
 * playing together against it (the paranoid value). Each play is first
 * looked at one ply ahead by the bounds: one that settles the question for
 * the mover ends the search, one that settles it against the mover needs no
 * search, and the rest go by the states the seat is sure of and can still
 * win there, then by the history of cut-offs. */
static int bp_wins(bp_search_t *s, int seat) {
    bp_board_t *b = &s->board;
    bp_spend(s);
    if (b->resolved == STATES)
        return bp_outcome_winner(b) == seat;
    bp_survey_t seen;
    bp_survey(s, &seen, NULL);
    int result = bp_known(s, &seen, seat);
    if (result >= 0)
        return result;
    int mover = bp_mover(b), maximizing = mover == seat, plays[BP_PLAYS];
    int n = bp_ordered(s, &seen, 0, maximizing, plays);
    bp_promise_t promising[BP_PLAYS];
    int kept = 0, by_card[32][STATES][2];
    memset(by_card, -1, sizeof by_card);
    for (int j = 0; j < n; j++) {
        int mask = plays[j] >> 3, index = (plays[j] & 7) - 1, found, promise = 0;
        bp_play(b, mask, index);
        if (b->resolved == STATES) {
            found = bp_outcome_winner(b) == seat;
        } else {
            bp_survey_t child;
            bp_change_t change = {&seen, mover, index, by_card[mask]};
            bp_survey(s, &child, &change);
            found = bp_known(s, &child, seat);
            for (int i = 0; i < STATES; i++)
                promise += (child.sure[i] == seat) * STATES + (child.can[i] >> seat & 1);
        }
        bp_undo(b, mask, index);
        if (found == maximizing) {
            result = found;
            break;
        }
        if (found < 0) {
            promising[kept] = (bp_promise_t){maximizing ? promise : -promise, kept, plays[j],
                                             s->history[mover][mask][index]};
            kept++;
        }
    }
    if (result < 0) {
        qsort(promising, (size_t)kept, sizeof promising[0], by_promise);
        result = !maximizing;
        for (int j = 0; j < kept; j++) {
            int mask = promising[j].play >> 3, index = (promising[j].play & 7) - 1;
            bp_play(b, mask, index);
            int found = bp_wins(s, seat);
            bp_undo(b, mask, index);
            if (found == maximizing) {
                bp_credit(s, mover, mask, index);
                result = found;
                break;
            }
        }
    }
    table_put(&s->paranoid, seen.key, (uint64_t)result);
    return result;
}

/* ------------------------------------------ every seat for itself (max-n) */

/* An outcome as one number: each seat's states (3 bits each, P1 lowest),
 * then the winner + 1 (bits 12-14). */
#define BP_OUTCOMES 128 /* the outcomes a position may still have, at most */
#define BP_PRUNED (-1)  /* bp_selfish: the parent's seat likes nothing here better */

static inline int bp_score(int outcome, int seat) { return outcome >> 3 * seat & 7; }
static inline int bp_outcome_of(const int scores[BP_SEATS], int seats, int winner) {
    int outcome = (winner + 1) << 12;
    for (int seat = 0; seat < seats; seat++)
        outcome |= scores[seat] << 3 * seat;
    return outcome;
}

/* bestplay.preference as one number: the larger, the more ``seat`` likes
 * ``outcome``; equal only for the same outcome. */
static int bp_liking(int outcome, int seats, int seat) {
    int winner = (outcome >> 12 & 7) - 1, rival = 0;
    for (int other = 0; other < seats; other++)
        if (other != seat && bp_score(outcome, other) > rival)
            rival = bp_score(outcome, other);
    int rival_wins = winner >= 0 && winner != seat;
    if (rival_wins)
        rival = bp_score(outcome, winner);
    int liking = (winner == seat) << 3 | bp_score(outcome, seat);
    liking = liking << 1 | !rival_wins;
    liking = liking << 3 | (7 - rival);
    for (int other = 0, fields = 0; fields < BP_SEATS - 1; other++) {
        if (other == seat)
            continue;
        liking = liking << 3 | (other < seats ? 7 - bp_score(outcome, other) : 0);
        fields++;
    }
    return liking << 3 | (winner + 1);
}

/* bestplay.outcomes: every outcome the bounds leave a position (``seen``),
 * each seat's states between those it is sure of and those it can still
 * win, five in all, the win to any seat of the most; of those, only the
 * ones a seat likes at least as much as what it can make sure of: a win,
 * or no fewer states than it is sure of and wins by committing its cards
 * (bp_commitment, whatever the others play: every seat for itself gives a
 * seat no less than it can make sure of). */
static int bp_outcomes(bp_search_t *s, const bp_survey_t *seen, int out[BP_OUTCOMES]) {
    int seats = s->board.seats, n = 0;
    int sure[BP_SEATS] = {0}, can[BP_SEATS] = {0}, scores[BP_SEATS] = {0}, least[BP_SEATS];
    for (int i = 0; i < STATES; i++) {
        if (seen->sure[i] >= 0)
            sure[seen->sure[i]]++;
        for (int seat = 0; seat < seats; seat++)
            can[seat] += seen->can[i] >> seat & 1;
    }
    for (int seat = 0; seat < seats; seat++) {
        scores[seat] = sure[seat];
        least[seat] = sure[seat] + bp_commitment(s, seen, seat);
    }
    for (;;) {
        int total = 0, top = 0;
        for (int seat = 0; seat < seats; seat++) {
            total += scores[seat];
            top = scores[seat] > top ? scores[seat] : top;
        }
        if (total == STATES)
            for (int w = 0; w < seats; w++) {
                int kept = scores[w] == top && n < BP_OUTCOMES;
                for (int seat = 0; seat < seats && kept; seat++)
                    kept = seat == w || scores[seat] >= least[seat];
                if (kept)
                    out[n++] = bp_outcome_of(scores, seats, w);
            }
        int seat = 0; /* the next scores, as an odometer */
        while (seat < seats && scores[seat] == can[seat])
            scores[seat] = sure[seat], seat++;
        if (seat == seats)
            return n;
        scores[seat]++;
    }
}

/* The most ``seat`` likes any of ``outcomes`` (n) that ``mover`` likes at
 * least as much as ``least`` (mover < 0: any of them); -1: none. */
static int bp_most_liked(const int *outcomes, const int *movers, int n, int seats, int seat,
                         int least) {
    int most = -1;
    for (int j = 0; j < n; j++)
        if (!movers || movers[j] >= least) {
            int liking = bp_liking(outcomes[j], seats, seat);
            most = liking > most ? liking : most;
        }
    return most;
}

/* Solver._selfish: what best play gives each seat when every seat plays for
 * itself (max-n), the outcome each seat to move likes best (bp_liking). Cut
 * short, as BP_PRUNED, where the seat that moved here (``parent``, -1:
 * none) already has an outcome it likes as much as ``liked`` and none this
 * position can still give it, of those its mover would leave it, is liked
 * more (the shallow cut-off of max-n: deeper ones would change a value). A
 * play whose outcomes by the bounds are all liked by the mover no more than
 * the best found is not searched; a mover that has the best outcome the
 * bounds leave it looks no further. Only values searched to the end are
 * kept in the table (the paranoid one, the key's seat word ``seats``). */
static int bp_selfish(bp_search_t *s, int parent, int liked) {
    bp_board_t *b = &s->board;
    bp_spend(s);
    if (b->resolved == STATES)
        return bp_outcome_of(b->won, b->seats, bp_outcome_winner(b));
    int seats = b->seats, mover = bp_mover(b);
    bp_survey_t seen;
    bp_survey(s, &seen, NULL);
    seen.key[2] = (uint64_t)seats;
    uint64_t value;
    if (table_get(&s->paranoid, seen.key, &value))
        return (int)value;
    int outcomes[BP_OUTCOMES], mine[BP_OUTCOMES], n = bp_outcomes(s, &seen, outcomes), ceiling = -1;
    if (parent >= 0 && bp_most_liked(outcomes, NULL, n, seats, parent, 0) <= liked)
        return BP_PRUNED;
    for (int j = 0; j < n; j++) {
        mine[j] = bp_liking(outcomes[j], seats, mover);
        ceiling = mine[j] > ceiling ? mine[j] : ceiling;
    }
    int plays[BP_PLAYS], count = bp_ordered(s, &seen, 0, 0, plays), by_card[32][STATES][2];
    memset(by_card, -1, sizeof by_card);
    bp_promise_t promising[BP_PLAYS];
    for (int j = 0; j < count; j++) {
        int mask = plays[j] >> 3, index = (plays[j] & 7) - 1, promise;
        bp_play(b, mask, index);
        if (b->resolved == STATES) {
            promise = bp_liking(bp_outcome_of(b->won, seats, bp_outcome_winner(b)), seats, mover);
        } else {
            bp_survey_t child;
            bp_change_t change = {&seen, mover, index, by_card[mask]};
            bp_survey(s, &child, &change);
            int theirs[BP_OUTCOMES], m = bp_outcomes(s, &child, theirs);
            promise = bp_most_liked(theirs, NULL, m, seats, mover, 0);
        }
        bp_undo(b, mask, index);
        promising[j] = (bp_promise_t){promise, j, plays[j], s->history[mover][mask][index]};
    }
    qsort(promising, (size_t)count, sizeof promising[0], by_promise);
    int best = -1, best_liking = -1, best_play = 0;
    for (int j = 0; j < count && promising[j].promise > best_liking; j++) {
        int mask = promising[j].play >> 3, index = (promising[j].play & 7) - 1;
        bp_play(b, mask, index);
        int found = bp_selfish(s, best < 0 ? -1 : mover, best_liking);
        bp_undo(b, mask, index);
        if (found == BP_PRUNED)
            continue;
        int liking = bp_liking(found, seats, mover);
        if (liking > best_liking)
            best = found, best_liking = liking, best_play = promising[j].play;
        if (best_liking == ceiling)
            break;
        if (parent >= 0 && bp_most_liked(outcomes, mine, n, seats, parent, best_liking) <= liked)
            return BP_PRUNED;
    }
    bp_credit(s, mover, best_play >> 3, (best_play & 7) - 1);
    table_put(&s->paranoid, seen.key, (uint64_t)best);
    return best;
}

/* The question bp_search asks for bp_selfish: the outcome (``of``: unused). */
static int bp_selfish_of(bp_search_t *s, int of) {
    (void)of;
    return bp_selfish(s, -1, -1);
}

/* ------------------------------------------------------------- the budget */

/* The tables' sizes: a search's memory stays below a few hundred MB. */
static int bp_open(bp_search_t *s) {
    return table_open(&s->states, 1 + STATES, 1 << 21) && table_open(&s->reaches, 1, 1 << 20) &&
           table_open(&s->commits, 4, 1 << 20) && table_open(&s->beating, 2, 1 << 20) &&
           table_open(&s->paranoid, BP_KEY, 1 << 21) && table_open(&s->contests, 3, 1 << 20);
}

static void bp_forget(bp_search_t *s) {
    memset(s->history, 0, sizeof s->history);
    table_clear(&s->states);
    table_clear(&s->reaches);
    table_clear(&s->commits);
    table_clear(&s->beating);
    table_clear(&s->paranoid);
    table_clear(&s->contests);
}

/* The answer of ``question`` (bp_at_least: v; bp_wins: the seat) of the
 * board: 1 or 0; -1 when the budget (``most`` positions, -1: none;
 * ``seconds``, < 0: none) ran out; -2 when ``interrupted`` said so. */
static int bp_search(bp_search_t *s, int (*question)(bp_search_t *, int), int of, long long most,
                     double seconds) {
    s->nodes = 0;
    s->most = most;
    s->deadline = seconds < 0 ? -1 : bp_clock() + seconds;
    bp_board_t kept = s->board;
    switch (setjmp(s->out)) {
    case 0:
        break;
    case 1:
        s->board = kept;
        return -1;
    default:
        s->board = kept;
        return -2;
    }
    return question(s, of);
}

#endif
