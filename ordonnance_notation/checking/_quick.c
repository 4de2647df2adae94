/* The quick check: ordo validate's hot path in C, for the records that have
 * nothing to report.
 *
 * check_block() cuts a block of lines into records, as split_lines does, and
 * for each record written plainly (an element a line, no comment, every word
 * spelt the usual way) reads the header, the deal and the plays, replays them
 * under the rules (rules.md) and compares the declared markers and result.
 * A record it accepts is one the Python validator finds no diagnostic in; it
 * gives back only what the report of such a record says (the players, the
 * outcome, the markers). Anything else, the slightest doubt included, it
 * declines: the record's text goes back to the Python path, which reports.
 * So this file never words a diagnostic, and the Python modules stay the one
 * reference: tests/test_quick.py holds the two to the same verdict on every
 * corpus of the project.
 *
 * The text is read as UTF-8 bytes. Only a tag's value may hold a byte that
 * is not ASCII; a block holding a brace, a semicolon, a backslash or a
 * control character other than the line end is declined whole.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "../engine/_analysis.h"
#include "../engine/_analysis_py.h"
#include "../engine/_rules.h"
#include "_cutting.h"

#define MAX_TAGS 64

enum { BLANK, TAG, BODY };
enum { UNFINISHED = -1, UNKNOWN = -3 }; /* and SHARED, a declared outcome too */

typedef struct {
    const char *p;
    Py_ssize_t n;
} text_t;

/* ------------------------------------------------------------------ words */

static int is_space(char c) { return c == ' '; }
static int is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_name_char(char c) { return is_letter(c) || is_digit(c) || c == '_'; }

/* A character a block the core cuts may hold: no control character, no
 * comment, no escape (a line end apart). */
static int plain_char(unsigned char c) {
    return c == '\n' || !(c < 0x20 || c == 0x7f || c == '{' || c == '}' || c == ';' || c == '\\');
}

/* The characters past ASCII a terminal obeys (diagnostics.OBEYED_RANGES, as
 * configure gives them): the validator warns of them (W504), so a block
 * holding one is left to it, as one holding a control character is. */
static Py_UCS4 obeyed[8][2];
static int obeyed_count;

/* Whether the UTF-8 text from ``s`` (``n`` bytes) holds none of them. */
static int none_obeyed(const unsigned char *s, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) {
        if (s[i] < 0x80)
            continue;
        Py_UCS4 c;
        if (s[i] >= 0xF0)
            c = (Py_UCS4)(s[i] & 0x07) << 18 | (Py_UCS4)(s[i + 1] & 0x3F) << 12 |
                (Py_UCS4)(s[i + 2] & 0x3F) << 6 | (s[i + 3] & 0x3F), i += 3;
        else if (s[i] >= 0xE0)
            c = (Py_UCS4)(s[i] & 0x0F) << 12 | (Py_UCS4)(s[i + 1] & 0x3F) << 6 | (s[i + 2] & 0x3F),
            i += 2;
        else
            c = (Py_UCS4)(s[i] & 0x1F) << 6 | (s[i + 1] & 0x3F), i += 1;
        for (int r = 0; r < obeyed_count; r++)
            if (c >= obeyed[r][0] && c <= obeyed[r][1])
                return 0;
    }
    return 1;
}

static int same(text_t t, const char *word) {
    Py_ssize_t n = (Py_ssize_t)strlen(word);
    return t.n == n && memcmp(t.p, word, (size_t)n) == 0;
}

/* The words of the notation, given once by quick.py from the Python
 * modules that define them (configure): each fact is written there. */
static int icon_bit[128];               /* the bit of each icon letter (Icon), else 0 */
static char spellings[STATES * 2][16];  /* the usual spellings of each state (state_spelt) */
static int spelt_state[STATES * 2];
static int spelling_count;
static char glyphs[8][4]; /* the glyphs a play may end with (terminals.GLYPHS) */
static int glyph_count;
static int usual_points[MAX_SEATS]; /* the points table of points scoring (DEFAULT_POINTS, D1) */
static int usual_point_count;

/* The mask of the card spelt by these letters, each icon once; 0 for
 * anything else (Card.from_letters). */
static int card_of(text_t t) {
    int mask = 0;
    if (t.n < 1 || t.n > 5)
        return 0;
    for (Py_ssize_t i = 0; i < t.n; i++) {
        unsigned char c = (unsigned char)t.p[i];
        int bit = c < 128 ? icon_bit[c] : 0;
        if (bit == 0 || mask & bit)
            return 0;
        mask |= bit;
    }
    return mask;
}

/* The state (0 for the first, A) in its usual spellings, else -1. */
static int state_of(text_t t) {
    for (int i = 0; i < spelling_count; i++)
        if (same(t, spellings[i]))
            return spelt_state[i];
    return -1;
}

static int is_glyph(text_t t) {
    for (int i = 0; i < glyph_count; i++)
        if (same(t, glyphs[i]))
            return 1;
    return 0;
}

/* The seat named P1 to P<seats> (0 for P1), else -1 (SEAT_INDEX). */
static int seat_of(text_t t, int seats) {
    if (t.n == 2 && t.p[0] == 'P' && t.p[1] >= '1' && t.p[1] < '1' + seats)
        return t.p[1] - '1';
    return -1;
}

/* A seat tag's name, P followed by digits only (_SEAT_TAG in the cutter and the header). */
static int names_a_seat(text_t name) {
    if (name.n < 2 || name.n > 10 || name.p[0] != 'P')
        return 0;
    for (Py_ssize_t i = 1; i < name.n; i++)
        if (!is_digit(name.p[i]))
            return 0;
    return 1;
}

/* ``t`` without the blanks around it (str.strip, blanks being spaces here). */
static text_t trimmed(text_t t) {
    while (t.n && is_space(t.p[0]))
        t.p++, t.n--;
    while (t.n && is_space(t.p[t.n - 1]))
        t.n--;
    return t;
}

/* A value's word, blanks around it removed and in lower case; 0 when it is
 * not ASCII letters (or too long for ``out``). */
static int lower_word(text_t value, char *out, size_t size) {
    value = trimmed(value);
    if (value.n == 0 || (size_t)value.n >= size)
        return 0;
    for (Py_ssize_t i = 0; i < value.n; i++) {
        char c = value.p[i];
        if (!is_letter(c))
            return 0;
        out[i] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    out[value.n] = '\0';
    return 1;
}

/* A declared outcome (declared_outcome): a seat, UNFINISHED, SHARED, or UNKNOWN. */
static int outcome_of(text_t t, int seats) {
    int seat = seat_of(trimmed(t), seats);
    if (seat >= 0)
        return seat;
    char low[12];
    if (!lower_word(t, low, sizeof low))
        return UNKNOWN;
    if (strcmp(low, "unfinished") == 0)
        return UNFINISHED;
    if (strcmp(low, "shared") == 0)
        return SHARED;
    return UNKNOWN;
}

/* The whole number written by these digits (at most nine), else -1. */
static int number_of(text_t t) {
    if (t.n < 1 || t.n > 9)
        return -1;
    int n = 0;
    for (Py_ssize_t i = 0; i < t.n; i++) {
        if (!is_digit(t.p[i]))
            return -1;
        n = n * 10 + (t.p[i] - '0');
    }
    return n;
}

/* Where a line's first word starts: its length when it is blank. */
static Py_ssize_t indent(text_t line) {
    Py_ssize_t pos = 0;
    while (pos < line.n && is_space(line.p[pos]))
        pos++;
    return pos;
}

/* The next word of a line from *at, up to a blank or the line's end; n == 0 at the end. */
static text_t next_word(text_t line, Py_ssize_t *at) {
    Py_ssize_t i = *at;
    while (i < line.n && is_space(line.p[i]))
        i++;
    Py_ssize_t start = i;
    while (i < line.n && !is_space(line.p[i]))
        i++;
    *at = i;
    text_t word = {line.p + start, i - start};
    return word;
}

static int all_letters(text_t t) {
    if (t.n == 0)
        return 0;
    for (Py_ssize_t i = 0; i < t.n; i++)
        if (!is_letter(t.p[i]))
            return 0;
    return 1;
}

/* ----------------------------------------------------------------- record */

typedef struct {
    text_t name, value;
} tag_t;

/* A tag line written plainly, [Name "value"], nothing around it. */
static int tag_line(text_t line, tag_t *tag) {
    if (line.n < 5 || line.p[0] != '[' || line.p[line.n - 1] != ']' || line.p[line.n - 2] != '"')
        return 0;
    Py_ssize_t i = 1;
    if (!is_letter(line.p[i]))
        return 0;
    while (i < line.n && is_name_char(line.p[i]))
        i++;
    tag->name.p = line.p + 1;
    tag->name.n = i - 1;
    if (i + 1 >= line.n - 2 || line.p[i] != ' ' || line.p[i + 1] != '"')
        return 0;
    tag->value.p = line.p + i + 2;
    tag->value.n = line.n - 2 - (i + 2);
    return memchr(tag->value.p, '"', (size_t)tag->value.n) == NULL;
}

/* Whether a tag of this name is never warned of (W503), asked of the Python
 * reader once per name (header.tag_never_warned) and kept here. */
#define JUDGED 64
static struct {
    char name[32];
    Py_ssize_t n;
    int fine;
} judged[JUDGED];
static int judged_count;

static int tag_fine(text_t name, PyObject *judge) {
    for (int i = 0; i < judged_count; i++)
        if (judged[i].n == name.n && memcmp(judged[i].name, name.p, (size_t)name.n) == 0)
            return judged[i].fine;
    PyObject *word = PyUnicode_DecodeUTF8(name.p, name.n, NULL);
    if (word == NULL)
        return -1;
    PyObject *answer = PyObject_CallOneArg(judge, word);
    Py_DECREF(word);
    if (answer == NULL)
        return -1;
    int fine = PyObject_IsTrue(answer);
    Py_DECREF(answer);
    if (fine >= 0 && judged_count < JUDGED && name.n < (Py_ssize_t)sizeof judged[0].name) {
        memcpy(judged[judged_count].name, name.p, (size_t)name.n);
        judged[judged_count].n = name.n;
        judged[judged_count].fine = fine;
        judged_count++;
    }
    return fine;
}

/* Whether a player's name holds more than blanks (W502: str.strip()). */
static int has_name(text_t value, PyObject *name) {
    int wide = 0;
    for (Py_ssize_t i = 0; i < value.n; i++) {
        unsigned char c = (unsigned char)value.p[i];
        if (c > ' ' && c < 0x80)
            return 1;
        wide |= c >= 0x80;
    }
    if (!wide)
        return 0;
    Py_ssize_t length = PyUnicode_GET_LENGTH(name);
    int kind = PyUnicode_KIND(name);
    const void *data = PyUnicode_DATA(name);
    for (Py_ssize_t i = 0; i < length; i++)
        if (!Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)))
            return 1;
    return 0;
}

/* The points table of a Points tag (header.points_table), by rank; 0 when it is not one. */
static int points_of(text_t value, int points[MAX_SEATS]) {
    int count = 0;
    Py_ssize_t at = 0;
    for (;;) {
        text_t word = next_word(value, &at);
        if (word.n == 0)
            break;
        int n = number_of(word);
        if (count == MAX_SEATS || n < 0)
            return 0;
        if (count && n > points[count - 1])
            return 0;
        points[count++] = n;
    }
    return count;
}

/* ----------------------------------------------------------------- header */

typedef struct {
    int seats;
    const tag_t *seat_tags[MAX_SEATS];
    int points[MAX_SEATS];
    int point_count; /* 0: classic scoring */
    int outcome;     /* what the Result tag declares */
} header_t;

static const tag_t *tag_named(const tag_t *tags, int count, const char *name) {
    for (int i = 0; i < count; i++)
        if (same(tags[i].name, name))
            return &tags[i];
    return NULL;
}

/* header.read_header with nothing to report: 1, else 0 (declined) or -1 (an exception). */
static int read_header(const tag_t *tags, int count, PyObject *judge, header_t *h) {
    memset(h, 0, sizeof *h);
    for (int i = 0; i < count; i++) {
        for (int j = 0; j < i; j++)
            if (tags[j].name.n == tags[i].name.n &&
                memcmp(tags[j].name.p, tags[i].name.p, (size_t)tags[i].name.n) == 0)
                return 0;
        int fine = tag_fine(tags[i].name, judge);
        if (fine <= 0)
            return fine;
        if (names_a_seat(tags[i].name)) {
            if (tags[i].name.n != 2 || tags[i].name.p[1] < '1' || tags[i].name.p[1] > '4')
                return 0;
            h->seat_tags[tags[i].name.p[1] - '1'] = &tags[i];
        }
    }
    const tag_t *version = tag_named(tags, count, "Notation");
    if (version != NULL && !same(version->value, "1"))
        return 0;
    while (h->seats < MAX_SEATS && h->seat_tags[h->seats] != NULL)
        h->seats++;
    for (int s = h->seats; s < MAX_SEATS; s++)
        if (h->seat_tags[s] != NULL)
            return 0;
    if (h->seats < 2)
        return 0;
    const tag_t *scoring = tag_named(tags, count, "Scoring");
    const tag_t *points = tag_named(tags, count, "Points");
    char kind[16] = "classic";
    if (scoring != NULL && !lower_word(scoring->value, kind, sizeof kind))
        return 0;
    if (strcmp(kind, "points") == 0) {
        if (points == NULL) {
            memcpy(h->points, usual_points, sizeof usual_points);
            h->point_count = usual_point_count;
        } else if ((h->point_count = points_of(points->value, h->points)) == 0) {
            return 0;
        }
    } else if (strcmp(kind, "classic") != 0 || points != NULL) {
        return 0;
    }
    const tag_t *result = tag_named(tags, count, "Result");
    if (result == NULL)
        return 0;
    h->outcome = outcome_of(result->value, h->seats);
    return h->outcome != UNKNOWN;
}

/* ----------------------------------------------------------------- record */

enum { DEAL, PLAYS, RESULT };

static int dealt_whole(const table_t *t) {
    if (t->dealt != (1 << t->seats) - 1 || t->piles != 1)
        return 0;
    for (int s = 0; s < t->seats; s++)
        if (t->hand_size[s] != HAND_SIZE)
            return 0;
    return 1;
}

/* A tuple of ``n`` numbers (Py_BuildValue reads its format at each call). */
static PyObject *ints_of(int n, ...) {
    PyObject *tuple = PyTuple_New(n);
    va_list numbers;
    va_start(numbers, n);
    for (int i = 0; tuple != NULL && i < n; i++) {
        PyObject *number = PyLong_FromLong(va_arg(numbers, int));
        if (number == NULL)
            Py_CLEAR(tuple);
        else
            PyTuple_SET_ITEM(tuple, i, number);
    }
    va_end(numbers);
    return tuple;
}

/* What the report of an accepted record says:
 * (first line, names, winner or None, scores, states, tie-break, tied,
 *  points scoring?, markers as (marker, state 1-5, seat, ply)[, analysis]). */
static PyObject *verdict(const table_t *t, const outcome_t *o, PyObject *names, int first_line,
                         int is_points, PyObject *analysis) {
    PyObject *markers = PyTuple_New(STATES);
    if (markers == NULL)
        return NULL;
    for (int r = 0; r < STATES; r++) {
        PyObject *marker = ints_of(4, r + 1, t->order[r] + 1, t->ranking[r][0], t->ply_of[r]);
        if (marker == NULL) {
            Py_DECREF(markers);
            return NULL;
        }
        PyTuple_SET_ITEM(markers, r, marker);
    }
    PyObject *winner = o->winner == SHARED ? Py_NewRef(Py_None) : PyLong_FromLong(o->winner);
    PyObject *scores = small_tuple(o->scores, t->seats);
    PyObject *states = small_tuple(o->states, t->seats);
    PyObject *tied = small_tuple(o->tied, o->tied_count);
    PyObject *answer = NULL;
    if (winner != NULL && scores != NULL && states != NULL && tied != NULL)
        answer = Py_BuildValue(analysis ? "(iOOOOiOOOO)" : "(iOOOOiOOO)", first_line, names,
                               winner, scores, states, o->tie_break, tied,
                               is_points ? Py_True : Py_False, markers, analysis);
    Py_XDECREF(winner);
    Py_XDECREF(scores);
    Py_XDECREF(states);
    Py_XDECREF(tied);
    Py_DECREF(markers);
    return answer;
}

/* Whether a card is spelt as Card.__str__ spells it: its icons in icon order. */
static int card_spelt_usually(text_t t) {
    int last = 0;
    for (Py_ssize_t i = 0; i < t.n; i++) {
        int bit = icon_bit[(unsigned char)t.p[i]];
        if (bit < last)
            return 0;
        last = bit;
    }
    return 1;
}

/* How the plays of a record are written (bits): with a seat, without one,
 * and otherwise than N. [Pn] CARD STATE with its card as Card.__str__ spells
 * it and its state's letter (a draw, a glyph, another spelling). */
enum { SEATED = 1, UNSEATED = 2, ODD = 4, UNORDERED = 16 }; /* UNORDERED: the deal written
 * otherwise than P1's hand, P2's, ..., the pile */

/* One play line: N. [Pn] [+CARD] CARD STATE [GLYPH], as ply ``expected``;
 * how it is written goes into ``*form``. */
static int play_line(table_t *t, text_t rest, int expected, int *form) {
    Py_ssize_t at = 0;
    text_t word = next_word(rest, &at), digits = {word.p, word.n - 1};
    /* the number as "%d." writes it: no sign, no leading zero */
    if (word.n < 2 || word.p[word.n - 1] != '.' || word.p[0] == '0' || number_of(digits) != expected)
        return 0;
    word = next_word(rest, &at);
    int seat = -1, drawn = 0;
    if (word.n > 1 && word.p[0] == 'P' && is_digit(word.p[1])) {
        if ((seat = seat_of(word, t->seats)) < 0)
            return 0;
        word = next_word(rest, &at);
    }
    if (word.n > 1 && word.p[0] == '+') {
        text_t letters = {word.p + 1, word.n - 1};
        if ((drawn = card_of(letters)) == 0)
            return 0;
        word = next_word(rest, &at);
    }
    int card = card_of(word);
    text_t state_word = next_word(rest, &at);
    int state = state_of(state_word);
    if (card == 0 || state < 0)
        return 0;
    text_t glyph = next_word(rest, &at);
    if (glyph.n && !is_glyph(glyph))
        return 0;
    *form |= seat >= 0 ? SEATED : UNSEATED;
    if (drawn || glyph.n || !card_spelt_usually(word) || !same(state_word, spellings[2 * state]))
        *form |= ODD;
    return next_word(rest, &at).n == 0 && play(t, card, state, seat, drawn);
}

/* One declared resolution: #M STATE SEAT, as the replay resolved it so far. */
static int declared_line(const table_t *t, int declared[STATES], text_t rest) {
    Py_ssize_t at = 0;
    text_t word = next_word(rest, &at);
    int marker = word.n == 2 && word.p[1] >= '1' && word.p[1] <= '5' ? word.p[1] - '0' : 0;
    int state = state_of(next_word(rest, &at));
    int seat = seat_of(next_word(rest, &at), t->seats);
    if (marker == 0 || state < 0 || seat < 0 || next_word(rest, &at).n)
        return 0;
    if (declared[state] || t->marker[state] != marker || t->ranking[marker - 1][0] != seat)
        return 0;
    declared[state] = 1;
    return 1;
}

typedef struct {
    int outcome; /* UNKNOWN: no result line */
    int given;   /* bit s: a score is declared for seat s */
    int scores[MAX_SEATS];
    text_t word;            /* the outcome as written */
    int order[MAX_SEATS];   /* the seats of the scores, in the order written */
    int count;
} result_t;

/* The result line: result OUTCOME [Pn:COUNT ...]. */
static int result_line(const table_t *t, text_t rest, result_t *r) {
    Py_ssize_t at = 0;
    next_word(rest, &at);
    text_t outcome = next_word(rest, &at);
    if (!names_a_seat(outcome) && !all_letters(outcome))
        return 0;
    r->word = outcome;
    if ((r->outcome = outcome_of(outcome, t->seats)) == UNKNOWN)
        return 0;
    for (;;) {
        text_t given = next_word(rest, &at);
        if (given.n == 0)
            return 1;
        if (given.n < 4 || given.n > 12 || given.p[2] != ':')
            return 0;
        text_t seat_word = {given.p, 2};
        int seat = seat_of(seat_word, t->seats);
        if (seat < 0 || r->given & 1 << seat)
            return 0;
        text_t digits = {given.p + 3, given.n - 3};
        int value = number_of(digits);
        if (value < 0)
            return 0;
        r->given |= 1 << seat;
        r->scores[seat] = value;
        r->order[r->count++] = seat;
    }
}

/* The cards of a hand (seat >= 0) or of the pile (seat < 0) from rest[at]. */
static int deal_cards(table_t *t, text_t rest, Py_ssize_t at, int seat) {
    for (;;) {
        text_t word = next_word(rest, &at);
        if (word.n == 0)
            return 1;
        int card = card_of(word);
        if (card == 0)
            return 0;
        if (seat >= 0) {
            if (t->hand_size[seat] == HAND_SIZE)
                return 0;
            t->as_dealt[seat][t->hand_size[seat]++] = (unsigned char)card;
            t->hand[seat][card]++;
        } else {
            if (t->pile_size == MAX_PILE)
                return 0;
            t->pile[t->pile_size++] = (unsigned char)card;
        }
    }
}

/* The analysis of an accepted record; NULL where it cannot be used (never,
 * where every draw is known: the record is declined all the same). */
static const analysis_t *analysed_through(const table_t *t, const header_t *h, int through,
                                         int losses) {
    static position_t p;
    static analysis_t a;
    position_start(&p, t->seats, t->as_dealt, t->pile, t->pile_size, 1,
                   h->point_count ? h->points : NULL, h->point_count);
    analyse_plays(&p, t->played, t->played_to, t->ply < through ? t->ply : through, &a, losses);
    return a.spilt ? NULL : &a;
}

static const analysis_t *analysed(const table_t *t, const header_t *h) {
    return analysed_through(t, h, MAX_PLIES, 1);
}

/* The ply after which an accepted record's game was decided, if it was by
 * ply ``through``, else -1: the analysis's, without its losses. */
static int decided_through(const table_t *t, const header_t *h, int through) {
    return analysed_through(t, h, through, 0)->decided[STATES];
}

/* The analysis of an accepted record (analysis_found), or None to decline it. */
static PyObject *analysis_of(const table_t *t, const header_t *h) {
    const analysis_t *a = analysed(t, h);
    if (a == NULL)
        Py_RETURN_NONE;
    return analysis_found(a, t->played, t->played_to, t->ply);
}

/* What else the verdict of an accepted record may end with. */
enum { NOTHING, REPLAY = 4, REPLAY_ANALYSED = 1, REPLAY_DECIDED = 2 };
static int decided_by; /* REPLAY_DECIDED's ply: check_block's last argument */

/* An accepted record's tags as (name, value) pairs, in order, and (text_of)
 * with them its text, lines [0, count). */
static PyObject *tag_pairs(const tag_t *tags, int tag_count) {
    PyObject *pairs = PyTuple_New(tag_count);
    if (pairs == NULL)
        return NULL;
    for (int i = 0; i < tag_count; i++) {
        PyObject *pair = Py_BuildValue("(s#s#)", tags[i].name.p, tags[i].name.n, tags[i].value.p,
                                       tags[i].value.n);
        if (pair == NULL) {
            Py_DECREF(pairs);
            return NULL;
        }
        PyTuple_SET_ITEM(pairs, i, pair);
    }
    return pairs;
}

static PyObject *text_of(const tag_t *tags, int tag_count, const text_t *lines, int count) {
    PyObject *pairs = tag_pairs(tags, tag_count);
    if (pairs == NULL)
        return NULL;
    const char *from = lines[0].p, *to = lines[count - 1].p + lines[count - 1].n;
    return Py_BuildValue("(Ns#)", pairs, from, (Py_ssize_t)(to - from));
}

static int packed_army(const table_t *t, int state, int seat) {
    int packed = 0;
    for (int icon = 0; icon < 5; icon++)
        packed += t->icons[state][seat][icon] << 3 * icon;
    return packed;
}

/* Each marker's armies by place, as (seat, ply of its fourth card, packed
 * icon counts (armies.PACKED)). */
static PyObject *ranked_of(const table_t *t) {
    PyObject *markers = PyTuple_New(STATES);
    for (int r = 0; markers != NULL && r < STATES; r++) {
        int state = t->order[r];
        PyObject *places = PyTuple_New(t->seats);
        for (int place = 0; places != NULL && place < t->seats; place++) {
            int seat = t->ranking[r][place];
            PyObject *army = ints_of(3, seat, t->fourth[state][seat], packed_army(t, state, seat));
            if (army == NULL)
                Py_CLEAR(places);
            else
                PyTuple_SET_ITEM(places, place, army);
        }
        if (places == NULL)
            Py_CLEAR(markers);
        else
            PyTuple_SET_ITEM(markers, r, places);
    }
    return markers;
}

/* The values the core hands back, made once by Python (configure_values):
 * each card by its mask, each play (card, state) by its play_code. */
static PyObject *card_values, *play_values;

/* A tuple of the values of ``codes`` in ``table``. */
static PyObject *values_of(const unsigned char *codes, int n, PyObject *table) {
    PyObject *tuple = PyTuple_New(n);
    for (int i = 0; tuple != NULL && i < n; i++)
        PyTuple_SET_ITEM(tuple, i, Py_NewRef(PyTuple_GET_ITEM(table, codes[i])));
    return tuple;
}

/* The hands as dealt, a tuple of cards a seat. */
static PyObject *hands_of(const table_t *t) {
    PyObject *hands = PyTuple_New(t->seats);
    for (int s = 0; hands != NULL && s < t->seats; s++) {
        PyObject *hand = values_of(t->as_dealt[s], HAND_SIZE, card_values);
        if (hand == NULL)
            Py_CLEAR(hands);
        else
            PyTuple_SET_ITEM(hands, s, hand);
    }
    return hands;
}

/* What the views read of an accepted record as replayed (quick.Replayed),
 * after the verdict's fields: (its tags and text, as text_of; the hands as
 * dealt (hands_of); the pile, a tuple of cards; the plays, a tuple of (card,
 * state) (configure_values's values); the points table, () under classic
 * scoring; how plainly the plays are written: 1 every one N. CARD STATE, 2
 * every one N. Pn CARD STATE, else 0 (play_line), plus 4 where the deal is
 * written in seat order, then the pile; each marker's armies (ranked_of);
 * the winner under classic scoring and under points scoring (the record's
 * table, else the usual one), None where shared; with REPLAY_ANALYSED, the analysis (analysis_found); with REPLAY_DECIDED,
 * the ply the game was decided if by decided_by (decided_through), else
 * None). */
static PyObject *replayed_of(const table_t *t, const header_t *h, PyObject *text, int plain,
                             int extra) {
    PyObject *analysis = Py_NewRef(Py_None);
    if (extra & REPLAY_DECIDED) {
        int decided = decided_through(t, h, decided_by);
        Py_SETREF(analysis, decided < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(decided));
        if (analysis == NULL)
            return NULL;
    } else if (extra & REPLAY_ANALYSED) {
        Py_DECREF(analysis);
        if ((analysis = analysis_of(t, h)) == NULL || analysis == Py_None)
            return analysis; /* the core cannot tell: the Python path will */
    }
    unsigned char plays[MAX_PLIES];
    for (int i = 0; i < t->ply; i++)
        plays[i] = (unsigned char)play_code(t->played[i], t->played_to[i]);
    outcome_t classic, points;
    score(t, NULL, 0, &classic);
    if (h->point_count)
        score(t, h->points, h->point_count, &points);
    else
        score(t, usual_points, usual_point_count, &points);
    return Py_BuildValue("(ONNNNNN(NN)N)", text, hands_of(t),
                         values_of(t->pile, t->pile_size, card_values),
                         values_of(plays, t->ply, play_values),
                         small_tuple(h->points, h->point_count), PyLong_FromLong(plain),
                         ranked_of(t), maybe(classic.winner == SHARED ? -1 : classic.winner),
                         maybe(points.winner == SHARED ? -1 : points.winner), analysis);
}

/* How plainly the plays are written: 1 every one N. CARD STATE, 2 every one
 * N. Pn CARD STATE (each card as Card.__str__ spells it, each state by its
 * letter), else 0. */
static int plain_plays(int form) {
    int plays = form & (SEATED | UNSEATED | ODD);
    return plays == SEATED ? 2 : plays == UNSEATED || plays == 0 ? 1 : 0;
}

/* The verdict of one record (lines [0, count)), or Py_None to decline it;
 * with ``extra`` REPLAY, it ends with what Replayed holds (replayed_of). */
static PyObject *check_record(const text_t *lines, int count, int first_line, PyObject *judge,
                              int extra) {
    tag_t tags[MAX_TAGS];
    int tag_count = 0, row = 0;
    for (; row < count; row++) {
        text_t line = lines[row];
        if (indent(line) == line.n)
            continue;
        if (line.p[0] != '[')
            break;
        if (tag_count == MAX_TAGS || !tag_line(line, &tags[tag_count]))
            Py_RETURN_NONE;
        tag_count++;
    }
    header_t h;
    int read = read_header(tags, tag_count, judge, &h);
    if (read <= 0) {
        if (read < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    static table_t t;
    memset(&t, 0, sizeof t);
    t.seats = h.seats;
    result_t result = {UNKNOWN, 0, {0}, {NULL, 0}, {0}, 0};
    int declared[STATES] = {0}; /* the states declared resolved so far */
    int form = 0;               /* how the plays are written (play_line) */
    int part = DEAL, open_seat = -2, expected = 1; /* open_seat: the hand (or -1 the pile) open */
    for (; row < count; row++) {
        text_t line = lines[row];
        Py_ssize_t pos = indent(line);
        if (pos == line.n)
            continue;
        text_t rest = {line.p + pos, line.n - pos};
        for (Py_ssize_t i = 0; i < rest.n; i++)
            if ((unsigned char)rest.p[i] >= 0x80)
                Py_RETURN_NONE;
        char c = rest.p[0];
        Py_ssize_t at = 0;
        text_t first_word = next_word(rest, &at);
        int ok;
        if (is_digit(c) || c == '#' || same(first_word, "result")) {
            if (part == RESULT || (part == DEAL && !dealt_whole(&t)))
                Py_RETURN_NONE;
            open_seat = -2;
            if (c == '#') {
                part = PLAYS;
                ok = declared_line(&t, declared, rest);
            } else if (is_digit(c)) {
                part = PLAYS;
                int index = expected - 1;
                ok = index < MAX_PLIES && play_line(&t, rest, expected++, &form);
            } else {
                part = RESULT;
                ok = result_line(&t, rest, &result);
            }
        } else if (same(first_word, "hand") && part == DEAL) {
            text_t seat_word = next_word(rest, &at);
            if (seat_word.n != 3 || seat_word.p[2] != ':')
                Py_RETURN_NONE;
            seat_word.n = 2;
            open_seat = seat_of(seat_word, t.seats);
            ok = open_seat >= 0 && !(t.dealt & 1 << open_seat);
            if (open_seat < 0 || t.piles || t.dealt != (1 << open_seat) - 1)
                form |= UNORDERED; /* not P1, P2, ... then the pile */
            if (ok) {
                t.dealt |= 1 << open_seat;
                ok = deal_cards(&t, rest, at, open_seat);
            }
        } else if (same(first_word, "pile:") && part == DEAL) {
            open_seat = -1;
            ok = t.piles++ == 0 && deal_cards(&t, rest, at, -1); /* one pile: a second declined */
        } else if (open_seat > -2 && is_letter(c)) {
            ok = deal_cards(&t, rest, 0, open_seat); /* more of the hand or pile */
        } else {
            ok = 0;
        }
        if (!ok)
            Py_RETURN_NONE;
    }
    if (t.resolved != STATES)
        Py_RETURN_NONE;
    outcome_t o;
    score(&t, h.point_count ? h.points : NULL, h.point_count, &o);
    if (h.outcome != o.winner || (result.outcome != UNKNOWN && result.outcome != o.winner))
        Py_RETURN_NONE;
    for (int s = 0; s < t.seats; s++)
        if (result.given & 1 << s && result.scores[s] != o.scores[s])
            Py_RETURN_NONE;
    PyObject *names = PyTuple_New(h.seats);
    if (names == NULL)
        return NULL;
    for (int s = 0; s < h.seats; s++) {
        text_t value = h.seat_tags[s]->value;
        PyObject *name = PyUnicode_DecodeUTF8(value.p, value.n, NULL);
        if (name == NULL) {
            Py_DECREF(names);
            return NULL;
        }
        PyTuple_SET_ITEM(names, s, name);
        if (!has_name(value, name)) {
            Py_DECREF(names);
            Py_RETURN_NONE;
        }
    }
    PyObject *analysis = extra >= REPLAY ? text_of(tags, tag_count, lines, count) : NULL;
    if (extra >= REPLAY && analysis != NULL) {
        PyObject *text = analysis;
        int plain = plain_plays(form);
        plain |= form & UNORDERED ? 0 : 4;
        analysis = replayed_of(&t, &h, text, plain, extra);
        Py_DECREF(text);
    }
    PyObject *answer = NULL;
    if (analysis == Py_None) /* the core cannot tell: the Python path will */
        answer = Py_NewRef(Py_None);
    else if (extra == NOTHING || analysis != NULL)
        answer = verdict(&t, &o, names, first_line, h.point_count != 0, analysis);
    Py_DECREF(names);
    Py_XDECREF(analysis);
    return answer;
}

/* ------------------------------------------------------------------ block */

/* The tag names of a header, each once (the cutting table's Do.NAME). */
typedef struct {
    text_t name[MAX_TAGS];
    int n;
} names_t;

static int holds_name(const names_t *names, text_t name) {
    for (int i = 0; i < names->n; i++)
        if (names->name[i].n == name.n && memcmp(names->name[i].p, name.p, (size_t)name.n) == 0)
            return 1;
    return 0;
}

static int add_name(names_t *names, text_t name) {
    if (holds_name(names, name))
        return 1;
    if (names->n == MAX_TAGS)
        return 0;
    names->name[names->n++] = name;
    return 1;
}

/* Whether a body line goes on a body (cutting._GOES_ON): a marker, the
 * result line, a play numbered past 1. */
static int goes_on(text_t code) {
    if (code.p[0] == '#')
        return code.n > 1 && is_digit(code.p[1]);
    if (code.n >= 6 && memcmp(code.p, "result", 6) == 0)
        return code.n == 6 || !is_letter(code.p[6]);
    Py_ssize_t i = 0;
    int number = 0;
    while (i < code.n && i < 9 && is_digit(code.p[i]))
        number = number * 10 + (code.p[i++] - '0');
    return i > 0 && i < code.n && code.p[i] == '.' && number != 1;
}

/* The kind of a line written plainly (CUT_LINE_*), as cutting._kind tells
 * it, and a tag line's name in *name; -1 when it is not plain enough. */
static int line_kind(text_t line, const names_t *header, text_t *name) {
    Py_ssize_t pos = indent(line);
    if (pos == line.n)
        return CUT_LINE_BLANK;
    unsigned char c = (unsigned char)line.p[pos];
    tag_t tag;
    if (c == '"' || c == ']' || c >= 0x80 || (c == '[' && (pos || !tag_line(line, &tag))))
        return -1;
    if (c != '[')
        return goes_on((text_t){line.p + pos, line.n - pos}) ? CUT_LINE_ON : CUT_LINE_FIRST;
    *name = tag.name;
    int again = holds_name(header, tag.name);
    if (names_a_seat(tag.name))
        return again ? CUT_LINE_SEAT_AGAIN : CUT_LINE_SEAT;
    return again ? CUT_LINE_TAG_AGAIN : CUT_LINE_TAG;
}

/* Where records start, as split_lines cuts (``starts``, from 0): the table
 * of notation/cut_table.py followed, step by step (_cutting.h). -1 when a
 * line is not plain enough to tell its kind here (a comment, a quote...),
 * or a header holds more tag names than MAX_TAGS. */
static int cut(const text_t *lines, unsigned char *kinds, int count, int *starts) {
    names_t names[2];
    names_t *header = &names[0], *below = &names[1];
    int found = 0, state = CUT_AT_START, pending = 0, mark = -1;
    header->n = below->n = 0;
    starts[found++] = 0;
    for (int row = 0; row <= count; row++) { /* and the end of the block */
        text_t name = {NULL, 0};
        int kind = row == count ? CUT_LINE_END : line_kind(lines[row], header, &name);
        if (kind < 0)
            return -1;
        if (row < count) /* check_block asks only which lines are blank */
            kinds[row] = kind == CUT_LINE_BLANK ? BLANK : BODY;
        int step = cut_steps[state][kind], start = mark < 0 ? row : mark;
        state = step >> CUT_SHIFT;
        if (step & CUT_DO_CUT)
            starts[found++] = pending;
        if (step & CUT_DO_RAISE) {
            names_t *raised = below;
            below = header;
            header = raised;
        }
        if (step & CUT_DO_HERE)
            starts[found++] = start;
        if (step & CUT_DO_PEND)
            pending = start;
        if (step & CUT_DO_FRESH)
            header->n = 0;
        if (step & CUT_DO_FRESH_BELOW)
            below->n = 0;
        if (step & CUT_DO_NAME && !add_name(header, name))
            return -1;
        if (step & CUT_DO_NAME_BELOW && !add_name(below, name))
            return -1;
        if (step & CUT_DO_MARK && mark < 0)
            mark = row;
        if (step & CUT_DO_UNMARK)
            mark = -1;
    }
    return found;
}

/* ------------------------------------------------------------------ lines */

/* The lines of text (``size`` bytes, LF between lines), in a new array
 * (PyMem_Free it) of *count; with ``ended``, a last line end ends no line
 * after it. NULL, with MemoryError, when there is no memory. */
static text_t *lines_of(const char *s, Py_ssize_t size, int ended, int *count) {
    int n = 1;
    for (Py_ssize_t i = 0; i < size; i++)
        n += s[i] == '\n';
    if (ended && size && s[size - 1] == '\n')
        n--;
    text_t *lines = PyMem_Malloc(sizeof(text_t) * (size_t)(n + 1));
    if (lines == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    const char *at = s, *end = s + size;
    for (int row = 0; row < n; row++) {
        const char *stop = memchr(at, '\n', (size_t)(end - at));
        if (stop == NULL)
            stop = end;
        lines[row] = (text_t){at, stop - at};
        at = stop + 1;
    }
    *count = n;
    return lines;
}

static PyObject *check_block(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *text, *judge;
    int first_line, extra = NOTHING;
    decided_by = MAX_PLIES;
    if (!PyArg_ParseTuple(args, "UiO|ii:check_block", &text, &first_line, &judge, &extra,
                          &decided_by))
        return NULL;
    Py_ssize_t size;
    const char *s = PyUnicode_AsUTF8AndSize(text, &size);
    if (s == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < size; i++)
        if (!plain_char((unsigned char)s[i]))
            Py_RETURN_NONE;
    if (!none_obeyed((const unsigned char *)s, size))
        Py_RETURN_NONE;
    int count;
    text_t *lines = lines_of(s, size, 0, &count);
    if (lines == NULL)
        return NULL;
    unsigned char *kinds = PyMem_Malloc((size_t)count);
    int *starts = PyMem_Malloc(sizeof(int) * ((size_t)count + 1));
    PyObject *items = NULL, *answer = NULL;
    int collecting = 0;
    if (kinds == NULL || starts == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int records = cut(lines, kinds, count, starts);
    if (records < 0) {
        answer = Py_NewRef(Py_None);
        goto done;
    }
    starts[records] = count;
    /* the items hold numbers, strings and tuples of them, never a cycle: the
     * collector, run every few hundred of them, would only walk the block's */
    collecting = PyGC_Disable();
    items = PyList_New(0);
    if (items == NULL)
        goto done;
    int seen = 0;
    for (int r = 0; r < records; r++) {
        int a = starts[r], b = starts[r + 1], blank = 1;
        for (int row = a; row < b && blank; row++)
            blank = kinds[row] == BLANK;
        if (blank)
            continue;
        seen++;
        PyObject *item = check_record(lines + a, b - a, first_line + a, judge, extra);
        if (item == Py_None) {
            Py_DECREF(item);
            const char *from = lines[a].p, *to = lines[b - 1].p + lines[b - 1].n;
            item = Py_BuildValue("(is#)", first_line + a, from, (Py_ssize_t)(to - from));
        }
        if (item == NULL || PyList_Append(items, item) < 0) {
            Py_XDECREF(item);
            goto done;
        }
        Py_DECREF(item);
    }
    answer = Py_BuildValue("(iO)", seen, items);
done:
    if (collecting)
        PyGC_Enable();
    Py_XDECREF(items);
    PyMem_Free(lines);
    PyMem_Free(kinds);
    PyMem_Free(starts);
    return answer;
}

static int copy_word(PyObject *word, char *out, size_t size) {
    Py_ssize_t n;
    const char *text = PyUnicode_AsUTF8AndSize(word, &n);
    if (text == NULL)
        return 0;
    if (n < 1 || (size_t)n >= size) {
        PyErr_Format(PyExc_ValueError, "the word %R does not fit the core", word);
        return 0;
    }
    memcpy(out, text, (size_t)n);
    out[n] = '\0';
    return 1;
}

static PyObject *configure(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *icons, *states, *marks, *points, *ranges;
    if (!PyArg_ParseTuple(args, "UO!O!O!O!:configure", &icons, &PyTuple_Type, &states,
                          &PyTuple_Type, &marks, &PyTuple_Type, &points, &PyTuple_Type, &ranges))
        return NULL;
    obeyed_count = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(ranges); i++) {
        unsigned int low, high;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(ranges, i), "II", &low, &high))
            return NULL;
        if (high < 0x80)
            continue; /* ASCII: plain_char's */
        if (obeyed_count == 8)
            return PyErr_Format(PyExc_ValueError, "eight ranges past ASCII at most");
        obeyed[obeyed_count][0] = low < 0x80 ? 0x80 : low;
        obeyed[obeyed_count++][1] = high;
    }
    if (PyUnicode_GET_LENGTH(icons) != 5 || PyTuple_GET_SIZE(states) != STATES ||
        PyTuple_GET_SIZE(marks) > 8 || PyTuple_GET_SIZE(points) != MAX_SEATS) {
        PyErr_SetString(PyExc_ValueError, "the core knows five icons, five states, four seats");
        return NULL;
    }
    memset(icon_bit, 0, sizeof icon_bit);
    for (int icon = 0; icon < 5; icon++) {
        Py_UCS4 letter = PyUnicode_READ_CHAR(icons, icon);
        if (letter >= 128)
            return PyErr_Format(PyExc_ValueError, "icon letters are ASCII");
        icon_bit[letter] = 1 << icon;
    }
    spelling_count = 0;
    for (int state = 0; state < STATES; state++) {
        PyObject *words = PyTuple_GET_ITEM(states, state);
        if (!PyTuple_Check(words) || PyTuple_GET_SIZE(words) != 2)
            return PyErr_Format(PyExc_ValueError, "two spellings a state");
        for (int i = 0; i < 2; i++) {
            if (!copy_word(PyTuple_GET_ITEM(words, i), spellings[spelling_count], 16))
                return NULL;
            spelt_state[spelling_count++] = state;
        }
    }
    glyph_count = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(marks); i++)
        if (!copy_word(PyTuple_GET_ITEM(marks, i), glyphs[glyph_count++], 4))
            return NULL;
    usual_point_count = MAX_SEATS;
    for (int i = 0; i < MAX_SEATS; i++) {
        usual_points[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(points, i));
        if (usual_points[i] == -1 && PyErr_Occurred())
            return NULL;
    }
    Py_RETURN_NONE;
}

/* Fills ``out`` with the ``n`` whole numbers of a tuple. */
static int numbers(PyObject *tuple, int *out, Py_ssize_t n) {
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) < n) {
        PyErr_Format(PyExc_ValueError, "a tuple of at least %zd numbers is wanted", n);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(tuple, i));
        if (out[i] == -1 && PyErr_Occurred())
            return 0;
    }
    return 1;
}

static PyObject *configure_analysis(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *packed;
    if (!PyArg_ParseTuple(args, "O:configure_analysis", &packed))
        return NULL;
    if (!numbers(packed, analysis_packed, 32))
        return NULL;
    return ranks_tuple();
}

static PyObject *configure_values(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *cards, *plays;
    if (!PyArg_ParseTuple(args, "O!O!:configure_values", &PyTuple_Type, &cards, &PyTuple_Type,
                          &plays))
        return NULL;
    if (PyTuple_GET_SIZE(cards) != 32 || PyTuple_GET_SIZE(plays) != 256)
        return PyErr_Format(PyExc_ValueError, "32 cards by mask and 256 plays by code");
    Py_XSETREF(card_values, Py_NewRef(cards));
    Py_XSETREF(play_values, Py_NewRef(plays));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure_values", configure_values, METH_VARARGS,
     "configure_values(cards, plays)\n\n"
     "The values a record as replayed holds: the 32 cards by mask and the 256\n"
     "plays (card, state) by play code. Called once, by quick.py, before any\n"
     "check_block with extra 4 to 6."},
    {"configure_analysis", configure_analysis, METH_VARARGS,
     "configure_analysis(packed) -> ranks\n\n"
     "armies.PACKED as a tuple: called once before a check_block that\n"
     "analyses. Gives back the ranks of armies it made (analysis.RANKS)."},
    {"configure", configure, METH_VARARGS,
     "configure(icons, states, glyphs, points, obeyed)\n\n"
     "The words of the notation: the icon letters in icon order, the two usual\n"
     "spellings of each state in order, the glyphs, the points table of\n"
     "points scoring; and the ranges of the characters a terminal obeys (a\n"
     "block holding one past ASCII is declined). Called once, by quick.py,\n"
     "before any check_block."},
    {"check_block", check_block, METH_VARARGS,
     "check_block(text, first_line, judge, extra=0, through=MAX_PLIES) -> (records, items) or None\n\n"
     "The records of a block of lines, cut as split_lines cuts them: for each\n"
     "record that is not blank, its verdict when it has nothing to report,\n"
     "else (first line, text) for the Python validator. None when the block\n"
     "is not plain enough to cut here. judge(name) tells whether a tag of\n"
     "that name is never warned of. With extra 4, a verdict ends with what\n"
     "quick.Replayed holds (replayed_of); 5 and the record's analysis\n"
     "(engine/analysis.analyse); 6 and the ply its game was decided if by ply\n"
     "through, else None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_quick",
    "The quick check: ordo validate's hot path in C (see checking/quick.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__quick(void) { return PyModule_Create(&module); }
