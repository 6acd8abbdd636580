/* The native core of move generation: engine/movegen.py's search, in C.
 *
 * This is a port of the pure-Python generator (engine/movegen.py, the reference): the same
 * cross-sets, anchors and Gordon's GADDAG search on the same flat arrays (engine/lexicon.py),
 * the same scoring kept incrementally, the same rule that a lone tile forming words both ways
 * is made across only, and the same total order of the result. Tests compare the two engines
 * move for move (tests/engine/test_native.py, bench/movegen_verify.py).
 *
 * Two things are added:
 *  - the result is sorted, cut and built as the engine's own ScoredMove/Move objects here;
 *  - for top(n), anchors are searched best bound first (the "shadow" of wolges and MAGPIE):
 *    each anchor gets an upper bound on the score of any move made from it (letters placed
 *    without looking at the lexicon, the rack's best values on the best squares), and the
 *    search stops when no anchor left can reach the running n-th best score. Moves scoring
 *    exactly that score are still searched, so ties are decided by the total order as in the
 *    pure engine: top(n) is generate()[:n].
 *
 * Python side: engine/native.py (loading, the lexicon's buffers) and engine/movegen.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 15
#define SQUARES (SIZE * SIZE)
#define SEP 26
#define SEP_BIT (1u << SEP)
#define TERMINAL (1u << 27)
#define LETTERS ((1u << 26) - 1)
#define SYMBOLS ((1u << 27) - 1)
#define MAX_BONUS_TILES 16 /* the bonus table: 0 to 15 tiles placed */
#define NO_CROSS (-1)
#define BLANK 26
#define MAX_WORD SIZE

/* The child of a node is found by counting the bits below its symbol. Without the POPCNT
 * instruction (x86-64's baseline lacks it) the compiler calls a libgcc function; a few shifts
 * and masks inline are faster than that call, and the .so runs on any x86-64. */
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
#define POPCOUNT(x) (POPCOUNT(x))
#else
static inline uint32_t POPCOUNT(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (x * 0x01010101u) >> 24;
}
#endif

/* ------------------------------------------------------------------------------------------ */
/* The lexicon: the DAWG's and the GADDAG's three arrays each, read from buffers (the mapped
 * cache file, or arrays made from the lists of an in-memory lexicon). */

typedef struct {
    PyObject_HEAD
    Py_buffer views[6];
    int held;
    const uint32_t *dm, *df, *dt, *gm, *gf, *gt;
    Py_ssize_t dn, gn;
} LexObject;

static void Lex_dealloc(LexObject *self) {
    for (int i = 0; i < self->held; i++) PyBuffer_Release(&self->views[i]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Every edge index and every target in range: a corrupt cache file must not crash. */
static int check_arrays(const uint32_t *mask, const uint32_t *first, Py_ssize_t nodes,
                        const uint32_t *target, Py_ssize_t edges, const char *what) {
    if (nodes < 1) {
        PyErr_Format(PyExc_ValueError, "the %s has no root node", what);
        return -1;
    }
    for (Py_ssize_t n = 0; n < nodes; n++) {
        uint32_t kids = POPCOUNT(mask[n] & SYMBOLS);
        if ((uint64_t)first[n] + kids > (uint64_t)edges) {
            PyErr_Format(PyExc_ValueError, "the %s's node %zd has edges out of range", what, n);
            return -1;
        }
    }
    for (Py_ssize_t e = 0; e < edges; e++) {
        if ((Py_ssize_t)target[e] >= nodes) {
            PyErr_Format(PyExc_ValueError, "the %s's edge %zd leads out of range", what, e);
            return -1;
        }
    }
    return 0;
}

static int Lex_init(LexObject *self, PyObject *args, PyObject *kwds) {
    PyObject *objs[6];
    static char *kwlist[] = {"dmask", "dfirst", "dtarget", "gmask", "gfirst", "gtarget", NULL};
    if (self->held) {
        PyErr_SetString(PyExc_TypeError, "Lexicon is already initialised");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOO", kwlist, &objs[0], &objs[1],
                                     &objs[2], &objs[3], &objs[4], &objs[5]))
        return -1;
    for (int i = 0; i < 6; i++) {
        if (PyObject_GetBuffer(objs[i], &self->views[i], PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
            return -1;
        self->held++;
        if (self->views[i].itemsize != 4 || self->views[i].format == NULL ||
            (strcmp(self->views[i].format, "I") != 0 && strcmp(self->views[i].format, "=I") != 0 &&
             strcmp(self->views[i].format, "<I") != 0)) {
            PyErr_Format(PyExc_ValueError, "array %d must hold unsigned 32-bit integers ('I')",
                         i);
            return -1;
        }
    }
    self->dm = self->views[0].buf;
    self->df = self->views[1].buf;
    self->dt = self->views[2].buf;
    self->gm = self->views[3].buf;
    self->gf = self->views[4].buf;
    self->gt = self->views[5].buf;
    self->dn = self->views[0].len / 4;
    self->gn = self->views[3].len / 4;
    if (self->views[1].len != self->views[0].len || self->views[4].len != self->views[3].len) {
        PyErr_SetString(PyExc_ValueError, "mask and first arrays must have the same length");
        return -1;
    }
    if (check_arrays(self->dm, self->df, self->dn, self->dt, self->views[2].len / 4, "DAWG") < 0 ||
        check_arrays(self->gm, self->gf, self->gn, self->gt, self->views[5].len / 4, "GADDAG") < 0)
        return -1;
    return 0;
}

static PyTypeObject LexType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine._native.Lexicon",
    .tp_basicsize = sizeof(LexObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The DAWG and GADDAG arrays of an engine.lexicon.Lexicon, for the native search.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Lex_init,
    .tp_dealloc = (destructor)Lex_dealloc,
};

static inline uint32_t child_of(const uint32_t *mask, const uint32_t *first,
                                const uint32_t *target, uint32_t node, uint32_t m, int sym) {
    (void)mask;
    return target[first[node] + POPCOUNT(m & ((1u << sym) - 1))];
}

/* ------------------------------------------------------------------------------------------ */
/* The collector: every move, or (keep > 0) those at or above the running keep-th best score. */

typedef struct {
    uint32_t order; /* score (high first), direction, row, column: the order's first keys */
    int16_t score;
    uint8_t dir, row, col, len, ntiles;
    char word[MAX_WORD + 1];
} Found;

typedef struct {
    Found *items;
    Py_ssize_t n, cap;
    Py_ssize_t keep; /* 0: every move */
    int *heap;       /* min-heap of the keep best scores (grown as needed: keep may be huge) */
    Py_ssize_t heap_n, heap_cap;
    int threshold;
    int failed; /* out of memory */
} Collector;

static void heap_push(Collector *c, int score) {
    Py_ssize_t i = c->heap_n++;
    c->heap[i] = score;
    while (i > 0) {
        Py_ssize_t p = (i - 1) / 2;
        if (c->heap[p] <= c->heap[i]) break;
        int t = c->heap[p];
        c->heap[p] = c->heap[i];
        c->heap[i] = t;
        i = p;
    }
}

static void heap_replace_min(Collector *c, int score) {
    Py_ssize_t i = 0, n = c->heap_n;
    c->heap[0] = score;
    for (;;) {
        Py_ssize_t l = 2 * i + 1, r = l + 1, s = i;
        if (l < n && c->heap[l] < c->heap[s]) s = l;
        if (r < n && c->heap[r] < c->heap[s]) s = r;
        if (s == i) break;
        int t = c->heap[s];
        c->heap[s] = c->heap[i];
        c->heap[i] = t;
        i = s;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* One line of the board read in one direction, with its cross-sets. */

typedef struct {
    int code[SIZE];   /* letter 0-25 on the square, -1 if empty */
    int val[SIZE];    /* face value of that tile (0 for a blank) */
    char chars[SIZE]; /* the tile as written (lower case for a blank) */
    int lm[SIZE], wm[SIZE];
    uint32_t xm[SIZE]; /* letters allowed by the perpendicular word */
    int xs[SIZE];      /* face value of the perpendicular word's tiles, NO_CROSS without one */
    char anchor[SIZE];
    int any_anchor;
} Line;

typedef struct {
    const uint32_t *mask, *first, *target; /* the GADDAG */
    int values[26];
    int counts[27];
    const Line *line;
    int dir, li;
    char left[SIZE + 1];
    int nleft;
    char right[SIZE + 1];
    int nright;
    int a;
    int right_free;
    int bonus[MAX_BONUS_TILES]; /* the formula's bonus per tiles placed */
    int max_played;             /* the most tiles a move places */
    Collector *out;
} Search;

static void record(Search *s, int score, int start, int ntiles) {
    Collector *out = s->out;
    const Line *ln = s->line;
    score += s->bonus[ntiles];
    if (score < out->threshold) return;
    int len = s->nleft + s->nright;
    if (s->dir == 1 && ntiles == 1) {
        /* A lone tile that also forms a word across was already made across. */
        for (int p = start; p < start + len; p++)
            if (ln->code[p] < 0 && ln->xs[p] != NO_CROSS) return;
    }
    if (out->keep) {
        if (out->heap_n < out->keep) {
            if (out->heap_n == out->heap_cap) {
                Py_ssize_t cap = out->heap_cap ? out->heap_cap * 2 : 64;
                int *heap = realloc(out->heap, (size_t)cap * sizeof(int));
                if (heap == NULL) {
                    out->failed = 1;
                    out->threshold = 1 << 30;
                    return;
                }
                out->heap = heap;
                out->heap_cap = cap;
            }
            heap_push(out, score);
            if (out->heap_n == out->keep) out->threshold = out->heap[0];
        } else if (score > out->threshold) {
            heap_replace_min(out, score);
            out->threshold = out->heap[0];
        }
    }
    if (out->n == out->cap) {
        Py_ssize_t cap = out->cap ? out->cap * 2 : 256;
        Found *items = realloc(out->items, (size_t)cap * sizeof(Found));
        if (items == NULL) {
            out->failed = 1;
            out->threshold = 1 << 30; /* stop keeping anything */
            return;
        }
        out->items = items;
        out->cap = cap;
    }
    Found *f = &out->items[out->n++];
    f->score = (int16_t)score;
    f->dir = (uint8_t)s->dir;
    f->ntiles = (uint8_t)ntiles;
    f->len = (uint8_t)len;
    if (s->dir == 0) {
        f->row = (uint8_t)s->li;
        f->col = (uint8_t)start;
    } else {
        f->row = (uint8_t)start;
        f->col = (uint8_t)s->li;
    }
    for (int i = 0; i < s->nleft; i++) f->word[i] = s->left[s->nleft - 1 - i];
    memcpy(f->word + s->nleft, s->right, (size_t)s->nright);
    f->word[len] = 0;
    f->order = ((uint32_t)(32767 - score) << 9) | ((uint32_t)f->dir << 8) |
               ((uint32_t)f->row << 4) | f->col;
}

static void go_right(Search *s, int pos, uint32_t node, int msum, int wmul, int xsum, int ntiles,
                     uint32_t rmask) {
    const uint32_t *mask = s->mask, *first = s->first, *target = s->target;
    const Line *ln = s->line;
    int depth = s->nright;
    while (pos < SIZE && ln->code[pos] >= 0) { /* follow tiles already on the board */
        int c = ln->code[pos];
        uint32_t m = mask[node];
        if (!((m >> c) & 1)) {
            s->nright = depth;
            return;
        }
        node = child_of(mask, first, target, node, m, c);
        msum += ln->val[pos];
        s->right[s->nright++] = ln->chars[pos];
        pos++;
    }
    uint32_t m = mask[node];
    if (m & TERMINAL) record(s, msum * wmul + xsum, s->a - s->nleft + 1, ntiles);
    if (pos < SIZE && ntiles < s->max_played) {
        uint32_t allowed = m & ln->xm[pos];
        if (allowed) {
            int lmp = ln->lm[pos], wmp = ln->wm[pos], xsp = ln->xs[pos];
            uint32_t base = first[node];
            uint32_t cand = allowed & rmask;
            while (cand) {
                int letter = __builtin_ctz(cand);
                uint32_t low = 1u << letter;
                cand ^= low;
                int v = s->values[letter];
                s->counts[letter]--;
                s->right[s->nright++] = (char)('A' + letter);
                go_right(s, pos + 1, target[base + POPCOUNT(m & (low - 1))],
                         msum + v * lmp, wmul * wmp,
                         xsp < 0 ? xsum : xsum + (xsp + v * lmp) * wmp, ntiles + 1,
                         s->counts[letter] ? rmask : rmask ^ low);
                s->nright--;
                s->counts[letter]++;
            }
            if (s->counts[BLANK]) {
                s->counts[BLANK]--;
                cand = allowed;
                while (cand) {
                    int letter = __builtin_ctz(cand);
                    uint32_t low = 1u << letter;
                    cand ^= low;
                    s->right[s->nright++] = (char)('a' + letter);
                    go_right(s, pos + 1,
                             target[base + POPCOUNT(m & (low - 1))], msum,
                             wmul * wmp, xsp < 0 ? xsum : xsum + xsp * wmp, ntiles + 1, rmask);
                    s->nright--;
                }
                s->counts[BLANK]++;
            }
        }
    }
    s->nright = depth;
}

static void place_left(Search *s, int pos, uint32_t node, int msum, int wmul, int xsum, int ntiles,
                       uint32_t rmask);

/* ``pos`` is now the leftmost square covered: end the word here, or cross the separator and go
 * right, or go on leftwards. */
static void covered(Search *s, int pos, uint32_t node, int msum, int wmul, int xsum, int ntiles,
                    uint32_t rmask) {
    const uint32_t *mask = s->mask, *first = s->first, *target = s->target;
    const Line *ln = s->line;
    if (pos > 0 && ln->code[pos - 1] >= 0) { /* a tile on the left must be part of the word */
        int c = ln->code[pos - 1];
        uint32_t m = mask[node];
        if ((m >> c) & 1) {
            s->left[s->nleft++] = ln->chars[pos - 1];
            covered(s, pos - 1, child_of(mask, first, target, node, m, c),
                    msum + ln->val[pos - 1], wmul, xsum, ntiles, rmask);
            s->nleft--;
        }
        return;
    }
    uint32_t m = mask[node];
    if ((m & TERMINAL) && s->right_free && s->nleft >= 2)
        record(s, msum * wmul + xsum, pos, ntiles);
    if ((m & SEP_BIT) && s->a < SIZE - 1)
        go_right(s, s->a + 1, child_of(mask, first, target, node, m, SEP), msum, wmul, xsum,
                 ntiles, rmask);
    if (pos > 0 && (rmask || s->counts[BLANK]) && !ln->anchor[pos - 1] &&
        ntiles < s->max_played)
        place_left(s, pos - 1, node, msum, wmul, xsum, ntiles, rmask);
}

/* Put a rack tile on the empty square ``pos``, going left. */
static void place_left(Search *s, int pos, uint32_t node, int msum, int wmul, int xsum, int ntiles,
                       uint32_t rmask) {
    const uint32_t *mask = s->mask, *first = s->first, *target = s->target;
    const Line *ln = s->line;
    uint32_t m = mask[node];
    uint32_t allowed = m & ln->xm[pos];
    if (!allowed) return;
    int lmp = ln->lm[pos], wmp = ln->wm[pos], xsp = ln->xs[pos];
    uint32_t base = first[node];
    uint32_t cand = allowed & rmask;
    while (cand) {
        int letter = __builtin_ctz(cand);
        uint32_t low = 1u << letter;
        cand ^= low;
        int v = s->values[letter];
        s->counts[letter]--;
        s->left[s->nleft++] = (char)('A' + letter);
        covered(s, pos, target[base + POPCOUNT(m & (low - 1))],
                msum + v * lmp, wmul * wmp, xsp < 0 ? xsum : xsum + (xsp + v * lmp) * wmp,
                ntiles + 1, s->counts[letter] ? rmask : rmask ^ low);
        s->nleft--;
        s->counts[letter]++;
    }
    if (s->counts[BLANK]) {
        s->counts[BLANK]--;
        cand = allowed;
        while (cand) {
            int letter = __builtin_ctz(cand);
            uint32_t low = 1u << letter;
            cand ^= low;
            s->left[s->nleft++] = (char)('a' + letter);
            covered(s, pos, target[base + POPCOUNT(m & (low - 1))], msum,
                    wmul * wmp, xsp < 0 ? xsum : xsum + xsp * wmp, ntiles + 1, rmask);
            s->nleft--;
        }
        s->counts[BLANK]++;
    }
}

static void search_anchor(Search *s, uint32_t rmask0) {
    const Line *ln = s->line;
    int a = s->a;
    s->right_free = a == SIZE - 1 || ln->code[a + 1] < 0;
    s->nleft = s->nright = 0;
    place_left(s, a, 0, 0, 1, 0, 0, rmask0);
}

/* ------------------------------------------------------------------------------------------ */
/* The board, read in both directions, with cross-sets and anchors (engine/crosses.py). */

typedef struct {
    int code[SIZE][SIZE];
    int val[SIZE][SIZE];
    char chars[SIZE][SIZE];
} Grid;

static void build_lines(const LexObject *lex, const Grid *g, const uint8_t *lmul,
                        const uint8_t *wmul, int dir, Line lines[SIZE]) {
    const uint32_t *mask = lex->dm, *first = lex->df, *target = lex->dt;
    for (int i = 0; i < SIZE; i++) {
        Line *ln = &lines[i];
        ln->any_anchor = 0;
        for (int j = 0; j < SIZE; j++) {
            int sq = dir == 0 ? i * SIZE + j : j * SIZE + i;
            ln->code[j] = g->code[i][j];
            ln->val[j] = g->val[i][j];
            ln->chars[j] = g->chars[i][j];
            ln->lm[j] = lmul[sq];
            ln->wm[j] = wmul[sq];
            ln->xm[j] = LETTERS;
            ln->xs[j] = NO_CROSS;
            ln->anchor[j] = 0;
        }
    }
    for (int i = 0; i < SIZE; i++) {
        for (int j = 0; j < SIZE; j++) {
            Line *ln = &lines[i];
            if (g->code[i][j] >= 0) {
                ln->xm[j] = 0;
                continue;
            }
            int above = i > 0 && g->code[i - 1][j] >= 0;
            int below = i < SIZE - 1 && g->code[i + 1][j] >= 0;
            int side = (j > 0 && g->code[i][j - 1] >= 0) || (j < SIZE - 1 && g->code[i][j + 1] >= 0);
            if (above || below || side) {
                ln->anchor[j] = 1;
                ln->any_anchor = 1;
            }
            if (!(above || below)) continue;
            int top = i, bottom = i;
            while (top > 0 && g->code[top - 1][j] >= 0) top--;
            while (bottom < SIZE - 1 && g->code[bottom + 1][j] >= 0) bottom++;
            int total = 0;
            int64_t node = 0;
            for (int k = top; k < i; k++) {
                total += g->val[k][j];
                if (node < 0) continue;
                int c = g->code[k][j];
                uint32_t m = mask[node];
                if (!((m >> c) & 1))
                    node = -1;
                else
                    node = child_of(mask, first, target, (uint32_t)node, m, c);
            }
            for (int k = i + 1; k <= bottom; k++) total += g->val[k][j];
            ln->xs[j] = total;
            uint32_t allowed = 0;
            if (node >= 0) {
                uint32_t m = mask[node] & LETTERS, rest = m;
                while (rest) {
                    int letter = __builtin_ctz(rest);
                    uint32_t low = 1u << letter;
                    rest ^= low;
                    int64_t n = target[first[node] + POPCOUNT(m & (low - 1))];
                    for (int k = i + 1; k <= bottom; k++) {
                        int c = g->code[k][j];
                        uint32_t mm = mask[n];
                        if (!((mm >> c) & 1)) {
                            n = -1;
                            break;
                        }
                        n = child_of(mask, first, target, (uint32_t)n, mm, c);
                    }
                    if (n >= 0 && (mask[n] & TERMINAL)) allowed |= low;
                }
            }
            ln->xm[j] = allowed;
        }
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The shadow: an upper bound on the score of every move made from one anchor. A move from
 * anchor ``a`` covers a span [s, e] holding ``a``; its empty squares get rack tiles. For each
 * possible span, ignoring the lexicon: the word multiplier W of the new squares, the board's
 * tiles (times W), each cross word's board tiles, and the rack's tile values put on the new
 * squares, the highest value on the square that counts most (rearrangement), capped by the
 * best value each square's cross-set lets in. */

typedef struct {
    int sorted_values[SIZE + 1]; /* the rack's tile values, highest first (0 for a blank) */
    int tiles;                   /* tiles a move may place: the rack's, at most max_played */
    uint32_t letters;            /* letters on the rack */
    int blank;
} RackInfo;

static int square_best(const Search *s, const RackInfo *r, const Line *ln, int pos) {
    /* the best face value a rack tile can have on ``pos``, -1 if no tile can go there */
    uint32_t ok = ln->xm[pos] & r->letters;
    int best = -1;
    if (r->blank && ln->xm[pos]) best = 0;
    while (ok) {
        int letter = __builtin_ctz(ok);
        ok &= ok - 1;
        if (s->values[letter] > best) best = s->values[letter];
    }
    return best;
}

static int span_bound(const Search *s, const Line *ln, const RackInfo *r, const int *sq, int k,
                      int tsum, const int *best) {
    int W = 1, cross = 0;
    for (int i = 0; i < k; i++) W *= ln->wm[sq[i]];
    int coef[SIZE];
    int capped = 0;
    for (int i = 0; i < k; i++) {
        int p = sq[i];
        int c = ln->lm[p] * W;
        if (ln->xs[p] != NO_CROSS) {
            cross += ln->xs[p] * ln->wm[p];
            c += ln->lm[p] * ln->wm[p];
        }
        coef[i] = c;
        capped += c * best[p];
    }
    /* insertion sort, highest first */
    for (int i = 1; i < k; i++) {
        int c = coef[i], j = i - 1;
        while (j >= 0 && coef[j] < c) {
            coef[j + 1] = coef[j];
            j--;
        }
        coef[j + 1] = c;
    }
    int paired = 0;
    for (int i = 0; i < k; i++) paired += coef[i] * r->sorted_values[i];
    int bound = W * tsum + cross + (paired < capped ? paired : capped);
    return bound + s->bonus[k];
}

static int anchor_bound(const Search *s, const RackInfo *r, const Line *ln, int a) {
    int best[SIZE];
    for (int p = 0; p < SIZE; p++) best[p] = ln->code[p] < 0 ? square_best(s, r, ln, p) : 0;
    if (best[a] < 0) return -1;
    /* left extents: new squares left of a (excluding a), and the board tiles' sum */
    int lsq[SIZE], lsum[SIZE + 1], lk[SIZE + 1], lstart[SIZE + 1], nleft = 0;
    {
        int pos = a, k = 0, sum = 0;
        if (pos > 0 && ln->code[pos - 1] >= 0) {
            while (pos > 0 && ln->code[pos - 1] >= 0) sum += ln->val[--pos];
            lstart[0] = pos;
            lsum[0] = sum;
            lk[0] = 0;
            nleft = 1;
        } else {
            lstart[0] = a;
            lsum[0] = 0;
            lk[0] = 0;
            nleft = 1;
            while (pos > 0 && ln->code[pos - 1] < 0 && !ln->anchor[pos - 1] &&
                   best[pos - 1] >= 0 && k + 1 < r->tiles) {
                pos--;
                lsq[k++] = pos;
                lstart[nleft] = pos;
                lsum[nleft] = 0;
                lk[nleft] = k;
                nleft++;
            }
        }
    }
    int bound = -1;
    int sq[SIZE * 2];
    for (int li = 0; li < nleft; li++) {
        int k = 0;
        for (int i = 0; i < lk[li]; i++) sq[k++] = lsq[i];
        sq[k++] = a;
        int tsum = lsum[li];
        int pos = a + 1;
        for (;;) {
            /* tiles right of the new square must be part of the word */
            while (pos < SIZE && ln->code[pos] >= 0) tsum += ln->val[pos++];
            int e = pos - 1;
            if (e - lstart[li] + 1 >= 2) {
                int b = span_bound(s, ln, r, sq, k, tsum, best);
                if (b > bound) bound = b;
            }
            if (pos >= SIZE || k >= r->tiles || best[pos] < 0) break;
            sq[k++] = pos;
            pos++;
        }
    }
    return bound;
}

/* ------------------------------------------------------------------------------------------ */
/* Sorting, and the engine's objects. */

static int found_cmp(const void *pa, const void *pb) {
    const Found *x = pa, *y = pb;
    if (x->order != y->order) return x->order < y->order ? -1 : 1;
    for (int i = 0;; i++) { /* the word by its letters, upper case */
        int a = (unsigned char)x->word[i], b = (unsigned char)y->word[i];
        if (a >= 'a') a -= 32;
        if (b >= 'a') b -= 32;
        if (a != b) return a < b ? -1 : 1;
        if (a == 0) break;
    }
    return strcmp(x->word, y->word); /* real tiles before blanks */
}

static PyObject *MoveType, *ScoredType, *Across, *Down;
static PyObject *s_row, *s_col, *s_direction, *s_word, *s_move, *s_score, *s_used, *empty_tuple;

static PyObject *new_instance(PyObject *cls) {
    /* object.__new__(cls): the objects are frozen dataclasses, filled in as object.__setattr__
     * (which their own __init__ uses) does. */
    return PyBaseObject_Type.tp_new((PyTypeObject *)cls, empty_tuple, NULL);
}

static int set_attr(PyObject *obj, PyObject *name, PyObject *value) {
    if (value == NULL) return -1;
    int rc = PyObject_GenericSetAttr(obj, name, value);
    Py_DECREF(value);
    return rc;
}

static PyObject *scored_move(const Found *f, const char *cells) {
    char used[SIZE + 1];
    int counts[27] = {0};
    int n = 0;
    for (int i = 0; i < f->len; i++) {
        int r = f->dir == 0 ? f->row : f->row + i;
        int c = f->dir == 0 ? f->col + i : f->col;
        if (cells[r * SIZE + c] == '.') {
            char ch = f->word[i];
            counts[ch >= 'a' ? BLANK : ch - 'A']++;
        }
    }
    for (int l = 0; l < 27; l++)
        for (int k = 0; k < counts[l]; k++) used[n++] = l == BLANK ? '?' : (char)('A' + l);
    PyObject *move = new_instance(MoveType);
    if (move == NULL) return NULL;
    PyObject *dir = f->dir == 0 ? Across : Down;
    Py_INCREF(dir);
    if (set_attr(move, s_row, PyLong_FromLong(f->row)) < 0 ||
        set_attr(move, s_col, PyLong_FromLong(f->col)) < 0 ||
        set_attr(move, s_direction, dir) < 0 ||
        set_attr(move, s_word, PyUnicode_FromStringAndSize(f->word, f->len)) < 0) {
        Py_DECREF(move);
        return NULL;
    }
    PyObject *sm = new_instance(ScoredType);
    if (sm == NULL) {
        Py_DECREF(move);
        return NULL;
    }
    if (set_attr(sm, s_move, move) < 0 || set_attr(sm, s_score, PyLong_FromLong(f->score)) < 0 ||
        set_attr(sm, s_used, PyUnicode_FromStringAndSize(used, n)) < 0) {
        Py_DECREF(sm);
        return NULL;
    }
    return sm;
}

/* ------------------------------------------------------------------------------------------ */

typedef struct {
    int bound;
    uint8_t dir, line, anchor;
} Anchor;

static int anchor_cmp(const void *pa, const void *pb) {
    const Anchor *x = pa, *y = pb;
    if (x->bound != y->bound) return x->bound > y->bound ? -1 : 1;
    if (x->dir != y->dir) return x->dir - y->dir;
    if (x->line != y->line) return x->line - y->line;
    return x->anchor - y->anchor;
}

static const char search_doc[] =
    "search(lexicon, cells, letter_mult, word_mult, start, values, rack, keep, bonus, "
    "max_played)\n\n"
    "The moves for the rack on the board, in the total order of engine.movegen: every move\n"
    "when keep is 0, else the keep best (generate()[:keep]).\n"
    "cells: 225 bytes, row by row, '.' or a tile (lower case: a blank); letter_mult and\n"
    "word_mult: 225 bytes; start: the start square (row * 15 + col); values: 26 bytes, the\n"
    "face value of A-Z; rack: 27 bytes, how many of A-Z and blanks; bonus: 16 bytes, the bonus\n"
    "for 0 to 15 tiles placed; max_played: the most tiles a move places (1-15).";

static PyObject *native_search(PyObject *self, PyObject *args) {
    LexObject *lex;
    Py_buffer cells, lmul, wmul, values, rack, bonus;
    int start, max_played;
    Py_ssize_t keep;
    (void)self;
    if (MoveType == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "engine._native.bind() has not been called");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!y*y*y*iy*y*ny*i", &LexType, &lex, &cells, &lmul, &wmul,
                          &start, &values, &rack, &keep, &bonus, &max_played))
        return NULL;
    PyObject *result = NULL;
    Collector out = {0};
    Anchor *order = NULL;
    Line *lines = NULL;
    if (cells.len != SQUARES || lmul.len != SQUARES || wmul.len != SQUARES || values.len != 26 ||
        rack.len != 27 || bonus.len != MAX_BONUS_TILES) {
        PyErr_SetString(PyExc_ValueError, "cells, letter_mult and word_mult need 225 bytes, "
                                          "values 26, rack 27, bonus 16");
        goto done;
    }
    if (start < 0 || start >= SQUARES || keep < 0 || max_played < 1 || max_played > SIZE) {
        PyErr_SetString(PyExc_ValueError,
                        "start must be a square (0-224), keep >= 0 and max_played 1-15");
        goto done;
    }
    const char *cl = cells.buf;
    Grid grids[2];
    int empty = 1;
    for (int sq = 0; sq < SQUARES; sq++) {
        char ch = cl[sq];
        int r = sq / SIZE, c = sq % SIZE, code, val;
        if (ch == '.') {
            code = -1;
            val = 0;
        } else if (ch >= 'A' && ch <= 'Z') {
            code = ch - 'A';
            val = ((const uint8_t *)values.buf)[code];
            empty = 0;
        } else if (ch >= 'a' && ch <= 'z') {
            code = ch - 'a';
            val = 0;
            empty = 0;
        } else {
            PyErr_Format(PyExc_ValueError, "square %d holds byte %d: not '.', A-Z or a-z", sq,
                         (int)(unsigned char)ch);
            goto done;
        }
        grids[0].code[r][c] = grids[1].code[c][r] = code;
        grids[0].val[r][c] = grids[1].val[c][r] = val;
        grids[0].chars[r][c] = grids[1].chars[c][r] = ch;
    }
    lines = PyMem_Malloc(sizeof(Line) * 2 * SIZE);
    order = PyMem_Malloc(sizeof(Anchor) * 2 * SQUARES);
    if (lines == NULL || order == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int ndirs = empty ? 1 : 2;
    for (int d = 0; d < ndirs; d++)
        build_lines(lex, &grids[d], lmul.buf, wmul.buf, d, &lines[d * SIZE]);
    if (empty) {
        for (int i = 0; i < SIZE; i++) {
            memset(lines[i].anchor, 0, SIZE);
            lines[i].any_anchor = 0;
        }
        lines[start / SIZE].anchor[start % SIZE] = 1;
        lines[start / SIZE].any_anchor = 1;
    }

    Search s;
    memset(&s, 0, sizeof s);
    s.mask = lex->gm;
    s.first = lex->gf;
    s.target = lex->gt;
    RackInfo ri;
    memset(&ri, 0, sizeof ri);
    for (int i = 0; i < 26; i++) s.values[i] = ((const uint8_t *)values.buf)[i];
    for (int i = 0; i < MAX_BONUS_TILES; i++) s.bonus[i] = ((const uint8_t *)bonus.buf)[i];
    s.max_played = max_played;
    uint32_t rmask0 = 0;
    int nv = 0;
    for (int i = 0; i < 27; i++) {
        s.counts[i] = ((const uint8_t *)rack.buf)[i];
        if (i < 26 && s.counts[i]) rmask0 |= 1u << i;
        for (int k = 0; k < s.counts[i]; k++)
            if (nv < SIZE) ri.sorted_values[nv++] = i < 26 ? s.values[i] : 0;
        ri.tiles += s.counts[i];
    }
    for (int i = 1; i < nv; i++) { /* highest first */
        int v = ri.sorted_values[i], j = i - 1;
        while (j >= 0 && ri.sorted_values[j] < v) {
            ri.sorted_values[j + 1] = ri.sorted_values[j];
            j--;
        }
        ri.sorted_values[j + 1] = v;
    }
    if (ri.tiles > max_played) ri.tiles = max_played;
    ri.letters = rmask0;
    ri.blank = s.counts[BLANK] > 0;
    out.keep = keep;
    out.threshold = -1;
    s.out = &out;

    if (ri.tiles > 0) {
        Py_BEGIN_ALLOW_THREADS;
        if (keep == 0) {
            for (int d = 0; d < ndirs; d++)
                for (int i = 0; i < SIZE; i++) {
                    const Line *ln = &lines[d * SIZE + i];
                    if (!ln->any_anchor) continue;
                    s.line = ln;
                    s.dir = d;
                    s.li = i;
                    for (int a = 0; a < SIZE; a++)
                        if (ln->anchor[a]) {
                            s.a = a;
                            search_anchor(&s, rmask0);
                        }
                }
        } else {
            int n = 0;
            for (int d = 0; d < ndirs; d++)
                for (int i = 0; i < SIZE; i++) {
                    const Line *ln = &lines[d * SIZE + i];
                    if (!ln->any_anchor) continue;
                    for (int a = 0; a < SIZE; a++)
                        if (ln->anchor[a]) {
                            int b = anchor_bound(&s, &ri, ln, a);
                            if (b < 0) continue;
                            order[n].bound = b;
                            order[n].dir = (uint8_t)d;
                            order[n].line = (uint8_t)i;
                            order[n].anchor = (uint8_t)a;
                            n++;
                        }
                }
            qsort(order, (size_t)n, sizeof(Anchor), anchor_cmp);
            for (int k = 0; k < n; k++) {
                if (order[k].bound < out.threshold) break;
                s.dir = order[k].dir;
                s.li = order[k].line;
                s.line = &lines[s.dir * SIZE + s.li];
                s.a = order[k].anchor;
                search_anchor(&s, rmask0);
            }
        }
        if (!out.failed) qsort(out.items, (size_t)out.n, sizeof(Found), found_cmp);
        Py_END_ALLOW_THREADS;
    }
    if (out.failed) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t count = out.n;
    if (keep && count > keep) count = keep;
    result = PyList_New(count);
    if (result == NULL) goto done;
    /* Two objects a move, none of them in a cycle: the collector is paused while they are made
     * (it would otherwise run every 700 objects over the young ones) and runs after as usual. */
    int collecting = PyGC_Disable();
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *sm = scored_move(&out.items[i], cl);
        if (sm == NULL) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, i, sm);
    }
    if (collecting) PyGC_Enable();
done:
    free(out.items);
    free(out.heap);
    PyMem_Free(order);
    PyMem_Free(lines);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&lmul);
    PyBuffer_Release(&wmul);
    PyBuffer_Release(&values);
    PyBuffer_Release(&rack);
    PyBuffer_Release(&bonus);
    return result;
}

static PyObject *native_bind(PyObject *self, PyObject *args) {
    PyObject *move, *scored, *across, *down;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!OO", &PyType_Type, &move, &PyType_Type, &scored, &across,
                          &down))
        return NULL;
    Py_INCREF(move);
    Py_INCREF(scored);
    Py_INCREF(across);
    Py_INCREF(down);
    Py_XSETREF(MoveType, move);
    Py_XSETREF(ScoredType, scored);
    Py_XSETREF(Across, across);
    Py_XSETREF(Down, down);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"search", native_search, METH_VARARGS, search_doc},
    {"bind", native_bind, METH_VARARGS,
     "bind(Move, ScoredMove, Direction.ACROSS, Direction.DOWN): the classes results are made "
     "of."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine._native",
    "The native core of move generation (see engine/native.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    if (PyType_Ready(&LexType) < 0) return NULL;
#define INTERN(var, text)                                  \
    if ((var = PyUnicode_InternFromString(text)) == NULL) \
        return NULL;
    INTERN(s_row, "row");
    INTERN(s_col, "col");
    INTERN(s_direction, "direction");
    INTERN(s_word, "word");
    INTERN(s_move, "move");
    INTERN(s_score, "score");
    INTERN(s_used, "used");
#undef INTERN
    if ((empty_tuple = PyTuple_New(0)) == NULL) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&LexType);
    if (PyModule_AddObject(m, "Lexicon", (PyObject *)&LexType) < 0) {
        Py_DECREF(&LexType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
