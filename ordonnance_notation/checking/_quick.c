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
static char icon_letter[5];             /* the letter of each icon */
static char tag_order[32][16];          /* the canonical order of known tags (writer.TAG_ORDER) */
static int tag_order_count;
static int pile_per_line, pile_indent;  /* writer.PILE_PER_LINE, len(writer.PILE_INDENT) */
static PyObject *newline;               /* "\n" */
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
enum { SEATED = 1, UNSEATED = 2, ODD = 4, SPELT = 8, UNORDERED = 16, ADORNED = 32 }; /* SPELT: a
 * word not as canonical; UNORDERED: the deal written otherwise than P1's hand, P2's, ..., the
 * pile; ADORNED: a play with a draw or a glyph */

/* One play line: N. [Pn] [+CARD] CARD STATE [GLYPH], as ply ``expected``;
 * how it is written goes into ``*form``. */
static int play_line(table_t *t, text_t rest, int expected, int *form, unsigned char *seated) {
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
    text_t word_drawn = word;
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
    *seated = seat >= 0;
    if (!card_spelt_usually(word) || !same(state_word, spellings[2 * state]) ||
        (drawn && !card_spelt_usually((text_t){word_drawn.p + 1, word_drawn.n - 1})))
        *form |= ODD | SPELT;
    else if (drawn || glyph.n)
        *form |= ODD;
    if (drawn || glyph.n)
        *form |= ADORNED;
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
static int result_line(const table_t *t, text_t rest, result_t *r, int *canonical) {
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
        if (digits.n > 1 && digits.p[0] == '0') /* written as int() writes it: no leading 0 */
            *canonical = 0;
        r->given |= 1 << seat;
        r->scores[seat] = value;
        r->order[r->count++] = seat;
    }
}

/* The cards of a hand (seat >= 0) or of the pile (seat < 0) from rest[at];
 * ``*canonical`` is cleared for a card not spelt as Card.__str__ spells it. */
static int deal_cards(table_t *t, text_t rest, Py_ssize_t at, int seat, int *canonical) {
    for (;;) {
        text_t word = next_word(rest, &at);
        if (word.n == 0)
            return 1;
        int card = card_of(word);
        if (card == 0)
            return 0;
        if (!card_spelt_usually(word))
            *canonical = 0;
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

/* Whether a line is spaced as the canonical form spaces it: ``at`` blanks
 * before its first word, one between words, none after. */
static int spaced(text_t line, Py_ssize_t at) {
    if (indent(line) != at || line.n == at || line.p[line.n - 1] == ' ')
        return 0;
    for (Py_ssize_t i = at; i + 1 < line.n; i++)
        if (line.p[i] == ' ' && line.p[i + 1] == ' ')
            return 0;
    return 1;
}

/* What fmt reads of an accepted record written as writer.format_record
 * writes it: (its text, lines [first, last] and a line end,); else None,
 * to decline it. */
static PyObject *canonical_of(const text_t *lines, int first, int last, int canonical) {
    if (!canonical || first < 0 || last < first)
        Py_RETURN_NONE; /* the Python path formats it */
    const char *from = lines[first].p, *to = lines[last].p + lines[last].n;
    PyObject *text = PyUnicode_DecodeUTF8(from, to - from, NULL);
    if (text == NULL)
        return NULL;
    PyObject *ended = PyUnicode_Concat(text, newline);
    Py_DECREF(text);
    return ended == NULL ? NULL : Py_BuildValue("(N)", ended);
}

/* A tag's place in the canonical order (writer._tag_rank). */
static int tag_rank(text_t name) {
    for (int i = 0; i < tag_order_count; i++)
        if (same(name, tag_order[i]))
            return i;
    return tag_order_count;
}

/* What else the verdict of an accepted record may end with. */
enum { NOTHING, REPLAY = 4, REPLAY_ANALYSED = 1, REPLAY_DECIDED = 2, FORMAT = 8 };
static int decided_by; /* REPLAY_DECIDED's ply: check_block's last argument */
enum { ARCHIVE = 16, ARCHIVE_JSON = 1, ARCHIVE_TEXT = 2 }; /* ARCHIVE's bits */
enum { SUMMARY = 32, SUMMARY_ANALYSED = 1, EXPORT = 64, VIEW = 128, VIEW_ANALYSED = 1 };

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

/* --------------------------------------------------------------- archives */

/* The elements of a record in the order written: what writer.plain keeps. */
#define MAX_ELEMENTS (MAX_PLIES + STATES + 1)
enum { MARKED = 1000, RESULTED = 2000 }; /* in body: a play's index, MARKED + marker, RESULTED */
typedef struct {
    signed char deal[MAX_SEATS + 1]; /* the hands' seats, -1 the pile */
    int deal_count;
    short body[MAX_ELEMENTS];
    int body_count;
    unsigned char seated[MAX_PLIES]; /* the play was written with its seat */
} written_t;

static int yaml_width;           /* layout.WIDTH */
static PyObject *yaml_spelling;  /* layout.spelt: how libyaml spells a word, or None */
static char card_text[32][6];    /* each card as Card.__str__ spells it */

typedef struct {
    char *p;
    size_t n, size;
} buf_t;

static buf_t out; /* the piece being written, kept between records */

static int put_in(buf_t *b, const char *s, size_t n) {
    if (n == 0)
        return 1; /* (s may be NULL: an empty word) */
    if (b->n + n > b->size) {
        size_t size = (b->n + n) * 2 + 4096;
        char *grown = PyMem_Realloc(b->p, size);
        if (grown == NULL) {
            PyErr_NoMemory();
            return 0;
        }
        b->p = grown;
        b->size = size;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    return 1;
}

static int put(const char *s, size_t n) { return put_in(&out, s, n); }

static inline __attribute__((always_inline)) int put_s(const char *s) { return put(s, strlen(s)); }
static int put_text(text_t t) { return put(t.p, (size_t)t.n); }
static int put_int(int value) {
    char digits[12];
    size_t n = 0;
    unsigned u = value < 0 ? 0u - (unsigned)value : (unsigned)value;
    do
        digits[sizeof digits - ++n] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (value < 0)
        digits[sizeof digits - ++n] = '-';
    return put(digits + sizeof digits - n, n);
}
static int put_seat(int seat) {
    char word[3] = {'P', (char)('1' + seat), '\0'};
    return put(word, 2);
}
static int put_spaces(int n) {
    static const char spaces[] = "                ";
    return n < (int)sizeof spaces && put(spaces, (size_t)n);
}

/* Characters (not bytes) of the piece since ``from``: the emitter's width counts them. */
static Py_ssize_t width_since(size_t from) {
    Py_ssize_t n = 0;
    for (size_t i = from; i < out.n; i++)
        n += ((unsigned char)out.p[i] & 0xC0) != 0x80;
    return n;
}

/* The spellings asked of layout.spelt, kept by word: tags repeat. */
#define SPELT_SLOTS 4096
#define SPELT_WORD 48
static struct {
    signed char n, m; /* the word's bytes (0: an empty slot) and its spelling's (-1: none) */
    char flow;
    char word[SPELT_WORD], spelt[SPELT_WORD + 16];
} spelt_kept[SPELT_SLOTS];

static unsigned spelt_slot(text_t word, int flow) {
    unsigned h = 2166136261u ^ (unsigned)flow;
    for (Py_ssize_t i = 0; i < word.n; i++)
        h = (h ^ (unsigned char)word.p[i]) * 16777619u;
    return h % SPELT_SLOTS;
}

/* Whether libyaml writes a word as it is, unquoted, in flow and block
 * context alike: it begins with a letter (no number, date, indicator or
 * .inf), holds only letters, digits, '-', '_', '.', '/' and single
 * spaces inside, and is no word YAML reads as true, false or null. Others
 * are asked of layout.spelt but digits, quoted (tests hold the two to the
 * same pieces). */
static int surely_plain(text_t word) {
    static const char *const special[] = {"y", "n", "yes", "no", "on", "off", "true", "false",
                                          "null"};
    char low[8];
    if (word.n == 0 || !is_letter(word.p[0]) || word.p[word.n - 1] == ' ')
        return 0;
    for (Py_ssize_t i = 0; i < word.n; i++) {
        char c = word.p[i];
        if (!is_name_char(c) && c != '-' && c != '.' && c != '/' &&
            (c != ' ' || word.p[i - 1] == ' '))
            return 0;
    }
    if (word.n > 5)
        return 1;
    for (Py_ssize_t i = 0; i < word.n; i++)
        low[i] = (char)(word.p[i] >= 'A' && word.p[i] <= 'Z' ? word.p[i] + 32 : word.p[i]);
    for (size_t k = 0; k < sizeof special / sizeof *special; k++)
        if ((size_t)word.n == strlen(special[k]) && memcmp(low, special[k], (size_t)word.n) == 0)
            return 0;
    return 1;
}

/* A word as libyaml spells it in flow or block context (layout.spelt); 0
 * when it cannot be spelt on one line (the Python path writes the record). */
static int put_spelt(text_t word, int flow) {
    if (surely_plain(word))
        return put_text(word) ? 1 : -1;
    if (word.n && word.n <= 9 && number_of(word) >= 0) /* a whole number to YAML: quoted */
        return put("'", 1) && put_text(word) && put("'", 1) ? 1 : -1;
    unsigned slot = spelt_slot(word, flow);
    if (spelt_kept[slot].n == word.n && word.n && spelt_kept[slot].flow == flow &&
        memcmp(spelt_kept[slot].word, word.p, (size_t)word.n) == 0)
        return spelt_kept[slot].m < 0 ? 0 : put(spelt_kept[slot].spelt, (size_t)spelt_kept[slot].m)
                                                 ? 1
                                                 : -1;
    PyObject *text = PyUnicode_DecodeUTF8(word.p, word.n, NULL);
    if (text == NULL)
        return -1;
    PyObject *spelt = PyObject_CallFunctionObjArgs(yaml_spelling, text, flow ? Py_True : Py_False,
                                                   NULL);
    Py_DECREF(text);
    if (spelt == NULL)
        return -1;
    int done = 0;
    Py_ssize_t n = -1;
    const char *s = NULL;
    if (spelt != Py_None) {
        s = PyUnicode_AsUTF8AndSize(spelt, &n);
        done = s == NULL ? -1 : put(s, (size_t)n) ? 1 : -1;
    }
    if (done >= 0 && word.n > 0 && word.n < SPELT_WORD && n < SPELT_WORD + 16) {
        spelt_kept[slot].n = (signed char)word.n;
        spelt_kept[slot].m = (signed char)n;
        spelt_kept[slot].flow = (char)flow;
        memcpy(spelt_kept[slot].word, word.p, (size_t)word.n);
        if (n > 0)
            memcpy(spelt_kept[slot].spelt, s, (size_t)n);
    }
    Py_DECREF(spelt);
    return done;
}

/* Cards in flow style after ``key: `` on a line begun at ``line``, wrapped
 * as layout._Lines.flow wraps them: after a comma, once past the width. */
static int put_flow_cards(size_t line, const unsigned char *cards, int n, int indent) {
    Py_ssize_t whole = 2;
    for (int i = 0; i < n; i++)
        whole += (Py_ssize_t)strlen(card_text[cards[i]]) + (i ? 2 : 0);
    int wrap = width_since(line) + whole > yaml_width;
    if (!put("[", 1))
        return 0;
    for (int i = 0; i < n; i++) {
        if (i && !put(",", 1))
            return 0;
        if (wrap && width_since(line) > yaml_width) {
            if (!put("\n", 1))
                return 0;
            line = out.n;
            if (!put_spaces(indent))
                return 0;
        } else if (i && !put(" ", 1)) {
            return 0;
        }
        if (!put_s(card_text[cards[i]]))
            return 0;
    }
    return put("]", 1);
}

/* A record's piece of a YAML archive, as layout.yaml_text lays out
 * writer.plain's record (document.yaml_record); 0 to decline it, -1 on error. */
static int yaml_piece(const table_t *t, const tag_t *tags, const int *ranked, int tag_count,
                      const written_t *w, const result_t *r) {
    if (tag_count == 0 || w->deal_count == 0)
        return 0; /* never so in a record the core accepts */
    int ok = put_s("- tags:");
    for (int i = 0; ok > 0 && i < tag_count; i++) {
        size_t line = out.n + 1;
        ok = put_s("\n  - {name: ");
        if (ok)
            ok = put_spelt(tags[ranked[i]].name, 1);
        if (ok > 0)
            ok = put_s(", value: ");
        if (ok > 0)
            ok = put_spelt(tags[ranked[i]].value, 1);
        if (ok > 0)
            ok = put("}", 1) && width_since(line) <= yaml_width ? 1 : PyErr_Occurred() ? -1 : 0;
    }
    if (ok <= 0)
        return ok;
    ok = put_s("\n  deal:");
    for (int i = 0; ok && i < w->deal_count; i++) {
        int seat = w->deal[i];
        size_t line = out.n + 1;
        if (seat >= 0) {
            ok = put_s("\n  - hand: ") && put_seat(seat);
            line = out.n + 1;
            ok = ok && put_s("\n    cards: ") &&
                 put_flow_cards(line, t->as_dealt[seat], HAND_SIZE, 6);
        } else {
            ok = put_s("\n  - pile: ") && put_flow_cards(line, t->pile, t->pile_size, 6);
        }
    }
    ok = ok && put_s("\n  body:");
    for (int i = 0; ok && i < w->body_count; i++) {
        int element = w->body[i];
        if (element < MARKED) {
            ok = put_s("\n  - {ply: ") && put_int(element + 1);
            if (ok && w->seated[element])
                ok = put_s(", seat: ") && put_seat(element % t->seats);
            ok = ok && put_s(", card: ") && put_s(card_text[t->played[element]]) &&
                 put_s(", state: ") && put_s(spellings[2 * t->played_to[element]]) &&
                 put("}", 1);
        } else if (element < RESULTED) {
            int marker = element - MARKED;
            ok = put_s("\n  - {marker: ") && put_int(marker) && put_s(", state: ") &&
                 put_s(spellings[2 * t->order[marker - 1]]) && put_s(", seat: ") &&
                 put_seat(t->ranking[marker - 1][0]) && put("}", 1);
        } else {
            int spelt = 0;
            if (r->count == 0) {
                ok = put_s("\n  - {result: ") && (spelt = put_spelt(r->word, 1)) > 0 &&
                     put("}", 1);
            } else {
                ok = put_s("\n  - result: ") && (spelt = put_spelt(r->word, 0)) > 0 &&
                     put_s("\n    scores:");
                for (int k = 0; ok && k < r->count; k++)
                    ok = put_s("\n    - [") && put_seat(r->order[k]) && put_s(", ") &&
                         put_int(r->scores[r->order[k]]) && put("]", 1);
            }
            if (spelt <= 0)
                return spelt;
        }
    }
    return ok && put("\n", 1) ? 1 : -1;
}

/* A string of JSON as json.dumps(ensure_ascii=False) writes it, of a word
 * that needs no escape; 0 for any other (the Python path writes it). */
static int put_json_word(text_t word) {
    for (Py_ssize_t i = 0; i < word.n; i++) {
        unsigned char c = (unsigned char)word.p[i];
        if (c < 0x20 || c == '"' || c == '\\')
            return 0;
    }
    return put("\"", 1) && put_text(word) && put("\"", 1) ? 1 : -1;
}

static int put_json_cards(const unsigned char *cards, int n) {
    if (n == 0)
        return put_s("[]");
    int ok = put("[", 1);
    for (int i = 0; ok && i < n; i++)
        ok = put_s(i ? ",\n      \"" : "\n      \"") && put_s(card_text[cards[i]]) && put("\"", 1);
    return ok && put_s("\n     ]");
}

/* A record's piece of a JSON archive, as document.json_record writes
 * writer.plain's record (files/output.json_text, a record two deep); 0 to
 * decline it, -1 on error. */
static int json_piece(const table_t *t, const tag_t *tags, const int *ranked, int tag_count,
                      const written_t *w, const result_t *r) {
    if (tag_count == 0 || w->deal_count == 0)
        return 0;
    int ok = put_s("  {\n   \"tags\": [");
    for (int i = 0; ok > 0 && i < tag_count; i++) {
        ok = put_s(i ? ",\n    {\n     \"name\": " : "\n    {\n     \"name\": ");
        if (ok)
            ok = put_json_word(tags[ranked[i]].name);
        if (ok > 0)
            ok = put_s(",\n     \"value\": ") ? put_json_word(tags[ranked[i]].value) : -1;
        if (ok > 0)
            ok = put_s("\n    }") ? 1 : -1;
    }
    if (ok <= 0)
        return ok;
    ok = put_s("\n   ],\n   \"deal\": [");
    for (int i = 0; ok && i < w->deal_count; i++) {
        int seat = w->deal[i];
        ok = put_s(i ? ",\n    {\n     " : "\n    {\n     ");
        if (seat >= 0)
            ok = ok && put_s("\"hand\": \"") && put_seat(seat) && put_s("\",\n     \"cards\": ") &&
                 put_json_cards(t->as_dealt[seat], HAND_SIZE);
        else
            ok = ok && put_s("\"pile\": ") && put_json_cards(t->pile, t->pile_size);
        ok = ok && put_s("\n    }");
    }
    ok = ok && put_s("\n   ],\n   \"body\": [");
    for (int i = 0; ok && i < w->body_count; i++) {
        int element = w->body[i];
        ok = put_s(i ? ",\n    {\n     " : "\n    {\n     ");
        if (element < MARKED) {
            ok = ok && put_s("\"ply\": ") && put_int(element + 1);
            if (ok && w->seated[element])
                ok = put_s(",\n     \"seat\": \"") && put_seat(element % t->seats) && put("\"", 1);
            ok = ok && put_s(",\n     \"card\": \"") && put_s(card_text[t->played[element]]) &&
                 put_s("\",\n     \"state\": \"") && put_s(spellings[2 * t->played_to[element]]) &&
                 put("\"", 1);
        } else if (element < RESULTED) {
            int marker = element - MARKED;
            ok = ok && put_s("\"marker\": ") && put_int(marker) && put_s(",\n     \"state\": \"") &&
                 put_s(spellings[2 * t->order[marker - 1]]) && put_s("\",\n     \"seat\": \"") &&
                 put_seat(t->ranking[marker - 1][0]) && put("\"", 1);
        } else {
            int word = ok ? put_s("\"result\": ") ? put_json_word(r->word) : -1 : -1;
            if (word <= 0)
                return word;
            if (r->count) {
                ok = put_s(",\n     \"scores\": [");
                for (int k = 0; ok && k < r->count; k++)
                    ok = put_s(k ? ",\n      [\n       \"" : "\n      [\n       \"") &&
                         put_seat(r->order[k]) && put_s("\",\n       ") &&
                         put_int(r->scores[r->order[k]]) && put_s("\n      ]");
                ok = ok && put_s("\n     ]");
            }
        }
        ok = ok && put_s("\n    }");
    }
    return ok && put_s("\n   ]\n  }") ? 1 : -1;
}

/* What convert reads of an accepted record (extra ARCHIVE, + JSON, +
 * WITH_TEXT): its piece of a YAML or JSON archive, or with WITH_TEXT
 * (piece, canonical text); None to decline it: a play with a draw or a
 * glyph, a word the layout leaves to libyaml, or (WITH_TEXT) a record
 * not written in the canonical form. */
static PyObject *archived_of(const table_t *t, const tag_t *tags, int tag_count, const written_t *w,
                             const result_t *r, int form, int extra, PyObject *canonical) {
    if (form & ADORNED || (extra & ARCHIVE_TEXT && canonical == Py_None))
        Py_RETURN_NONE;
    int ranked[MAX_TAGS]; /* the tags in the canonical order (writer.plain), as sorted() keeps ties */
    for (int i = 0; i < tag_count; i++) {
        int j = i, rank = tag_rank(tags[i].name);
        while (j > 0 && tag_rank(tags[ranked[j - 1]].name) > rank) {
            ranked[j] = ranked[j - 1];
            j--;
        }
        ranked[j] = i;
    }
    out.n = 0;
    int done = extra & ARCHIVE_JSON ? json_piece(t, tags, ranked, tag_count, w, r)
                            : yaml_piece(t, tags, ranked, tag_count, w, r);
    if (done < 0 || PyErr_Occurred())
        return NULL;
    if (done == 0)
        Py_RETURN_NONE;
    PyObject *piece = PyUnicode_DecodeUTF8(out.p, (Py_ssize_t)out.n, NULL);
    if (piece == NULL || !(extra & ARCHIVE_TEXT))
        return piece;
    return Py_BuildValue("(NO)", piece, PyTuple_GET_ITEM(canonical, 0));
}

/* ---------------------------------------------------------------- summary */

/* The words of a summary, asked of views/summary.py and kept: each
 * army's formations by its packed icon counts (armies.described), why a
 * winner's formations beat the runner-up's where they differ
 * (armies.explained_counts: None where they are the same), and where
 * they are the same, by seat and plies (armies.fourth_earlier). */
static PyObject *described_of, *differing_of, *explained_of;
static PyObject *described_kept[1 << 15]; /* by packed counts: three bits an icon */
#define DIFFERING_BITS 12
#define DIFFERING_SLOTS (1 << DIFFERING_BITS)

/* The slot of a key in a table of 1 << bits slots (Fibonacci hashing: the
 * product's high bits, which every bit of the key reaches). */
static unsigned slot_of(long long key, int bits) {
    return (unsigned)((unsigned long long)key * 11400714819323198485ull >> (64 - bits));
}
static struct {
    long long key; /* what the words depend on (put_deciding), + 1 (0: an empty slot) */
    PyObject *words;
} differing_kept[DIFFERING_SLOTS];

static int put_str(PyObject *text) {
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(text, &n);
    return s != NULL && put(s, (size_t)n);
}

/* An army's formations in words (armies.described), kept: a borrowed reference. */
static PyObject *described_words(int packed) {
    PyObject **kept = &described_kept[packed & 0x7fff];
    if (*kept == NULL)
        *kept = PyObject_CallFunction(described_of, "i", packed);
    return *kept;
}

static int put_described(int packed) {
    PyObject *words = described_words(packed);
    return words != NULL && put_str(words);
}

/* An army's formations at a level (0 regiments, 1 battalions, 2 companies)
 * from its strength (Formations.key): how many, and which icons. */
static int level_byte(int strength, int level) { return strength >> 8 * (2 - level) & 0xff; }

/* Why the winner's army in a state beat the runner-up's: summary's
 * ``deciding``. Where their formations differ the words are those of
 * armies._compared: they depend on the first level where the formations
 * differ, the winner's and the runner-up's formations there, and whether
 * each level above holds formations (equal ones); they are kept by that
 * (the strengths, Formations.key, hold a byte a level, regiments first).
 * Where the formations are the same the earlier fourth card decided, and
 * the words name plies. */
static PyObject *deciding_words(const table_t *t, int state, int winner, int runner) {
    int mine = strength(t->icons[state][winner]), theirs = strength(t->icons[state][runner]);
    int packed = packed_army(t, state, winner), beaten = packed_army(t, state, runner);
    if (mine == theirs)
        return PyObject_CallFunction(explained_of, "iii", winner, t->fourth[state][winner],
                                     t->fourth[state][runner]);
    long long key = 1;
    for (int level = 0; level < 3; level++) {
        int a = level_byte(mine, level), b = level_byte(theirs, level);
        if (a != b) {
            key += (long long)level << 20 | (long long)(a << 8 | b);
            break;
        }
        key += (long long)(a != 0) << (16 + level);
    }
    unsigned slot = slot_of(key, DIFFERING_BITS);
    if (differing_kept[slot].key != key) {
        PyObject *words = PyObject_CallFunction(differing_of, "ii", packed, beaten);
        if (words == NULL)
            return NULL;
        if (words == Py_None) { /* they differ: never so */
            Py_DECREF(words);
            PyErr_SetString(PyExc_ValueError, "formations that differ have words");
            return NULL;
        }
        Py_XSETREF(differing_kept[slot].words, words);
        differing_kept[slot].key = key;
    }
    return Py_NewRef(differing_kept[slot].words);
}

static int put_deciding(const table_t *t, int state, int winner, int runner) {
    PyObject *words = deciding_words(t, state, winner, runner);
    int done = words != NULL && put_str(words);
    Py_XDECREF(words);
    return done;
}

static Py_ssize_t chars_of(text_t t) {
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 0; i < t.n; i++)
        n += ((unsigned char)t.p[i] & 0xC0) != 0x80;
    return n;
}

static int put_padded(const char *s, size_t n, Py_ssize_t chars, Py_ssize_t width) {
    if (!put(s, n))
        return 0;
    for (; chars < width; chars++)
        if (!put(" ", 1))
            return 0;
    return 1;
}

/* What summary.render_text writes of an accepted record's states, in
 * marker order (``#1 Jerusalem, resolved at ply 29: ...`` and its armies
 * by place), and apart its points table under points scoring ("" under
 * classic), and the points table (() under classic scoring): ((states,
 * points, table), its analysis (analysis_found) when ``analysed``, else
 * None); None to decline it, where the core cannot analyse it. */
static PyObject *summary_laid(const table_t *t, const header_t *h);

static PyObject *summary_of(const table_t *t, const header_t *h, int analysed) {
    PyObject *analysis = analysed ? analysis_of(t, h) : Py_NewRef(Py_None);
    if (analysis == NULL || (analysed && analysis == Py_None))
        return analysis; /* the core cannot tell: the Python path will */
    PyObject *laid = summary_laid(t, h);
    return laid == NULL ? (Py_DECREF(analysis), NULL) : Py_BuildValue("(NN)", laid, analysis);
}

static PyObject *summary_laid(const table_t *t, const header_t *h) {
    int seats = t->seats;
    unsigned char cards[STATES][MAX_SEATS][MAX_PLIES / MAX_SEATS + 1];
    int count[STATES][MAX_SEATS] = {{0}};
    for (int ply = 0; ply < t->ply; ply++) {
        int state = t->played_to[ply], seat = ply % seats;
        if (count[state][seat] <= MAX_PLIES / MAX_SEATS)
            cards[state][seat][count[state][seat]++] = t->played[ply];
    }
    out.n = 0;
    int ok = 1;
    for (int r = 0; ok && r < STATES; r++) {
        int state = t->order[r];
        const int *rank = t->ranking[r];
        int winner = rank[0], runner = rank[1];
        char head[64];
        snprintf(head, sizeof head, "#%d ", r + 1);
        ok = put_s(head) && put_s(spellings[2 * state + 1]) && put_s(", resolved at ply ") &&
             put_int(t->ply_of[r]) && put_s(": ") && put_seat(winner) && put_s(" wins; ") &&
             put_deciding(t, state, winner, runner) &&
             put("\n", 1);
        Py_ssize_t width = 0;
        for (int place = 0; place < seats; place++) {
            Py_ssize_t chars = 3 + chars_of(h->seat_tags[rank[place]]->value);
            width = chars > width ? chars : width;
        }
        for (int place = 0; ok && place < seats; place++) {
            int seat = rank[place];
            text_t name = h->seat_tags[seat]->value;
            char seated[8];
            snprintf(seated, sizeof seated, "P%d ", seat + 1);
            ok = put_s("   ") && put_int(place + 1) && put_s(". ") && put_s(seated) &&
                 put_padded(name.p, (size_t)name.n, 3 + chars_of(name), width) && put_s("  ");
            size_t start = out.n;
            for (int k = 0; ok && k < count[state][seat]; k++)
                ok = (k == 0 || put(" ", 1)) && put_s(card_text[cards[state][seat][k]]);
            ok = ok && put_padded("", 0, (Py_ssize_t)(out.n - start), 20) && put(" ", 1) &&
                 put_described(packed_army(t, state, seat)) && put_s(" (4th card ply ") &&
                 put_int(t->fourth[state][seat]) && put(")", 1);
            if (ok && h->point_count)
                ok = put_s("  ") && put_int(place < h->point_count ? h->points[place] : 0) &&
                     put_s(" pt");
            ok = ok && put("\n", 1);
        }
    }
    PyObject *states = ok ? PyUnicode_DecodeUTF8(out.p, (Py_ssize_t)out.n, NULL) : NULL;
    if (states == NULL)
        return NULL;
    out.n = 0;
    if (h->point_count) {
        char cell[32];
        ok = put_s("\nPoints   ");
        for (int r = 0; ok && r < STATES; r++) {
            snprintf(cell, sizeof cell, r ? "  %2s" : "%2s", spellings[2 * t->order[r]]);
            ok = put_s(cell);
        }
        ok = ok && put_s("  total\n");
        for (int seat = 0; ok && seat < seats; seat++) {
            int sum = 0;
            snprintf(cell, sizeof cell, "  P%-5d ", seat + 1);
            ok = put_s(cell);
            for (int r = 0; ok && r < STATES; r++) {
                int place = 0;
                while (t->ranking[r][place] != seat)
                    place++;
                int p = place < h->point_count ? h->points[place] : 0;
                sum += p;
                snprintf(cell, sizeof cell, r ? "  %2d" : "%2d", p);
                ok = put_s(cell);
            }
            snprintf(cell, sizeof cell, "  %5d\n", sum);
            ok = ok && put_s(cell);
        }
    }
    PyObject *points = ok ? PyUnicode_DecodeUTF8(out.p, (Py_ssize_t)out.n, NULL) : NULL;
    return points == NULL ? (Py_DECREF(states), NULL)
                          : Py_BuildValue("(NNN)", states, points,
                                          small_tuple(h->points, h->point_count));
}

/* ----------------------------------------------------------------- export */

/* The words of ordo export's tables, told by views/tables.py: a shared
 * win's, the two scoring rules', the tags of the records table in its
 * order, and what decided a state and the winner's strongest formation
 * by two armies' packed icon counts (stats.deciding_words). */
static char export_words[3][16]; /* shared, classic, points */
static char export_tags[16][16];
static char formula_starts[16]; /* what a spreadsheet reads a formula after (tables.inert) */
static int export_tag_count;
static PyObject *deciding_of;
static PyObject *step_kept[8]; /* by step_of */
#define FORMATION_BITS 12
#define FORMATION_SLOTS (1 << FORMATION_BITS)
static struct {
    int key; /* the winner's strength, + 1 (0: an empty slot) */
    PyObject *words;
} formation_kept[FORMATION_SLOTS];

/* What decided between two armies (stats._step), as a small number: the
 * first level whose formations differ (0 regiments, 1 battalions, 2
 * companies, 3 none: the earlier fourth card), twice, plus one where they
 * differ by count. Their strengths (Formations.key) hold a byte a level,
 * regiments first: how many formations and which icons. */
static int step_of(int mine, int theirs) {
    for (int level = 0; level < 3; level++) {
        int a = level_byte(mine, level), b = level_byte(theirs, level);
        if (a != b)
            return level << 1 | ((a >> 5) != (b >> 5));
    }
    return 3 << 1;
}

/* A tag's value as a cell of CSV, as tables.inert and csv.writer write it:
 * after a ' where it begins a formula, quoted where it holds a comma (an
 * accepted record's words hold no quote and no line end). */
static int put_cell(text_t word) {
    int inert = word.n > 0 && word.p[0] && strchr(formula_starts, word.p[0]) != NULL;
    int quoted = memchr(word.p, ',', (size_t)word.n) != NULL;
    return (!quoted || put("\"", 1)) && (!inert || put("'", 1)) && put_text(word) &&
           (!quoted || put("\"", 1));
}

static int put_cell_str(PyObject *word) {
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(word, &n);
    return s != NULL && put_cell((text_t){s, n});
}

/* The step that decided between a state's first two armies and the
 * winner's strongest formation (stats.deciding_words), kept by what they
 * depend on: the step, and the winner's formations. */
static int put_deciding_cells(const table_t *t, int state, int winner, int runner) {
    int mine = strength(t->icons[state][winner]), step = step_of(mine, strength(t->icons[state][runner]));
    unsigned slot = slot_of(mine, FORMATION_BITS);
    if (step_kept[step] == NULL || formation_kept[slot].key != mine + 1) {
        PyObject *words = PyObject_CallFunction(deciding_of, "ii", packed_army(t, state, winner),
                                                packed_army(t, state, runner));
        if (words == NULL)
            return 0;
        if (!PyTuple_Check(words) || PyTuple_GET_SIZE(words) != 2) {
            Py_DECREF(words);
            PyErr_SetString(PyExc_TypeError, "deciding words are (step, formation)");
            return 0;
        }
        Py_XSETREF(step_kept[step], Py_NewRef(PyTuple_GET_ITEM(words, 0)));
        Py_XSETREF(formation_kept[slot].words, Py_NewRef(PyTuple_GET_ITEM(words, 1)));
        formation_kept[slot].key = mine + 1;
        Py_DECREF(words);
    }
    return put_cell_str(step_kept[step]) && put(",", 1) && put_cell_str(formation_kept[slot].words);
}

static PyObject *taken(size_t from) {
    return PyUnicode_DecodeUTF8(out.p + from, (Py_ssize_t)(out.n - from), NULL);
}

/* games.dealt_game_text of an accepted record whose deal is in seat order:
 * each hand, the pile, then a line a play. */
static int put_game(const table_t *t) {
    int ok = 1;
    for (int s = 0; ok && s < t->seats; s++) {
        ok = put_seat(s) && put(":", 1);
        for (int i = 0; ok && i < HAND_SIZE; i++)
            ok = (i == 0 || put(" ", 1)) && put_s(card_text[t->as_dealt[s][i]]);
        ok = ok && put("\n", 1);
    }
    ok = ok && put_s("pile:");
    for (int i = 0; ok && i < t->pile_size; i++)
        ok = (i == 0 || put(" ", 1)) && put_s(card_text[t->pile[i]]);
    for (int ply = 0; ok && ply < t->ply; ply++)
        ok = put("\n", 1) && put_s(card_text[t->played[ply]]) && put(" ", 1) &&
             put_s(spellings[2 * t->played_to[ply]]);
    return ok;
}

/* What ordo export writes of an accepted record whose plays are plain and
 * whose deal is in seat order (tables._add_paged), as CSV: (its row of
 * records from the column after game_key, its rows of plays, its rows of
 * states, the text its game key is the hash of (games.dealt_game_text)).
 * Each row of plays and states begins with NUL where its source and
 * record go. */
static PyObject *export_of(const table_t *t, const header_t *h, const tag_t *tags, int tag_count,
                           const outcome_t *o) {
    int seats = t->seats, ok = 1;
    out.n = 0;
    for (int k = 0; ok && k < export_tag_count; k++) {
        if (k && !put(",", 1))
            return NULL;
        for (int i = 0; ok && i < tag_count; i++)
            if (same(tags[i].name, export_tags[k]))
                ok = put_cell(tags[i].value);
    }
    char cells[96];
    snprintf(cells, sizeof cells, ",%d,true,0,0,true,", seats);
    ok = ok && put_s(cells) &&
         (o->winner == SHARED ? put_s(export_words[0]) : put_seat(o->winner)) && put(",", 1) &&
         put_s(export_words[h->point_count ? 2 : 1]);
    for (int s = 0; ok && s < MAX_SEATS; s++)
        ok = put(",", 1) && (s >= seats || put_int(o->scores[s]));
    snprintf(cells, sizeof cells, ",%d,%d,true\n", t->ply, t->ply);
    ok = ok && put_s(cells);
    PyObject *records = ok ? taken(0) : NULL;
    ok = records != NULL;
    size_t from = out.n;
    for (int ply = 0; ok && ply < t->ply; ply++) {
        int resolves = 0;
        for (int r = 0; r < STATES; r++)
            resolves |= t->ply_of[r] == ply + 1;
        const char *card = card_text[t->played[ply]];
        ok = put("\0", 1) && put(",", 1) && put_int(ply + 1) && put(",", 1) &&
             put_seat(ply % seats) && put(",", 1) && put_s(card) && put(",", 1) && put_s(card) &&
             put(",", 1) && put_s(spellings[2 * t->played_to[ply]]) &&
             put_s(resolves ? ",,,true\n" : ",,,false\n");
    }
    PyObject *plays = ok ? taken(from) : NULL;
    ok = plays != NULL;
    from = out.n;
    for (int r = 0; ok && r < STATES; r++) {
        int state = t->order[r], winner = t->ranking[r][0], runner = t->ranking[r][1];
        ok = put("\0", 1) && put(",", 1) && put_s(spellings[2 * state]) && put(",", 1) &&
             put_int(r + 1) && put(",", 1) && put_int(t->ply_of[r]) && put(",", 1) &&
             put_seat(winner) && put(",", 1) && put_seat(runner) && put(",", 1) &&
             put_deciding_cells(t, state, winner, runner) && put("\n", 1);
    }
    PyObject *states = ok ? taken(from) : NULL;
    ok = states != NULL;
    from = out.n;
    ok = ok && put_game(t);
    PyObject *game = ok ? PyBytes_FromStringAndSize(out.p + from, (Py_ssize_t)(out.n - from)) : NULL;
    if (records == NULL || plays == NULL || states == NULL || game == NULL) {
        Py_XDECREF(records);
        Py_XDECREF(plays);
        Py_XDECREF(states);
        Py_XDECREF(game);
        return NULL;
    }
    return Py_BuildValue("(NNNN)", records, plays, states, game);
}

static PyObject *archived(const table_t *t, const tag_t *tags, int tag_count, const written_t *w,
                          const result_t *r, int form, int extra, const text_t *lines, int first,
                          int last, int canonical) {
    PyObject *text = extra & ARCHIVE_TEXT ? canonical_of(lines, first, last, canonical)
                                          : Py_NewRef(Py_None);
    if (text == NULL)
        return NULL;
    PyObject *answer = archived_of(t, tags, tag_count, w, r, form, extra, text);
    Py_DECREF(text);
    return answer;
}

/* How plainly the plays are written: 1 every one N. CARD STATE, 2 every one
 * N. Pn CARD STATE (each card as Card.__str__ spells it, each state by its
 * letter), else 0. */
/* ------------------------------------------------------------------- view */

/* The page of ordo view (views/page.py) of every seat, written by the core
 * for the records it accepts whose plays are plain: each record's line in
 * the list and its JSON, their strings as indices in the block's table of
 * values (page.Values), the rest of the words asked of page.core_words. */
static PyObject *view_words_of; /* page.core_words */
static char view_codes[32];     /* page.CODES: the card of mask m as view_codes[m - 1] */
static char no_draw;            /* page.NO_DRAW */

static struct {
    buf_t raw;    /* the values' UTF-8, one after another */
    size_t *ends; /* where each ends in raw */
    int *slots;   /* by hash: the index of a value + 1, 0 where empty */
    int count, room, bits;
    unsigned met;   /* the cards the block's pages hold, a bit by mask */
    unsigned block; /* blocks begun so far */
} vals;

static unsigned long long hash_of(const char *s, size_t n) {
    unsigned long long h = 14695981039346656037ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static size_t value_start(int k) { return k ? vals.ends[k - 1] : 0; }

/* The free slot of a new value, or that of the same value held already. */
static unsigned value_slot(const char *s, size_t n) {
    unsigned mask = (1u << vals.bits) - 1, i = (unsigned)(hash_of(s, n) >> 40) & mask;
    for (; vals.slots[i]; i = (i + 1) & mask) {
        int k = vals.slots[i] - 1;
        size_t start = value_start(k);
        if (vals.ends[k] - start == n && memcmp(vals.raw.p + start, s, n) == 0)
            break;
    }
    return i;
}

static int values_start(void) {
    vals.block++;
    vals.count = 0;
    vals.raw.n = 0;
    vals.met = 0;
    if (vals.slots == NULL) {
        vals.bits = 10;
        if ((vals.slots = PyMem_Calloc(1u << vals.bits, sizeof(int))) == NULL) {
            PyErr_NoMemory();
            return 0;
        }
    } else {
        memset(vals.slots, 0, sizeof(int) << vals.bits);
    }
    return 1;
}

/* The index of a value in the block's table, the value put there if new. */
static int value_index(const char *s, size_t n) {
    if (2 * (vals.count + 1) > 1 << vals.bits) { /* half full: twice the slots */
        int *slots = PyMem_Calloc(2u << vals.bits, sizeof(int));
        if (slots == NULL)
            return PyErr_NoMemory(), -1;
        PyMem_Free(vals.slots);
        vals.slots = slots;
        vals.bits++;
        for (int k = 0; k < vals.count; k++) {
            size_t start = value_start(k);
            vals.slots[value_slot(vals.raw.p + start, vals.ends[k] - start)] = k + 1;
        }
    }
    unsigned slot = value_slot(s, n);
    if (vals.slots[slot])
        return vals.slots[slot] - 1;
    if (vals.count == vals.room) {
        int room = 2 * vals.room + 256;
        size_t *ends = PyMem_Realloc(vals.ends, sizeof(size_t) * (size_t)room);
        if (ends == NULL)
            return PyErr_NoMemory(), -1;
        vals.ends = ends;
        vals.room = room;
    }
    if (!put_in(&vals.raw, s, n))
        return -1;
    vals.ends[vals.count] = vals.raw.n;
    vals.slots[slot] = vals.count + 1;
    return vals.count++;
}

static int put_value(const char *s, size_t n) {
    int index = value_index(s, n);
    return index >= 0 && put_int(index);
}

/* The index of a string's value in the block's table, kept by the string
 * (held) for the block: the same words come again, as the same objects
 * (page_words, described_words). */
#define KNOWN_SLOTS 512
static struct {
    PyObject *text;
    int index;
    unsigned block;
} known[KNOWN_SLOTS];

static int put_value_str(PyObject *text) {
    if (text == NULL)
        return 0;
    unsigned slot = (unsigned)((size_t)text >> 4) & (KNOWN_SLOTS - 1);
    if (known[slot].text == text && known[slot].block == vals.block)
        return put_int(known[slot].index);
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(text, &n);
    int index = s == NULL ? -1 : value_index(s, (size_t)n);
    if (index < 0)
        return 0;
    Py_XSETREF(known[slot].text, Py_NewRef(text));
    known[slot].index = index;
    known[slot].block = vals.block;
    return put_int(index);
}

/* The block's values, in the order met. */
static PyObject *values_list(void) {
    PyObject *list = PyList_New(vals.count);
    for (int k = 0; list != NULL && k < vals.count; k++) {
        size_t start = value_start(k);
        PyObject *value =
            PyUnicode_DecodeUTF8(vals.raw.p + start, (Py_ssize_t)(vals.ends[k] - start), NULL);
        if (value == NULL)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, k, value);
    }
    return list;
}

static int put_code(int card) {
    vals.met |= 1u << card;
    return put(&view_codes[card - 1], 1);
}

static int put_maybe(int value) { return value < 0 ? put_s("null") : put_int(value); }

/* A loss's other plays by card, in the order found, each with the letters
 * of its states in state order: [["LH","CJ"],["F","T"]] (page._grouped). */
static int put_grouped(const loss_t *loss) {
    int cards[MAX_KEPT], masks[MAX_KEPT], n = 0;
    for (int k = 0; k < loss->kept; k++) {
        int i = 0;
        while (i < n && cards[i] != loss->card[k])
            i++;
        if (i == n)
            cards[n] = loss->card[k], masks[n++] = 0;
        masks[i] |= 1 << loss->state[k];
    }
    int ok = put("[", 1);
    for (int i = 0; ok && i < n; i++) {
        ok = put_s(i ? ",[\"" : "[\"") && put_s(card_text[cards[i]]) && put_s("\",\"");
        for (int state = 0; ok && state < STATES; state++)
            if (masks[i] >> state & 1)
                ok = put(spellings[2 * state], 1);
        ok = ok && put_s("\"]");
    }
    return ok && put("]", 1);
}

typedef struct {
    int ply, order, target, loss; /* loss -1: the target was decided there */
} mark_t;

static int by_ply(const void *a, const void *b) {
    const mark_t *x = a, *y = b;
    return x->ply != y->ply ? x->ply - y->ply : x->order - y->order;
}

/* The one seat of a mask of seats, else -1. */
static int alone_seat(int mask) { return one_seat(mask) ? __builtin_ctz((unsigned)mask) : -1; }

/* When each state and the game were decided, as the page of every seat
 * holds it: page._decisions_json(page._decisions(analysis, None)) of a
 * record whose deal is known; an event ["d",target,winner] or
 * ["l",target,seat,by,alternatives or null], target null: the game. */
static int put_decisions(const analysis_t *a) {
    mark_t marks[(STATES + 1) * (MAX_LOSSES + 1)];
    int n = 0;
    for (int target = 0; target <= STATES; target++) {
        for (int i = 0; i < a->losses[target]; i++, n++)
            marks[n] = (mark_t){a->loss[target][i].ply, n, target, i};
        if (a->decided[target] >= 0)
            marks[n] = (mark_t){a->decided[target], n, target, -1}, n++;
    }
    qsort(marks, (size_t)n, sizeof *marks, by_ply);
    int ok = put_s("{\"deal\":1,\"states\":[");
    for (int s = 0; ok && s < STATES; s++)
        ok = put_s(s ? ",[" : "[") && put_maybe(a->decided[s]) && put(",", 1) &&
             put_maybe(alone_seat(a->can[s])) && put(",", 1) &&
             put_maybe(a->resolved[s] ? a->resolved[s] : -1) && put("]", 1);
    ok = ok && put_s("],\"game\":[") && put_maybe(a->decided[STATES]) && put(",", 1) &&
         put_maybe(alone_seat(a->can[STATES])) && put_s("],\"marks\":{");
    for (int i = 0; ok && i < n; i++) {
        const mark_t *m = &marks[i];
        if (i == 0 || m->ply != marks[i - 1].ply)
            ok = put_s(i ? "],\"" : "\"") && put_int(m->ply) && put_s("\":[");
        else
            ok = put(",", 1);
        ok = ok && put_s(m->loss < 0 ? "[\"d\"," : "[\"l\",") &&
             (m->target == STATES ? put_s("null") : put_int(m->target));
        if (m->loss < 0) {
            ok = ok && put(",", 1) && put_maybe(alone_seat(a->can[m->target]));
        } else {
            const loss_t *loss = &a->loss[m->target][m->loss];
            ok = ok && put(",", 1) && put_int(loss->seat) && put(",", 1) && put_int(loss->by) &&
                 put(",", 1) && (loss->seat == loss->by ? put_grouped(loss) : put_s("null"));
        }
        ok = ok && put("]", 1);
    }
    return ok && put_s(n ? "]}}" : "}}");
}

/* The words of a record's page asked of Python (page.core_words): its
 * players, date, event, verdict, rules, result and the words that end its
 * replay, then each seat's label and each hand's. */
enum { W_PLAYERS, W_DATE, W_EVENT, W_VERDICT, W_RULES, W_RESULT, W_ENDING, W_LABELS };

/* The record's line in the list: [players,date,event,verdict,1]. */
static PyObject *view_row(PyObject *words) {
    out.n = 0;
    int ok = put("[", 1);
    for (int w = W_PLAYERS; ok && w <= W_VERDICT; w++)
        ok = put_value_str(PyTuple_GET_ITEM(words, w)) && put(",", 1);
    return ok && put_s("1]") ? PyUnicode_FromStringAndSize(out.p, (Py_ssize_t)out.n) : NULL;
}

/* The record's JSON: {"plays":...,"problems":[],"summary":...,"decisions":...}
 * as page._record writes it of an accepted record. */
static PyObject *view_body(const table_t *t, const header_t *h, const analysis_t *a,
                           PyObject *words, int seated) {
    int seats = t->seats;
    out.n = 0;
    int ok = put_s("{\"plays\":{\"labels\":[");
    for (int s = 0; ok && s < seats; s++)
        ok = (s == 0 || put(",", 1)) && put_value_str(PyTuple_GET_ITEM(words, W_LABELS + s));
    ok = ok && put_s("],\"hand_labels\":[");
    for (int s = 0; ok && s < seats; s++)
        ok = (s == 0 || put(",", 1)) &&
             put_value_str(PyTuple_GET_ITEM(words, W_LABELS + seats + s));
    ok = ok && put_s("],\"hands\":[");
    for (int s = 0; ok && s < seats; s++) {
        ok = put_s(s ? ",\"" : "\"");
        for (int i = 0; ok && i < HAND_SIZE; i++)
            ok = put_code(t->as_dealt[s][i]);
        ok = ok && put("\"", 1);
    }
    ok = ok && put_s("],\"pile\":") && put_int(t->pile_size) && put_s(",\"plies\":\"");
    for (int ply = 0; ok && ply < t->ply; ply++)
        ok = put_code(t->played[ply]) && put(spellings[2 * t->played_to[ply]], 1) &&
             (ply < t->pile_size ? put_code(t->pile[ply]) : put(&no_draw, 1));
    ok = ok && put_s("\",\"written\":{},\"glyphs\":{},\"notes\":{},\"ending\":[") &&
         put_value_str(PyTuple_GET_ITEM(words, W_ENDING)) && put(",", 1) && put_value("", 0) &&
         put_s("],\"stopped\":0,\"seated\":") && put_int(seated) &&
         put_s("},\"problems\":[],\"summary\":[") &&
         put_value_str(PyTuple_GET_ITEM(words, W_RULES)) && put(",", 1) &&
         put_value_str(PyTuple_GET_ITEM(words, W_RESULT)) && put_s(",[],[");
    for (int r = 0; ok && r < STATES; r++) {
        int state = t->order[r];
        const int *rank = t->ranking[r];
        PyObject *why = deciding_words(t, state, rank[0], rank[1]);
        ok = put_s(r ? ",[" : "[") && put_int(r + 1) && put(",", 1) && put_int(state) &&
             put(",", 1) && put_int(t->ply_of[r]) && put(",", 1) && put_value_str(why) &&
             put_s(",[");
        Py_XDECREF(why);
        for (int place = 0; ok && place < seats; place++) {
            int seat = rank[place];
            ok = put_s(place ? ",[" : "[") && put_int(seat) && put(",", 1) &&
                 put_int(t->fourth[state][seat]) && put(",", 1) &&
                 (h->point_count ? put_int(place < h->point_count ? h->points[place] : 0)
                                 : put_s("null")) &&
                 put(",", 1) && put_value_str(described_words(packed_army(t, state, seat))) &&
                 put("]", 1);
        }
        ok = ok && put_s("]]");
    }
    ok = ok && put_s("]],\"decisions\":") && (a == NULL ? put_s("null") : put_decisions(a)) &&
         put("}", 1);
    return ok ? PyUnicode_FromStringAndSize(out.p, (Py_ssize_t)out.n) : NULL;
}

/* The words of records asked of page.core_words, kept by what they depend
 * on (the players, date, event, outcome, points table and the seat that won
 * each state), written as bytes: many records share them, and a record
 * whose words are kept needs no Python object made for them. */
#define WORDS_SLOTS 4096
static struct {
    buf_t key;
    PyObject *words;
    int newer; /* (the first of two places) which of the two was used last */
} words_kept[WORDS_SLOTS];
static buf_t words_key;

static int key_int(int value) { return put_in(&words_key, (const char *)&value, sizeof value); }

static int key_text(text_t text) { return key_int((int)text.n) && put_in(&words_key, text.p, (size_t)text.n); }

static int words_key_of(const table_t *t, const header_t *h, const outcome_t *o, text_t date,
                        text_t event) {
    words_key.n = 0;
    int ok = key_int(h->seats) && key_text(date) && key_text(event) && key_int(o->winner) &&
             key_int(o->tie_break) && key_int(o->tied_count) && key_int(h->point_count);
    for (int s = 0; ok && s < h->seats; s++)
        ok = key_text(h->seat_tags[s]->value) && key_int(o->scores[s]) && key_int(o->states[s]);
    for (int i = 0; ok && i < o->tied_count; i++)
        ok = key_int(o->tied[i]);
    for (int i = 0; ok && i < h->point_count; i++)
        ok = key_int(h->points[i]);
    for (int r = 0; ok && r < STATES; r++)
        ok = key_int(t->ranking[r][0]);
    return ok;
}

static void words_forgotten(void) {
    for (int slot = 0; slot < WORDS_SLOTS; slot++) {
        Py_CLEAR(words_kept[slot].words);
        words_kept[slot].key.n = 0;
    }
}

/* The words of a record's page (page.core_words), a new reference: kept, or
 * asked with the record's verdict (``names``, ``first_line``). */
static PyObject *page_words(const table_t *t, const header_t *h, const outcome_t *o,
                            const tag_t *tags, int tag_count, PyObject *names, int first_line) {
    const tag_t *date = tag_named(tags, tag_count, "Date"), *event = tag_named(tags, tag_count, "Event");
    text_t none = {"", 0}, d = date ? date->value : none, e = event ? event->value : none;
    if (!words_key_of(t, h, o, d, e))
        return NULL;
    /* two places for each key: the one not used last is given up for a new key */
    unsigned slot = (unsigned)(hash_of(words_key.p, words_key.n) >> 32) & (WORDS_SLOTS - 2);
    for (unsigned way = slot; way < slot + 2; way++) {
        buf_t *key = &words_kept[way].key;
        if (words_kept[way].words != NULL && key->n == words_key.n &&
            memcmp(key->p, words_key.p, words_key.n) == 0) {
            words_kept[slot].newer = way - slot;
            return Py_NewRef(words_kept[way].words);
        }
    }
    slot += !words_kept[slot].newer;
    words_kept[slot & ~1u].newer = slot & 1;
    buf_t *kept = &words_kept[slot].key;
    PyObject *plain = verdict(t, o, names, first_line, h->point_count != 0, NULL);
    if (plain == NULL)
        return NULL;
    PyObject *words = PyObject_CallFunction(view_words_of, "ONs#s#", plain,
                                            small_tuple(h->points, h->point_count), d.p, d.n,
                                            e.p, e.n);
    Py_DECREF(plain);
    if (words == NULL)
        return NULL;
    if (!PyTuple_Check(words) || PyTuple_GET_SIZE(words) != W_LABELS + 2 * t->seats) {
        Py_DECREF(words);
        return PyErr_Format(PyExc_ValueError, "core_words gives %d words", W_LABELS + 2 * t->seats);
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(words); i++)
        if (!PyUnicode_Check(PyTuple_GET_ITEM(words, i))) {
            Py_DECREF(words);
            return PyErr_Format(PyExc_TypeError, "core_words gives strings");
        }
    kept->n = 0;
    if (!put_in(kept, words_key.p, words_key.n)) {
        Py_DECREF(words);
        return NULL;
    }
    Py_XSETREF(words_kept[slot].words, Py_NewRef(words));
    return words;
}

/* An accepted record's page: (its line in the list, its JSON); None to
 * decline it, where the core cannot analyse it. */
static PyObject *viewed(const table_t *t, const header_t *h, const outcome_t *o, const tag_t *tags,
                        int tag_count, PyObject *names, int first_line, int seated,
                        int analysed_too) {
    const analysis_t *a = NULL;
    if (analysed_too && (a = analysed(t, h)) == NULL)
        Py_RETURN_NONE; /* the core cannot tell: the Python path will */
    PyObject *words = page_words(t, h, o, tags, tag_count, names, first_line);
    if (words == NULL)
        return NULL;
    PyObject *row = view_row(words);
    PyObject *body = row == NULL ? NULL : view_body(t, h, a, words, seated);
    Py_DECREF(words);
    if (body == NULL) {
        Py_XDECREF(row);
        return NULL;
    }
    return Py_BuildValue("(NN)", row, body);
}

static int plain_plays(int form) {
    int plays = form & (SEATED | UNSEATED | ODD | SPELT);
    return plays == SEATED ? 2 : plays == UNSEATED || plays == 0 ? 1 : 0;
}

/* The verdict of one record (lines [0, count)), or Py_None to decline it;
 * ``extra``: what it ends with (REPLAY: replayed_of; the others, a layout). */
static PyObject *check_record(const text_t *lines, int count, int first_line, PyObject *judge,
                              int extra) {
    tag_t tags[MAX_TAGS];
    int tag_count = 0, row = 0;
    /* canonical: written as writer.format_record writes it, from line ``first`` to ``last`` */
    int canonical = extra == FORMAT || (extra >= ARCHIVE && extra & ARCHIVE_TEXT), first = -1, last = -1, blanks = 0, empty = 1, section = 0;
    for (; row < count; row++) {
        text_t line = lines[row];
        Py_ssize_t pos = indent(line);
        if (pos == line.n) {
            blanks++;
            empty &= line.n == 0;
            continue;
        }
        if (line.p[0] != '[')
            break;
        if (tag_count == MAX_TAGS || !tag_line(line, &tags[tag_count]))
            Py_RETURN_NONE;
        if (first < 0)
            first = row;
        else if (blanks || tag_rank(tags[tag_count].name) < tag_rank(tags[tag_count - 1].name))
            canonical = 0;
        blanks = 0;
        empty = 1;
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
    written_t w; /* the elements in the order written, for the archive form */
    w.deal_count = w.body_count = 0;
    int declared[STATES] = {0}; /* the states declared resolved so far */
    int form = 0;               /* how the plays are written (play_line) */
    int part = DEAL, open_seat = -2, expected = 1; /* open_seat: the hand (or -1 the pile) open */
    int pile_cards = -1; /* on the pile's last line so far (-1: no pile yet) */
    for (; row < count; row++) {
        text_t line = lines[row];
        Py_ssize_t pos = indent(line);
        if (pos == line.n) {
            blanks++;
            empty &= line.n == 0;
            continue;
        }
        text_t rest = {line.p + pos, line.n - pos};
        for (Py_ssize_t i = 0; i < rest.n; i++)
            if ((unsigned char)rest.p[i] >= 0x80)
                Py_RETURN_NONE;
        char c = rest.p[0];
        Py_ssize_t at = 0;
        text_t first_word = next_word(rest, &at);
        int ok;
        int in_section = section;
        if (is_digit(c) || c == '#' || same(first_word, "result")) {
            if (part == RESULT || (part == DEAL && !dealt_whole(&t)))
                Py_RETURN_NONE;
            open_seat = -2;
            in_section = 2;
            if (w.body_count == MAX_ELEMENTS)
                Py_RETURN_NONE;
            if (c == '#') {
                part = PLAYS;
                ok = declared_line(&t, declared, rest);
                w.body[w.body_count++] = (short)(MARKED + rest.p[1] - '0');
                canonical &= next_word(rest, &(Py_ssize_t){first_word.n}).n == 1;
            } else if (is_digit(c)) {
                part = PLAYS;
                int index = expected - 1;
                w.body[w.body_count++] = (short)index;
                ok = index < MAX_PLIES && play_line(&t, rest, expected++, &form, &w.seated[index]);
            } else {
                part = RESULT;
                w.body[w.body_count++] = RESULTED;
                ok = result_line(&t, rest, &result, &canonical);
            }
        } else if (same(first_word, "hand") && part == DEAL) {
            in_section = 1;
            text_t seat_word = next_word(rest, &at);
            if (seat_word.n != 3 || seat_word.p[2] != ':')
                Py_RETURN_NONE;
            seat_word.n = 2;
            open_seat = seat_of(seat_word, t.seats);
            ok = open_seat >= 0 && !(t.dealt & 1 << open_seat);
            if (open_seat < 0 || t.piles || t.dealt != (1 << open_seat) - 1)
                form |= UNORDERED; /* not P1, P2, ... then the pile */
            if (ok) {
                w.deal[w.deal_count++] = (signed char)open_seat;
                t.dealt |= 1 << open_seat;
                ok = deal_cards(&t, rest, at, open_seat, &canonical);
                canonical &= t.hand_size[open_seat] == HAND_SIZE; /* a hand on one line */
            }
        } else if (same(first_word, "pile:") && part == DEAL) {
            in_section = 1;
            open_seat = -1;
            int before = t.pile_size;
            ok = t.piles++ == 0 && deal_cards(&t, rest, at, -1, &canonical);
            if (ok) /* one pile: a second is declined */
                w.deal[w.deal_count++] = -1;
            pile_cards = t.pile_size - before;
            canonical &= pile_cards == 0 ? line.n == 5 : spaced(line, 0);
        } else if (open_seat > -2 && is_letter(c)) {
            in_section = 1;
            int before = t.pile_size;
            ok = deal_cards(&t, rest, 0, open_seat, &canonical); /* more of the hand or pile */
            /* canonical: the pile's lines of pile_per_line cards, the last of fewer */
            canonical &= open_seat == -1 && pile_cards == pile_per_line && spaced(line, pile_indent);
            pile_cards = t.pile_size - before;
        } else {
            ok = 0;
        }
        if (!ok)
            Py_RETURN_NONE;
        if (in_section == 2 && !spaced(line, 0))
            canonical = 0;
        if (in_section == 1 && open_seat >= 0 && !spaced(line, 0))
            canonical = 0;
        /* one empty line between the header, the deal and the body; none within */
        if (in_section == section ? blanks != 0 : in_section != section + 1 || blanks != 1 || !empty)
            canonical = 0;
        if (pile_cards > pile_per_line)
            canonical = 0;
        section = in_section;
        last = row;
        blanks = 0;
        empty = 1;
    }
    if (form & SPELT)
        canonical = 0;
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
    if (extra >= VIEW) { /* the page alone */
        PyObject *page = plain_plays(form) ? viewed(&t, &h, &o, tags, tag_count, names, first_line,
                                                    plain_plays(form) == 2, extra & VIEW_ANALYSED)
                                           : Py_NewRef(Py_None);
        Py_DECREF(names);
        return page;
    }
    PyObject *analysis = extra == FORMAT ? canonical_of(lines, first, last, canonical)
                         : extra == SUMMARY || extra == SUMMARY + SUMMARY_ANALYSED
                             ? (plain_plays(form) ? summary_of(&t, &h, extra & SUMMARY_ANALYSED)
                                                  : Py_NewRef(Py_None))
                         : extra == EXPORT
                             ? (!plain_plays(form) || form & UNORDERED
                                    ? Py_NewRef(Py_None)
                                    : export_of(&t, &h, tags, tag_count, &o))
                         : extra >= ARCHIVE
                             ? archived(&t, tags, tag_count, &w, &result, form, extra,
                                        lines, first, last, canonical)
                         : extra >= REPLAY ? text_of(tags, tag_count, lines, count)
                                           : NULL;
    if (extra >= REPLAY && extra < FORMAT && analysis != NULL) {
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

/* ------------------------------------------------------- reading archives */

/* A record of an archive read back into .ord text: the words of its piece,
 * key by key, written as writer.text writes the record they stand for. The
 * reading is loose; what it gives is taken only when the core accepts that
 * text, finds it canonical and writes the very same piece of it again. */
typedef struct {
    text_t key;      /* the key the words are of */
    text_t name;     /* a tag's name, awaiting its value */
    int section;     /* what was written last: 0 the header, 1 the deal, 2 the body */
    int in_marker;   /* the words are a declared marker's */
    int pile_cards;  /* cards on the pile's line so far */
    int scores;      /* words of the scores so far */
    int ok;
} reading_t;

static void section(reading_t *r, int to) {
    if (r->section < to) {
        r->ok &= put("\n", 1);
        r->section = to;
    }
}

static void on_key(reading_t *r, text_t key) {
    r->key = key;
    if (same(key, "deal"))
        section(r, 1);
    else if (same(key, "body"))
        section(r, 2);
    else if (same(key, "pile"))
        r->ok &= put_s("pile:"), r->pile_cards = 0;
    else if (same(key, "ply"))
        r->in_marker = 0;
}

static void on_word(reading_t *r, text_t word) {
    text_t key = r->key;
    int ok = 1;
    if (same(key, "name"))
        r->name = word;
    else if (same(key, "value"))
        ok = memchr(word.p, '"', (size_t)word.n) == NULL && put("[", 1) && put_text(r->name) &&
             put_s(" \"") && put_text(word) && put_s("\"]\n");
    else if (same(key, "hand"))
        ok = put_s("hand ") && put_text(word) && put(":", 1);
    else if (same(key, "cards"))
        ok = put(" ", 1) && put_text(word);
    else if (same(key, "pile")) {
        if (r->pile_cards == pile_per_line) {
            ok = put("\n", 1) && put_spaces(pile_indent);
            r->pile_cards = 0;
        } else {
            ok = put(" ", 1);
        }
        ok = ok && put_text(word);
        r->pile_cards++;
    } else if (same(key, "ply"))
        ok = put_text(word) && put(".", 1);
    else if (same(key, "marker"))
        ok = put("#", 1) && put_text(word), r->in_marker = 1;
    else if (same(key, "seat") || same(key, "card") || same(key, "state"))
        ok = put(" ", 1) && put_text(word) &&
             (same(key, r->in_marker ? "seat" : "state") ? put("\n", 1) : 1);
    else if (same(key, "result"))
        ok = put_s("result ") && put_text(word);
    else if (same(key, "scores"))
        ok = put(r->scores++ % 2 ? ":" : " ", 1) && put_text(word);
    else
        ok = 0; /* a word of no key the records have */
    r->ok &= ok;
}

static void on_list_end(reading_t *r, text_t key) {
    if (same(key, "cards") || same(key, "pile"))
        r->ok &= put("\n", 1);
}

/* A scalar of the piece from *at: single-quoted without a quote inside
 * (the quotes dropped), else plain up to one of ``stops`` or the line's end. */
static int scalar_at(text_t line, Py_ssize_t *at, const char *stops, text_t *word) {
    Py_ssize_t i = *at;
    if (i < line.n && line.p[i] == '\'') {
        const char *end = memchr(line.p + i + 1, '\'', (size_t)(line.n - i - 1));
        if (end == NULL || (end + 1 < line.p + line.n && end[1] == '\''))
            return 0;
        word->p = line.p + i + 1;
        word->n = end - word->p;
        *at = end + 1 - line.p;
        return 1;
    }
    Py_ssize_t start = i;
    char one = stops[0], two = one ? stops[1] : 0; /* at most two */
    while (i < line.n && line.p[i] != one && (line.p[i] != two || !two))
        i++;
    word->p = line.p + start;
    word->n = i - start;
    *at = i;
    return word->n > 0;
}

/* The words of a flow list from line[*at] (after its ``[``), over the lines
 * it was wrapped on, to its ``]``: rows[*row] is the line. */
static int yaml_list(reading_t *r, const text_t *rows, int count, int *row, Py_ssize_t at) {
    text_t line = rows[*row];
    for (;;) {
        if (at < line.n && line.p[at] == ']')
            return 1;
        text_t word;
        if (!scalar_at(line, &at, ",]", &word))
            return 0;
        on_word(r, word);
        if (at < line.n && line.p[at] == ']')
            return 1;
        if (at < line.n && line.p[at] == ',')
            at++;
        if (at == line.n) { /* wrapped: the next line, its blanks skipped */
            if (++*row == count)
                return 0;
            line = rows[*row];
            at = indent(line);
        } else if (line.p[at] == ' ') {
            at++;
        } else {
            return 0;
        }
    }
}

/* The words of a record's piece of a YAML archive (layout.yaml_text's lines). */
static int yaml_words(reading_t *r, const text_t *rows, int count) {
    for (int row = 0; row < count; row++) {
        text_t line = rows[row];
        Py_ssize_t at = indent(line);
        if (at + 1 < line.n && line.p[at] == '-' && line.p[at + 1] == ' ')
            at += 2;
        if (at < line.n && line.p[at] == '{') { /* a mapping of words: {key: word, ...} */
            at++;
            for (;;) {
                text_t key, word;
                if (!scalar_at(line, &at, ":", &key) || at + 1 >= line.n || line.p[at + 1] != ' ')
                    return 0;
                at += 2;
                on_key(r, key);
                if (!scalar_at(line, &at, ",}", &word))
                    return 0;
                on_word(r, word);
                if (at < line.n && line.p[at] == '}')
                    break;
                if (at + 1 >= line.n || line.p[at + 1] != ' ')
                    return 0;
                at += 2;
            }
            if (at + 1 != line.n)
                return 0;
        } else if (at < line.n && line.p[at] == '[') { /* a pair of the scores */
            if (!yaml_list(r, rows, count, &row, at + 1))
                return 0;
        } else { /* key: word, key: [words], or key: and what is under it */
            text_t key;
            if (!scalar_at(line, &at, ":", &key) || at == line.n)
                return 0;
            on_key(r, key);
            if (++at == line.n)
                continue;
            if (line.p[at++] != ' ' || at == line.n)
                return 0;
            if (line.p[at] == '[') {
                if (!yaml_list(r, rows, count, &row, at + 1))
                    return 0;
                on_list_end(r, key);
            } else {
                text_t word;
                if (!scalar_at(line, &at, "", &word) || at != line.n)
                    return 0;
                on_word(r, word);
            }
        }
        if (!r->ok)
            return 0;
    }
    return 1;
}

/* The words of a record's piece of a JSON archive (files/output.json_text's
 * text): strings without an escape, whole numbers; a list's end is told
 * for the key it is the value of. */
static int json_words(reading_t *r, text_t piece) {
    text_t keys[8];
    int depth = 0, after_key = 0;
    text_t key = {"", 0};
    for (Py_ssize_t i = 0; i < piece.n; i++) {
        char c = piece.p[i];
        if (c == ' ' || c == '\n' || c == ',' || c == '{' || c == '}')
            continue;
        if (c == '[') {
            if (depth == 8)
                return 0;
            keys[depth++] = after_key ? key : (text_t){"", 0};
            after_key = 0;
        } else if (c == ']') {
            if (depth == 0)
                return 0;
            on_list_end(r, keys[--depth]);
        } else if (c == '"' || is_digit(c)) {
            text_t word = {piece.p + i + (c == '"'), 0};
            Py_ssize_t j = i + 1;
            if (c == '"') {
                while (j < piece.n && piece.p[j] != '"' && piece.p[j] != '\\')
                    j++;
                if (j == piece.n || piece.p[j] == '\\')
                    return 0;
                word.n = j - i - 1;
                j++;
            } else {
                while (j < piece.n && is_digit(piece.p[j]))
                    j++;
                word.n = j - i;
            }
            i = j - 1;
            if (c == '"' && j < piece.n && piece.p[j] == ':') {
                key = word;
                on_key(r, key);
                after_key = 1;
                i = j;
                continue;
            }
            on_word(r, word);
            after_key = 0;
        } else {
            return 0;
        }
        if (!r->ok)
            return 0;
    }
    return depth == 0;
}

/* The .ord text of one record's piece (lines [0, count)) of a YAML or JSON
 * archive, written in ``out``; 0 when it cannot be read so. */
static int ord_of_piece(const text_t *rows, int count, int json) {
    reading_t r;
    memset(&r, 0, sizeof r);
    r.ok = 1;
    out.n = 0;
    if (json) {
        text_t piece = {rows[0].p, rows[count - 1].p + rows[count - 1].n - rows[0].p};
        if (!json_words(&r, piece))
            return 0;
    } else if (!yaml_words(&r, rows, count)) {
        return 0;
    }
    return r.ok && r.section == 2 && (out.p[out.n - 1] == '\n' || put("\n", 1)); /* a result's */
}

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

/* One piece read back (lines [0, count) of an archive): its record's .ord
 * text when the core accepts it, finds it canonical and writes this piece
 * of it again; else Py_None. */
static PyObject *ord_text_of(const text_t *rows, int count, int json, PyObject *judge) {
    while (count > 1 && rows[count - 1].n == 0)
        count--; /* empty lines after a record are no part of it */
    if (!ord_of_piece(rows, count, json))
        Py_RETURN_NONE;
    for (size_t i = 0; i < out.n; i++)
        if (!plain_char((unsigned char)out.p[i]))
            Py_RETURN_NONE; /* what check_block declines a block for */
    PyObject *text = PyUnicode_DecodeUTF8(out.p, (Py_ssize_t)out.n, NULL);
    if (text == NULL)
        return NULL;
    Py_ssize_t size;
    const char *s = PyUnicode_AsUTF8AndSize(text, &size); /* ends with a line end */
    int n;
    text_t *lines = s == NULL ? NULL : lines_of(s, size, 1, &n);
    if (lines == NULL) {
        Py_DECREF(text);
        return NULL;
    }
    PyObject *found = check_record(lines, n, 1, judge,
                                   ARCHIVE | ARCHIVE_TEXT | (json ? ARCHIVE_JSON : 0));
    PyMem_Free(lines);
    PyObject *answer = NULL;
    if (found == Py_None) {
        answer = found;
    } else if (found != NULL) {
        PyObject *piece = PyTuple_GET_ITEM(PyTuple_GET_ITEM(found, 9), 0);
        Py_ssize_t written;
        const char *p = PyUnicode_AsUTF8AndSize(piece, &written);
        const char *from = rows[0].p, *to = rows[count - 1].p + rows[count - 1].n;
        if (json && to > from && to[-1] == ',')
            to--; /* the comma before the next record */
        int alike = p != NULL && written == (to - from) + !json &&
                    memcmp(p, from, (size_t)(to - from)) == 0 && (json || p[written - 1] == '\n');
        answer = p == NULL ? NULL : alike ? Py_NewRef(text) : Py_NewRef(Py_None);
        Py_DECREF(found);
    }
    Py_DECREF(text);
    return answer;
}

/* The records of a block of an archive laid out as ordo writes them (each
 * record's lines from ``- `` (YAML) or ``  {`` (JSON) to the next): each
 * one's .ord text (ord_text_of), else (first line, its lines); None for a
 * block that does not begin with a record. */
static PyObject *read_archive(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *text, *judge;
    int first_line, json;
    if (!PyArg_ParseTuple(args, "UiOp:read_archive", &text, &first_line, &judge, &json))
        return NULL;
    Py_ssize_t size;
    const char *s = PyUnicode_AsUTF8AndSize(text, &size);
    if (s == NULL)
        return NULL;
    int count;
    text_t *rows = lines_of(s, size, 1, &count);
    if (rows == NULL)
        return NULL;
    PyObject *items = PyList_New(0);
    int start = 0;
    while (items != NULL && start < count) {
        text_t first = rows[start];
        if (json ? !same(first, "  {") : first.n < 2 || memcmp(first.p, "- ", 2) != 0) {
            Py_CLEAR(items);
            Py_INCREF(Py_None);
            items = Py_None;
            break;
        }
        int stop = start + 1;
        while (stop < count && (json ? !same(rows[stop], "  {")
                                     : rows[stop].n < 2 || memcmp(rows[stop].p, "- ", 2) != 0))
            stop++;
        PyObject *item = ord_text_of(rows + start, stop - start, json, judge);
        if (item == Py_None) {
            Py_DECREF(item);
            const char *from = rows[start].p, *to = rows[stop - 1].p + rows[stop - 1].n;
            item = Py_BuildValue("(is#)", first_line + start, from, (Py_ssize_t)(to - from));
        }
        if (item == NULL || PyList_Append(items, item) < 0)
            Py_CLEAR(items);
        Py_XDECREF(item);
        start = stop;
    }
    PyMem_Free(rows);
    return items;
}

/* Whether the lines of a block of an archive are laid out as ordo writes
 * archives (document.in_our_layout, less the head and JSON's tail): no
 * anchor nor alias anywhere; YAML: each line begins with "- " or two
 * blanks; JSON: each is "  {" or begins with three blanks or "  }". A line
 * that is empty is any archive's. */
static PyObject *laid_out(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *text;
    int json;
    if (!PyArg_ParseTuple(args, "Up:laid_out", &text, &json))
        return NULL;
    Py_ssize_t size;
    const char *s = PyUnicode_AsUTF8AndSize(text, &size);
    if (s == NULL)
        return NULL;
    if (memchr(s, '&', (size_t)size) || memchr(s, '*', (size_t)size))
        Py_RETURN_FALSE;
    for (const char *at = s, *end = s + size; at < end;) {
        const char *stop = memchr(at, '\n', (size_t)(end - at));
        Py_ssize_t n = (stop ? stop : end) - at;
        int fine = n == 0 || (json ? (n == 3 && memcmp(at, "  {", 3) == 0) ||
                                         (n >= 3 && (memcmp(at, "   ", 3) == 0 ||
                                                     memcmp(at, "  }", 3) == 0))
                                   : n >= 2 && (memcmp(at, "- ", 2) == 0 ||
                                                memcmp(at, "  ", 2) == 0));
        if (!fine)
            Py_RETURN_FALSE;
        if (stop == NULL)
            break;
        at = stop + 1;
    }
    Py_RETURN_TRUE;
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
    if (items == NULL || (extra >= VIEW && !values_start()))
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
    answer = extra >= VIEW ? Py_BuildValue("(iONI)", seen, items, values_list(), vals.met)
                           : Py_BuildValue("(iO)", seen, items);
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
        icon_letter[icon] = (char)letter;
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
    for (int card = 1; card < 32; card++) {
        int n = 0;
        for (int icon = 0; icon < 5; icon++)
            if (card >> icon & 1)
                card_text[card][n++] = icon_letter[icon];
        card_text[card][n] = '\0';
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

static PyObject *configure_canonical(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *order;
    if (!PyArg_ParseTuple(args, "O!ii:configure_canonical", &PyTuple_Type, &order, &pile_per_line,
                          &pile_indent))
        return NULL;
    if (PyTuple_GET_SIZE(order) > 32)
        return PyErr_Format(PyExc_ValueError, "the core knows 32 tags in order at most");
    tag_order_count = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(order); i++)
        if (!copy_word(PyTuple_GET_ITEM(order, i), tag_order[tag_order_count++], 16))
            return NULL;
    if (newline == NULL && (newline = PyUnicode_FromString("\n")) == NULL)
        return NULL;
    Py_RETURN_NONE;
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

static PyObject *configure_archive(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *spelling;
    if (!PyArg_ParseTuple(args, "iO:configure_archive", &yaml_width, &spelling))
        return NULL;
    Py_XSETREF(yaml_spelling, Py_NewRef(spelling));
    memset(spelt_kept, 0, sizeof spelt_kept); /* spelt by the new one */
    Py_RETURN_NONE;
}

static PyObject *configure_summary(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *described, *differing, *explained;
    if (!PyArg_ParseTuple(args, "OOO:configure_summary", &described, &differing, &explained))
        return NULL;
    Py_XSETREF(described_of, Py_NewRef(described));
    Py_XSETREF(differing_of, Py_NewRef(differing));
    Py_XSETREF(explained_of, Py_NewRef(explained));
    for (size_t i = 0; i < sizeof described_kept / sizeof *described_kept; i++)
        Py_CLEAR(described_kept[i]);
    for (int i = 0; i < DIFFERING_SLOTS; i++) {
        Py_CLEAR(differing_kept[i].words);
        differing_kept[i].key = 0;
    }
    Py_RETURN_NONE;
}

static PyObject *configure_view(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *words;
    const char *codes, *draw;
    Py_ssize_t n, m;
    if (!PyArg_ParseTuple(args, "Os#s#:configure_view", &words, &codes, &n, &draw, &m))
        return NULL;
    if (n != 31 || m != 1)
        return PyErr_Format(PyExc_ValueError, "a code for each of the 31 cards, one for no draw");
    memcpy(view_codes, codes, 31);
    no_draw = draw[0];
    Py_XSETREF(view_words_of, Py_NewRef(words));
    words_forgotten();
    Py_RETURN_NONE;
}

static PyObject *configure_export(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *words, *tags, *deciding, *formulas;
    if (!PyArg_ParseTuple(args, "O!O!OU:configure_export", &PyTuple_Type, &words, &PyTuple_Type,
                          &tags, &deciding, &formulas))
        return NULL;
    if (!copy_word(formulas, formula_starts, sizeof formula_starts))
        return NULL;
    if (PyTuple_GET_SIZE(words) != 3 || PyTuple_GET_SIZE(tags) > 16)
        return PyErr_Format(PyExc_ValueError, "three words and 16 tags at most");
    for (int i = 0; i < 3; i++)
        if (!copy_word(PyTuple_GET_ITEM(words, i), export_words[i], sizeof export_words[i]))
            return NULL;
    export_tag_count = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tags); i++)
        if (!copy_word(PyTuple_GET_ITEM(tags, i), export_tags[export_tag_count++], 16))
            return NULL;
    Py_XSETREF(deciding_of, Py_NewRef(deciding));
    for (int i = 0; i < 8; i++)
        Py_CLEAR(step_kept[i]);
    for (int i = 0; i < FORMATION_SLOTS; i++) {
        Py_CLEAR(formation_kept[i].words);
        formation_kept[i].key = 0;
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"configure_export", configure_export, METH_VARARGS,
     "configure_export(words, tags, deciding, formula_starts)\n\n"
     "The words of ordo export's tables (views/tables.py): a shared win's and\n"
     "the two rules' (shared, classic, points), the tags of the records table\n"
     "in its order, deciding(packed, beaten) -> (step, formation), and the\n"
     "characters a tag's value is made inert after (tables.inert). Called\n"
     "once before a check_block with extra 64."},
    {"configure_view", configure_view, METH_VARARGS,
     "configure_view(words, codes, no_draw)\n\n"
     "The words of ordo view's page (views/page.py): words(verdict, points,\n"
     "date, event) -> the words of a record's page (page.core_words), the code\n"
     "of each card by mask - 1 and that of no draw. Called once, after\n"
     "configure_summary, before a check_block with extra 128 or 129."},
    {"configure_summary", configure_summary, METH_VARARGS,
     "configure_summary(described, differing, explained)\n\n"
     "The words of a summary (engine/armies.py): an army's formations by its\n"
     "packed icon counts; why one army's formations beat another's, or None\n"
     "where they are the same; and where they are, why by seat and plies. Called once,\n"
     "after configure_archive, before a check_block with extra 32."},
    {"configure_archive", configure_archive, METH_VARARGS,
     "configure_archive(width, spelt)\n\n"
     "The archives' layout (archives/layout.py): the emitter's line width and\n"
     "spelt(word, flow) -> how libyaml spells a word, or None. Called once,\n"
     "after configure and configure_canonical, before a check_block with\n"
     "extra 16 to 19."},
    {"configure_canonical", configure_canonical, METH_VARARGS,
     "configure_canonical(tag_order, pile_per_line, pile_indent)\n\n"
     "The canonical form (notation/writer.py): called once before a\n"
     "check_block with extra 8."},
    {"configure_values", configure_values, METH_VARARGS,
     "configure_values(cards, plays)\n\n"
     "The values a record as replayed holds: the 32 cards by mask and the 256\n"
     "plays (card, state) by play code. Called once, by quick.py, before any\n"
     "check_block with extra 4 to 7."},
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
    {"laid_out", laid_out, METH_VARARGS,
     "laid_out(text, json) -> bool\n\n"
     "Whether a block of an archive's records is laid out as ordo writes\n"
     "them (document.in_our_layout, less the head and JSON's tail)."},
    {"read_archive", read_archive, METH_VARARGS,
     "read_archive(text, first_line, judge, json) -> items or None\n\n"
     "The records of a block of a YAML (or JSON) archive laid out as ordo\n"
     "writes them: each one's .ord text where the core accepts that text,\n"
     "finds it canonical and writes the record's piece of the archive again\n"
     "byte for byte, else (first line, its lines). None for a block that\n"
     "does not begin with a record. After configure_archive."},
    {"check_block", check_block, METH_VARARGS,
     "check_block(text, first_line, judge, extra=0, through=MAX_PLIES) -> (records, items, ...)\n"
     "or None\n\n"
     "The records of a block of lines, cut as split_lines cuts them: for each\n"
     "record that is not blank, its verdict when it has nothing to report,\n"
     "else (first line, text) for the Python validator. None when the block\n"
     "is not plain enough to cut here. judge(name) tells whether a tag of\n"
     "that name is never warned of. With extra 1, a verdict ends with the\n"
     "record's analysis (engine/analysis.analyse); with 2, with what statistics\n"
     "read of it; with 3, with its tags and its text; with 4, with what its\n"
     "summary and a seat's page read; 5 and its analysis; 6 and the ply its\n"
     "game was decided if by ply through, else None;\n"
     "8 with its canonical text, a record written otherwise declined;\n"
     "16 with its piece of a YAML archive, 17 of a JSON one, a record whose\n"
     "plays have a draw or a glyph declined; 18 and 19 with (the piece, the\n"
     "canonical text), a record written otherwise declined too; 32 with its\n"
     "summary's states and points table as text (summary.render_text), a\n"
     "record whose plays are not plain declined, 33 and its analysis; 64 with its rows of ordo\n"
     "export's tables as CSV, and the text of its game key (a record whose\n"
     "plays are not plain or whose deal is out of seat order declined), 65\n"
     "with only its tags and that text (ordo dedup); 128\n"
     "with (its line in the list, its JSON) of ordo view's page of every\n"
     "seat, 129 with when each state was decided, a record whose plays are\n"
     "not plain declined: then (records, items, values, cards) where values\n"
     "are the block's strings the JSON names by index, cards those it holds\n"
     "(a bit by mask)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_quick",
    "The quick check: ordo validate's hot path in C (see checking/quick.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__quick(void) { return PyModule_Create(&module); }
