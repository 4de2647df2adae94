/* When each state, and the game, was decided (engine/analysis.py), in C.
 *
 * The Python module is the reference and says what is decided when; this
 * file computes the same answers another way. Whether a seat can still win
 * a state is exact there (its bounds and witnesses only save work), so here
 * it is found exactly too, from cheap bounds first (the army as it stands,
 * the strongest any cards could make, a greedy army) and a search of the
 * cards worth trying when they do not settle it, as analysis._candidates
 * chooses them. tests/test_quick.py holds the two to the same output.
 * Nothing here knows text or Python. */
#ifndef ORDO_ANALYSIS_H
#define ORDO_ANALYSIS_H

#include <stdlib.h>
#include <string.h>

#include "_rules.h"

#define ALL_ICONS 31
#define MAX_HELD 8
#define RANK_SIZE (UNITS * 4681 + 1) /* packed counts of four cards or fewer (armies.PACKED) */
#define MAX_KEPT (HAND_SIZE + 1) * STATES

static int analysis_ranks[RANK_SIZE]; /* analysis.RANKS */
static int analysis_packed[32];       /* armies.PACKED: told */

/* The same in base 5 (an icon's count, 0 to 4, a digit), where the ranks
 * of all armies take 6 KB, which the search reads on every step: made from
 * the two above (ranks_made). Armies below are in base 5. */
#define ARMIES 3125
static short rank_of[ARMIES];
static int card_value[32];
static const int icon_value[5] = {1, 5, 25, 125, 625};

/* An army in base 5 from its count of each icon. */
static int army_value(const int icons[5]) {
    int value = 0;
    for (int icon = 0; icon < 5; icon++)
        value += icons[icon] * icon_value[icon];
    return value;
}

static int by_key(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Whether ``packed`` counts four cards or fewer of each icon; its counts in ``icons``. */
static int counts_of(int packed, int icons[5]) {
    int fits = 1;
    for (int icon = 0; icon < 5; icon++)
        fits &= (icons[icon] = packed >> 3 * icon & 7) <= UNITS;
    return fits;
}

/* analysis._ranks: each army of four cards or fewer, by its packed icon
 * counts, numbered by strength (the rules' ranking, ``strength``). */
static void ranks_made(void) {
    static int keys[RANK_SIZE];
    int icons[5], count = 0, distinct = 0;
    for (int packed = 0; packed < RANK_SIZE; packed++)
        if (counts_of(packed, icons))
            keys[count++] = strength(icons);
    qsort(keys, (size_t)count, sizeof keys[0], by_key);
    for (int i = 0; i < count; i++)
        if (i == 0 || keys[i] != keys[distinct - 1])
            keys[distinct++] = keys[i];
    for (int packed = 0; packed < RANK_SIZE; packed++) {
        analysis_ranks[packed] = -1;
        if (!counts_of(packed, icons))
            continue;
        int key = strength(icons);
        int *at = bsearch(&key, keys, (size_t)distinct, sizeof keys[0], by_key);
        analysis_ranks[packed] = (int)(at - keys);
        rank_of[army_value(icons)] = (short)analysis_ranks[packed];
    }
    for (int mask = 0; mask < 32; mask++) {
        counts_of(analysis_packed[mask], icons);
        card_value[mask] = army_value(icons);
    }
}

/* An army found: the strongest (weakest) there is, or a greedy one, a bound. */
enum { HIGH, LOW, SOME_HIGH, SOME_LOW, FOUND };

typedef struct {
    short rank;                 /* -2: not found yet */
    unsigned char sure;         /* its cards all come from the seat's known cards */
    unsigned char count;
    unsigned char cards[UNITS]; /* the cards that make it, beyond the army as it stands */
    unsigned used;              /* the masks of those cards, or more: a card outside is not */
} found_t;

/* A seat's part of a position: all that position_play changes of the seat
 * that plays, so kept and put back whole (mover_kept, mover_back). */
typedef struct {
    unsigned char pool[32]; /* the cards it has still to play, known, by mask */
    unsigned avail; /* the masks of its pool it holds one or more of (pooled) */
    int wild;       /* and those unknown */
    int base[STATES];
    int units[STATES];
    int fourth[STATES]; /* 0: not yet */
    found_t found[FOUND][STATES];
    unsigned live; /* bit kind * STATES + state: found[kind][state] holds an army */
    unsigned char hand[MAX_HELD];
    int held;
} seat_t;

/* An army found for ``me`` in ``f``, one of its own. */
static inline void found_now(seat_t *me, const found_t *f) {
    me->live |= 1u << (f - &me->found[0][0]);
}

typedef struct {
    int seats;
    const int *points; /* NULL: classic scoring */
    int point_count;
    seat_t seat[MAX_SEATS];
    int known; /* the deal is: hands are kept */
    const unsigned char *pile;
    int pile_size;
    int trying; /* another play, back in time: every seat is asked again */
} position_t;

static int points_for(const position_t *p, int place) {
    return place < p->point_count ? p->points[place] : 0;
}

static void forget(position_t *p, int seat) {
    for (int kind = 0; kind < FOUND; kind++)
        for (int s = 0; s < STATES; s++)
            p->seat[seat].found[kind][s].rank = -2;
    p->seat[seat].live = 0;
}

/* What was found of ``seat``'s armies after it played ``card`` to ``state``,
 * ``known``: from its known cards. An army whose cards are all still to be
 * had stands: the strongest (weakest) army can only have weakened
 * (strengthened), and this one can still be made (in ``state``, without
 * the card, when it held it). The states where something found was lost
 * (and ``state``): elsewhere whatever was compared comes out the same. */
static int still_found(position_t *p, int seat, int card, int state, int known) {
    seat_t *me = &p->seat[seat];
    int lost = 1 << state, keep = known && !me->wild;
    for (unsigned rest = me->live; rest; rest &= rest - 1) {
        int at_bit = __builtin_ctz(rest), s = at_bit % STATES;
        found_t *f = &me->found[0][0] + at_bit;
        int gone;
        if (!keep || !f->sure) {
            gone = 1;
            lost |= 1 << s;
        } else if (!(f->used >> card & 1)) { /* the card is not one of them */
            gone = s == state;
        } else {
            int uses = 0, at = -1;
            for (int i = 0; i < f->count; i++)
                if (f->cards[i] == card)
                    uses++, at = i;
            gone = s == state ? at < 0 : uses > me->pool[card];
            if (gone && s != state)
                lost |= 1 << s;
            else if (s == state && !gone)
                f->cards[at] = f->cards[--f->count];
        }
        if (gone) {
            f->rank = -2;
            me->live &= ~(1u << at_bit);
        }
    }
    return lost;
}

/* ``avail`` of a seat from its pool, once that is set. */
static void pooled(position_t *p, int seat) {
    p->seat[seat].avail = 0;
    for (int mask = 1; mask < 32; mask++)
        if (p->seat[seat].pool[mask] > 0)
            p->seat[seat].avail |= 1u << mask;
}

/* Position(): ``hands`` and ``pile`` NULL when the deal is unknown. */
static void position_start(position_t *p, int seats, const unsigned char hands[][HAND_SIZE],
                           const unsigned char *pile, int pile_size, int draws_known,
                           const int *points, int point_count) {
    memset(p, 0, sizeof *p);
    p->seats = seats;
    p->points = points;
    p->point_count = point_count;
    p->known = hands != NULL;
    p->pile = pile;
    p->pile_size = pile_size;
    for (int s = 0; s < seats; s++) {
        forget(p, s);
        if (hands == NULL) {
            p->seat[s].wild = STATES * UNITS;
            continue;
        }
        for (int i = 0; i < HAND_SIZE; i++) {
            p->seat[s].pool[hands[s][i]]++;
            p->seat[s].hand[i] = hands[s][i];
        }
        p->seat[s].held = HAND_SIZE;
    }
    if (hands != NULL)
        for (int at = 0; at < STATES * UNITS * seats; at++) {
            if (at < pile_size)
                p->seat[at % seats].pool[pile[at]]++;
            else if (!draws_known)
                p->seat[at % seats].wild++;
        }
    for (int s = 0; s < seats; s++)
        pooled(p, s);
}

/* The cards ``seat`` may still place, by mask, for the strongest (weakest)
 * army of k more: its known cards, and its unknown ones as the strongest
 * card (or as any one-icon card). */
static void to_place(const position_t *p, int seat, int k, int strongest, int counts[32]) {
    for (int mask = 0; mask < 32; mask++)
        counts[mask] = p->seat[seat].pool[mask];
    int extra = p->seat[seat].wild < k ? p->seat[seat].wild : k;
    if (strongest)
        counts[ALL_ICONS] += extra;
    else
        for (int icon = 0; icon < 5; icon++)
            counts[1 << icon] += extra;
}

/* _candidates: the cards worth trying for the strongest (weakest) army of k more. */
/* The cards of ``counts`` (by mask) that do at least as well as ``mask`` for
 * the strongest (weakest) army: k of them outdo it. */
static inline int outdoing(const int counts[32], int mask, int strongest) {
    int n = 0;
    for (int m = 1; m < 32; m++)
        if (m != mask && (strongest ? (m & mask) == mask : (m & mask) == m))
            n += counts[m];
    return n;
}

static int candidates(const position_t *p, int seat, int k, int strongest, unsigned char *out) {
    int counts[32];
    to_place(p, seat, k, strongest, counts);
    int n = 0;
    for (int mask = 1; mask < 32; mask++) {
        if (counts[mask] <= 0 || outdoing(counts, mask, strongest) >= k)
            continue;
        for (int c = 0; c < counts[mask] && c < k; c++)
            out[n++] = (unsigned char)mask;
    }
    return n;
}

static int search(const unsigned char *cards, int n, int from, int k, int army, int strongest,
                  unsigned char *chosen, int depth, unsigned char *best_cards) {
    if (k == 0)
        return rank_of[army];
    int best = strongest ? -1 : 1 << 30;
    unsigned char below[UNITS];
    for (int i = from; i + k <= n; i++) {
        if (i > from && cards[i] == cards[i - 1])
            continue; /* the same card again: the same armies */
        chosen[depth] = cards[i];
        int rank = search(cards, n, i + 1, k - 1, army + card_value[cards[i]], strongest,
                          chosen, depth + 1, below);
        if (strongest ? rank > best : rank < best) {
            best = rank;
            best_cards[0] = cards[i];
            memcpy(best_cards + 1, below, (size_t)(k - 1));
        }
    }
    return best;
}

/* What was found of ``seat``'s army of ``kind`` in another state where its
 * army is the same (as in every state it has not played to): the same, as
 * it depends on the army and the seat's cards alone. */
static int twin_found(seat_t *me, int kind, int state, found_t *f) {
    for (unsigned rest = me->live >> kind * STATES & ((1u << STATES) - 1); rest; rest &= rest - 1) {
        int s = __builtin_ctz(rest);
        if (me->base[s] == me->base[state] && me->units[s] == me->units[state]) {
            *f = me->found[kind][s];
            found_now(me, f);
            return 1;
        }
    }
    return 0;
}

/* The rank of the strongest (weakest) army ``seat`` can still make in ``state``. */
static int extreme(position_t *p, int state, int seat, int strongest) {
    found_t *f = &p->seat[seat].found[strongest ? HIGH : LOW][state];
    if (f->rank != -2 || twin_found(&p->seat[seat], strongest ? HIGH : LOW, state, f))
        return f->rank;
    int k = UNITS - p->seat[seat].units[state], base = p->seat[seat].base[state];
    unsigned char cards[32 * UNITS + UNITS], chosen[UNITS];
    int n = candidates(p, seat, k, strongest, cards);
    f->sure = p->seat[seat].wild == 0 && n >= k;
    while (n < k) /* fewer cards than places: the rest could be anything */
        cards[n++] = strongest ? ALL_ICONS : 1;
    f->count = (unsigned char)k;
    f->rank = (short)search(cards, n, 0, k, base, strongest, chosen, 0, f->cards);
    found_now(&p->seat[seat], f);
    f->used = 0;
    for (int i = 0; i < k; i++)
        f->used |= 1u << f->cards[i];
    return f->rank;
}

/* The masks of ``avail`` (a set of card masks, bit m for mask m) that no
 * other of them outdoes: has no proper superset there (``strongest``), or
 * no proper subset. A card with more icons makes an army no weaker, so the
 * strongest (weakest) army takes one of these. */
static inline __attribute__((always_inline)) unsigned undominated(unsigned avail, int strongest) {
    static const unsigned without[5] = {0x55555555u, 0x33333333u, 0x0f0f0f0fu, 0x00ff00ffu,
                                        0x0000ffffu}; /* the masks without icon b */
    unsigned reach = avail, beyond = 0;
    for (int b = 0; b < 5; b++) /* reach: the masks some mask of avail contains (is within) */
        reach |= strongest ? (reach >> (1 << b)) & without[b] : (reach << (1 << b)) & ~without[b];
    for (int b = 0; b < 5; b++)
        beyond |= strongest ? (reach >> (1 << b)) & without[b] : (reach << (1 << b)) & ~without[b];
    return avail & ~beyond;
}

/* Some army of k more cards, each the one that makes the strongest (weakest) army so far
 * (made twice by the compiler, ``strongest`` a constant in each). */
static inline __attribute__((always_inline)) int greedy_army(position_t *p, int state, int seat,
                                                             int strongest, found_t *f) {
    int k = UNITS - p->seat[seat].units[state], army = p->seat[seat].base[state];
    const unsigned char *pool = p->seat[seat].pool;
    unsigned avail = p->seat[seat].avail, wild = 0; /* to_place's, and what an unknown card may be */
    int extra = p->seat[seat].wild < k ? p->seat[seat].wild : k;
    if (extra > 0)
        wild = strongest ? 1u << ALL_ICONS : 1u << 1 | 1u << 2 | 1u << 4 | 1u << 8 | 1u << 16;
    avail |= wild;
    f->sure = p->seat[seat].wild == 0;
    f->count = (unsigned char)k;
    f->used = 0;
    for (int i = 0; i < k && i < UNITS; i++) {
        int pick = 0, best = 0;
        for (unsigned rest = undominated(avail, strongest); rest; rest &= rest - 1) {
            int mask = __builtin_ctz(rest);
            int rank = rank_of[army + card_value[mask]];
            if (pick == 0 || (strongest ? rank > best : rank < best))
                pick = mask, best = rank;
        }
        if (pick == 0) {
            pick = strongest ? ALL_ICONS : 1, f->sure = 0;
        } else {
            int left = pool[pick] + (wild >> pick & 1 ? extra : 0) - 1;
            for (int j = 0; j < i; j++)
                left -= f->cards[j] == pick;
            if (left == 0)
                avail &= ~(1u << pick);
        }
        f->cards[i] = (unsigned char)pick;
        f->used |= 1u << pick;
        army += card_value[pick];
    }
    found_now(&p->seat[seat], f);
    return f->rank = rank_of[army];
}

static int find_greedy(position_t *p, int state, int seat, int strongest, found_t *f) {
    if (twin_found(&p->seat[seat], strongest ? SOME_HIGH : SOME_LOW, state, f))
        return f->rank;
    return strongest ? greedy_army(p, state, seat, 1, f) : greedy_army(p, state, seat, 0, f);
}

static inline int greedy(position_t *p, int state, int seat, int strongest) {
    found_t *f = &p->seat[seat].found[strongest ? SOME_HIGH : SOME_LOW][state];
    return f->rank != -2 ? f->rank : find_greedy(p, state, seat, strongest, f);
}

/* Position.beats: ``seat``'s strongest army could outrank ``other``'s weakest,
 * a tie going by the earlier fourth card. */
static int beats(position_t *p, int state, int seat, int other) {
    int ceiling = rank_of[p->seat[seat].base[state] +
                                 (UNITS - p->seat[seat].units[state]) * card_value[ALL_ICONS]];
    if (ceiling < rank_of[p->seat[other].base[state]])
        return 0;
    if (greedy(p, state, seat, 1) > greedy(p, state, other, 0))
        return 1;
    int mine = extreme(p, state, seat, 1), theirs = extreme(p, state, other, 0);
    if (mine != theirs)
        return mine > theirs;
    if (p->seat[other].fourth[state] == 0)
        return 1; /* I could play my fourth card first */
    return p->seat[seat].fourth[state] != 0 && p->seat[seat].fourth[state] < p->seat[other].fourth[state];
}

static int can_win(position_t *p, int state, int seat) {
    for (int other = 0; other < p->seats; other++)
        if (other != seat && !beats(p, state, seat, other))
            return 0;
    return 1;
}

/* The seats of ``chances`` (a mask) that can still win ``state``. */
static int winners(position_t *p, int state, int chances) {
    int found = 0;
    for (int seat = 0; seat < p->seats; seat++)
        if (chances >> seat & 1 && can_win(p, state, seat))
            found |= 1 << seat;
    return found;
}

static int one_seat(int mask) { return mask && !(mask & (mask - 1)); }

/* The resolving ply of a state still open: after any placed. */
#define OPEN (MAX_PLIES + 1)

/* _tie_broken: the seats of ``level`` (a mask), level at the top of scores
 * that can no longer change, that can still win by the tie-break rules,
 * ``won`` being the seat that surely wins each state: the most states among
 * them (points, D2), then the latest capture (a state still open: OPEN). */
static int tie_broken(const position_t *p, int level, const int won[STATES]) {
    int states[MAX_SEATS] = {0}, latest[MAX_SEATS] = {0}, most = 0, last = 0, found = 0;
    for (int state = 0; state < STATES; state++) {
        int ply = 0;
        for (int seat = 0; seat < p->seats; seat++)
            if (p->seat[seat].units[state] < UNITS)
                ply = OPEN;
            else if (ply < OPEN && p->seat[seat].fourth[state] > ply)
                ply = p->seat[seat].fourth[state];
        states[won[state]]++;
        if (ply > latest[won[state]])
            latest[won[state]] = ply;
    }
    for (int seat = 0; seat < p->seats; seat++)
        if (level >> seat & 1 && states[seat] > most)
            most = states[seat];
    for (int seat = 0; seat < p->seats; seat++)
        if (level >> seat & 1 && states[seat] == most && latest[seat] > last)
            last = latest[seat];
    for (int seat = 0; seat < p->seats; seat++)
        found |= (level >> seat & 1 && states[seat] == most && latest[seat] == last) << seat;
    return found;
}

/* _game_winners: the seats that can still win the game, the states taken one by one;
 * ``can`` holds the winners of each state (classic scoring reads them). */
static int game_winners(position_t *p, const int can[STATES]) {
    int seats = p->seats, best[MAX_SEATS] = {0}, worst[MAX_SEATS] = {0}, won[STATES];
    for (int state = 0; state < STATES; state++) {
        won[state] = -1;
        for (int seat = 0; seat < seats; seat++) {
            if (p->points == NULL) {
                best[seat] += can[state] >> seat & 1;
                worst[seat] += can[state] == 1 << seat;
                if (can[state] == 1 << seat)
                    won[state] = seat;
                continue;
            }
            int high = 0, low = 0;
            for (int other = 0; other < seats; other++)
                if (other != seat) {
                    high += !beats(p, state, seat, other);
                    low += beats(p, state, other, seat);
                }
            best[seat] += points_for(p, high);
            worst[seat] += points_for(p, low);
            if (low == 0) /* no other seat could outrank it */
                won[state] = seat;
        }
    }
    int found = 0, fixed = 1;
    for (int seat = 0; seat < seats; seat++) {
        int ahead = 1;
        for (int other = 0; other < seats; other++)
            if (other != seat && best[seat] < worst[other])
                ahead = 0;
        found |= ahead << seat;
        fixed &= best[seat] == worst[seat];
    }
    for (int state = 0; state < STATES; state++)
        fixed &= won[state] >= 0;
    return fixed && !one_seat(found) ? tie_broken(p, found, won) : found;
}

/* Position.play: ``seat`` plays ``card`` to ``state`` at ``ply``; the states
 * whose winners may have changed (still_found). */
static int position_play(position_t *p, int ply, int seat, int card, int state) {
    int known = p->seat[seat].pool[card] > 0;
    if (known) {
        if (--p->seat[seat].pool[card] == 0)
            p->seat[seat].avail &= ~(1u << card);
    } else if (p->seat[seat].wild) {
        p->seat[seat].wild--;
    }
    if (p->known) {
        unsigned char *hand = p->seat[seat].hand;
        if (ply - 1 < p->pile_size && p->seat[seat].held < MAX_HELD)
            hand[p->seat[seat].held++] = p->pile[ply - 1];
        for (int i = 0; i < p->seat[seat].held; i++)
            if (hand[i] == card) {
                memmove(hand + i, hand + i + 1, (size_t)(p->seat[seat].held - i - 1));
                p->seat[seat].held--;
                break;
            }
    }
    p->seat[seat].base[state] += card_value[card];
    if (++p->seat[seat].units[state] == UNITS)
        p->seat[seat].fourth[state] = ply;
    return still_found(p, seat, card, state, known);
}

/* The seat that plays kept before a play, for the position before it where
 * a loss asks for it (before_of), and to take back a play tried in its
 * place (keeps). */
typedef seat_t mover_t;

static void mover_kept(const position_t *p, int seat, mover_t *m) { *m = p->seat[seat]; }

static void mover_back(position_t *p, int seat, const mover_t *m) { p->seat[seat] = *m; }

static const position_t *before_of(const position_t *p, int seat, const mover_t *m) {
    static position_t before;
    before = *p;
    mover_back(&before, seat, m);
    return &before;
}

typedef struct {
    int seat, ply, by;
    int kept; /* the plays that would have kept the chance, as (card, state) */
    unsigned char card[MAX_KEPT], state[MAX_KEPT];
} loss_t;

/* A seat loses a state once (what can be made only narrows), and the game
 * once where every card to come is known or none is; where a pile ran
 * out early, what can be made is no longer monotone (analysis_t.spilt). */
#define MAX_LOSSES (2 * MAX_SEATS)

typedef struct {
    /* [STATES]: the game */
    int decided[STATES + 1]; /* -1: never */
    int resolved[STATES];    /* 0: not in the plays recorded */
    int can[STATES + 1];
    int losses[STATES + 1];
    loss_t loss[STATES + 1][MAX_LOSSES];
    int exact;
    int spilt; /* more losses than kept: the analysis is not to be used */
} analysis_t;

/* Whether ``seat`` could still win ``target`` (STATES: the game) had it played
 * ``card`` to ``state`` at ``ply`` in ``before`` instead (``can``: the
 * winners of each state there). */
static int keeps(position_t *trial, const mover_t *m, const int can[STATES], int ply, int seat,
                 int card, int state, int target) {
    int moved = position_play(trial, ply, seat, card, state), kept;
    if (target < STATES) {
        kept = can_win(trial, target, seat);
    } else {
        int now[STATES];
        int everyone = (1 << trial->seats) - 1;
        for (int s = 0; s < STATES; s++)
            now[s] = trial->points != NULL ? 0
                     : moved >> s & 1      ? winners(trial, s, everyone)
                                           : can[s];
        kept = game_winners(trial, now) >> seat & 1;
    }
    mover_back(trial, seat, m); /* the play taken back: the others' armies found stay true */
    return kept;
}

static void take_out(unsigned char *hand, int *held, int card) {
    for (int i = 0; i < *held; i++)
        if (hand[i] == card) {
            memmove(hand + i, hand + i + 1, (size_t)(*held - i - 1));
            (*held)--;
            return;
        }
}

/* Whether ``seat``, able to win ``target`` in ``before``, still could had it
 * played ``card`` to another state: so when every army found of it in
 * ``target`` stands (still_found would keep it), for then whether it can
 * win there is asked of the same armies, found as before. */
static int stands_elsewhere(const position_t *before, int seat, int card, int target) {
    int known = before->seat[seat].pool[card] > 0;
    int wild = before->seat[seat].wild - (!known && before->seat[seat].wild > 0);
    for (int kind = 0; kind < FOUND; kind++) {
        const found_t *f = &before->seat[seat].found[kind][target];
        if (f->rank == -2)
            continue;
        if (!known || !f->sure || wild)
            return 0;
        int uses = 0;
        for (int i = 0; i < f->count; i++)
            uses += f->cards[i] == card;
        if (uses > before->seat[seat].pool[card] - 1)
            return 0;
    }
    return 1;
}

/* _alternatives: the other plays from ``hand``, the hand ``seat`` held at
 * ``ply`` (in ``before``), that keep ``target``. */
static void alternatives(const position_t *before, const int can[STATES], const unsigned char *hand,
                         int held, int ply, int seat, int played_card, int played_state,
                         int target, loss_t *loss) {
    static position_t trial; /* before, each other play tried in it and taken back */
    trial = *before;
    trial.trying = 1;
    trial.known = 0; /* (the hands are not asked again) */
    mover_t kept_back;
    mover_kept(&trial, seat, &kept_back);
    int elsewhere[32];
    for (int m = 0; m < 32; m++)
        elsewhere[m] = -1;
    for (int i = 0; i < held; i++) {
        int card = hand[i], again = 0;
        for (int j = 0; j < i; j++)
            again |= hand[j] == card;
        if (again)
            continue;
        for (int state = 0; state < STATES; state++) {
            if ((card == played_card && state == played_state) ||
                before->seat[seat].units[state] >= UNITS)
                continue;
            int kept;
            if (target < STATES && state != target) {
                if (elsewhere[card] < 0)
                    elsewhere[card] = stands_elsewhere(before, seat, card, target) ||
                                      keeps(&trial, &kept_back, can, ply, seat, card, state, target);
                kept = elsewhere[card];
            } else {
                kept = keeps(&trial, &kept_back, can, ply, seat, card, state, target);
            }
            if (kept && loss->kept < MAX_KEPT) {
                loss->card[loss->kept] = (unsigned char)card;
                loss->state[loss->kept++] = (unsigned char)state;
            }
        }
    }
}

/* ``seat`` could no longer win ``target`` after ``by`` played ``card`` to
 * ``state`` at ``ply`` (``p`` after it, ``before`` before). Its own play,
 * with the deal known: the plays that would have kept it, from its hand
 * in the order Position.undone leaves it (the card played back at its end,
 * the card drawn taken out and drawn again), which is the order they are
 * said in; that order then stays in ``p``, as it does in Python. */
static void lost(analysis_t *a, int target, int seat, int ply, int by, position_t *p,
                 const position_t *before, const int can[STATES], int card, int state) {
    if (a->losses[target] == MAX_LOSSES) {
        a->spilt = 1;
        return;
    }
    loss_t *loss = &a->loss[target][a->losses[target]++];
    loss->seat = seat;
    loss->ply = ply;
    loss->by = by;
    loss->kept = 0;
    if (seat != by || !p->known)
        return;
    unsigned char hand[MAX_HELD + 2];
    int held = p->seat[seat].held, drawn = ply - 1 < p->pile_size ? p->pile[ply - 1] : 0;
    memcpy(hand, p->seat[seat].hand, (size_t)held);
    hand[held++] = (unsigned char)card;
    if (drawn) {
        take_out(hand, &held, drawn);
        hand[held++] = (unsigned char)drawn;
    }
    alternatives(before, can, hand, held, ply, seat, card, state, target, loss);
    take_out(hand, &held, card);
    if (held <= MAX_HELD) {
        memcpy(p->seat[seat].hand, hand, (size_t)held);
        p->seat[seat].held = held;
    }
}

/* After ``seat`` played ``card`` to ``state`` at ``ply``, the seats that can
 * still win ``target`` (STATES: the game) are ``now``, fewer than before. */
static void now_can(analysis_t *a, int target, int now, int ply, int seat, position_t *p,
                    const position_t *before, const int can[STATES], int card, int state) {
    for (int gone = 0; before != NULL && gone < p->seats; gone++)
        if ((a->can[target] & ~now) >> gone & 1)
            lost(a, target, gone, ply, seat, p, before, can, card, state);
    a->can[target] = now;
    if (one_seat(now) && a->decided[target] < 0)
        a->decided[target] = ply;
}

/* The seats of ``chances`` that can still win ``state`` after ``mover``
 * played: winners(), asking only what the play could change. Only the
 * mover's armies changed, so another seat of ``chances``, which could beat
 * every seat there before, still beats all but the mover. */
static int winners_after(position_t *p, int state, int chances, int mover) {
    int found = 0;
    for (int seat = 0; seat < p->seats; seat++)
        if (chances >> seat & 1 &&
            (seat == mover ? can_win(p, state, seat) : beats(p, state, seat, mover)))
            found |= 1 << seat;
    return found;
}

/* analysis.analyse of legal plays (``cards``, ``states``: ``count`` of them)
 * from ``p`` as position_start left it. Without ``losses``, only when each
 * state and the game were decided, up to the ply the game was: the same
 * plies, for a loss changes what can be made by no one (tests/test_archive_ops.py). */
static inline void analyse_plays(position_t *p, const unsigned char *cards, const unsigned char *states,
                          int count, analysis_t *a, int losses) {
    memset(a, 0, sizeof *a);
    int everyone = (1 << p->seats) - 1;
    for (int s = 0; s < STATES; s++) {
        a->can[s] = winners(p, s, everyone);
        a->decided[s] = one_seat(a->can[s]) ? 0 : -1;
    }
    a->can[STATES] = game_winners(p, a->can);
    a->decided[STATES] = one_seat(a->can[STATES]) ? 0 : -1;
    mover_t mover;
    for (int ply = 1; ply <= count && (losses || a->decided[STATES] < 0); ply++) {
        int seat = (ply - 1) % p->seats, card = cards[ply - 1], state = states[ply - 1];
        mover_kept(p, seat, &mover);
        const position_t *before = NULL; /* made where a loss asks for it */
        int can[STATES];
        memcpy(can, a->can, sizeof can);
        int moved = position_play(p, ply, seat, card, state);
        int full = 1;
        for (int s = 0; s < p->seats; s++)
            full &= p->seat[s].units[state] == UNITS;
        if (full)
            a->resolved[state] = ply;
        int changed = 0;
        for (int target = 0; target < STATES; target++) {
            if (!(moved >> target & 1))
                continue;
            int now = winners_after(p, target, a->can[target], seat);
            if (now == a->can[target])
                continue;
            changed = 1;
            if (before == NULL && losses)
                before = before_of(p, seat, &mover);
            now_can(a, target, now, ply, seat, p, before, can, card, state);
        }
        /* classic scoring: the states' winners count, and the order they resolve in */
        if (!changed && !full && p->points == NULL)
            continue;
        int game = game_winners(p, a->can);
        if (game != a->can[STATES]) {
            if (before == NULL && losses)
                before = before_of(p, seat, &mover);
            now_can(a, STATES, game, ply, seat, p, before, can, card, state);
        }
    }
    a->exact = p->known;
    for (int s = 0; s < p->seats; s++)
        a->exact &= p->seat[s].wild == 0;
}

#endif
