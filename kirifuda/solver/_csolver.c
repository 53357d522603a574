/* The perfect-information trick-taking solver: exact alpha-beta with a transposition table,
 * move ordering, and equivalent cards merged.  Generic over a game's trick rules, given as
 * tables (kirifuda/solver/rules.py documents every field; kirifuda/solver/_pysolver.py is the
 * same algorithm in pure Python: the reference and the fallback).
 *
 * Value: the points the maximising side takes from the position on (a trick is worth
 * trick_base plus the points of its cards).
 *
 * Inside, cards are renumbered so that each effective suit is one contiguous run of bits with
 * its strongest card on the highest bit: "is any other hand stronger in this suit", runs of top
 * cards, equivalent cards and played cards squeezed out of the table key are then a few bit
 * operations.  The Python side speaks card ids (kirifuda.cards).  A solve runs without the GIL,
 * with a table of its own: threads solve at once.
 *
 * The search: null-window alpha-beta at the value's binary-search points (the table keeps
 * the bounds found), a table entry per trick start keyed by the hands with played cards
 * squeezed out (positions that differ only in which cards are gone are one) and matching every
 * position that agrees on the cards whose rank mattered (DDS's winning ranks: a cut keeps only
 * the cutting choice's cards, a merged run whose top card matters makes the run matter); once
 * a card below the lowest card that mattered in its suit has been searched, the others below
 * it are skipped (DDS's small cards); at a trick's last player the next trick starts of its
 * choices are looked up before the first is searched (an enhanced transposition cutoff), where
 * the node is expected to cut (node types: each probe expects a result, S.expect, kept as the
 * search goes; the leader's quick tricks too are counted only where they are expected to cut);
 * bounds from sure tricks in the strongest suit, from the leader's quick tricks (in no-trump
 * also a partner's, reached through an entry), inside a trick from a trick one side surely
 * takes, and for a free card's choice that takes the trick from the other side's sure tricks
 * after it, each keeping as relevant only the cards the bound needs; leads ordered much
 * as DDS weighs them, a killer first (the last lead that cut after the first choice tried had
 * failed; the same for the third hand high in the tree), followers taking a trick with the
 * cheapest card that holds it
 * (where cards carry points: points onto a trick the side holds, none onto one it loses); the
 * last two tricks, where the table has no entry, searched by a small search of their own
 * (end2: without bounds or table, of the choices that cut the one resting on the fewest cards).
 *
 * The sources: _csolver.h (the rules, table and search state), _csolver_search.h (the search,
 * built twice: here, portable, and in _csolver_bmi2.c for CPUs with BMI1, BMI2 and LZCNT under
 * GCC) and this file (the portable build and the Python glue).
 */
#include "_csolver_search.h"

#ifdef HAVE_BMI2_PATH
int kf_use_bmi2 = 0;
#endif
#ifdef FAST_CORE
/* a solve runs the one build of the search or the other whole */
#define CORE(f) (kf_use_bmi2 ? f##_bmi2 : f)
#else
#define CORE(f) f
#endif

static Table *free_tables = NULL;
static void new_generation(Table *t);

static int upper_bound(const S *s) {
    const Rules *r = s->r;
    int left = 0;
    for (int p = 0; p < r->np; p++) { int c = popc(s->hands[p]); if (c > left) left = c; }
    int v = left * r->trick_base;
    if (r->has_points) {
        for (int p = 0; p < r->np; p++) { u64 h = s->hands[p]; while (h) { int c = lowbit(h); h &= h - 1; v += r->points[c]; } }
        for (int i = 0; i < s->tn; i++) v += r->points[s->tcard[i]];
    }
    return v;
}

/* -- Python glue ------------------------------------------------------------------------------ */

static void rules_free(PyObject *cap) { free(PyCapsule_GetPointer(cap, "kirifuda.solver.rules")); }

static int read_int_seq(PyObject *seq, int *out, int n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, n);
        Py_DECREF(fast); return -1;
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

static u64 to_internal(const Rules *r, u64 m) {
    u64 out = 0;
    while (m) { int c = lowbit(m); m &= m - 1; if (r->int_of[c] >= 0) out |= 1ULL << r->int_of[c]; }
    return out;
}

/* make_rules(np, eff[64], strength[5][64], free, multi_lead, lead_choices, last_forced,
 *            trick_base, points[64], nomerge, order[5] (card ids strongest first)
 *            [, first_strength[5][64] or None, restricted, almighty, yoromeki, same2,
 *             same2_max, first_same2_max, first, horizon, hpower[64], call_card]): the bracketed
 *            part, special tricks, only where the rules have them (first_strength given turns
 *            them on). */
static PyObject *py_make_rules(PyObject *self, PyObject *args) {
    int np, trick_base;
    PyObject *eff, *strength, *lead_choices, *points, *order;
    unsigned long long free_mask, multi, last_forced, nomerge;
    PyObject *first_strength = Py_None;
    unsigned long long restricted = 0, same2 = 0;
    int almighty = -1, yoromeki = -1, same2_max = 0, first_same2_max = 0, first = 0, horizon = 0;
    PyObject *hpower = Py_None;
    int call_card = -1;
    if (!PyArg_ParseTuple(args, "iOOKKOKiOKO|OKiiKiiiiOi", &np, &eff, &strength, &free_mask, &multi, &lead_choices,
                          &last_forced, &trick_base, &points, &nomerge, &order, &first_strength,
                          &restricted, &almighty, &yoromeki, &same2, &same2_max, &first_same2_max,
                          &first, &horizon, &hpower, &call_card)) return NULL;
    if (np < 2 || np > MAXP) { PyErr_SetString(PyExc_ValueError, "2 to 6 players"); return NULL; }
    Rules *r = calloc(1, sizeof(Rules));
    if (!r) return PyErr_NoMemory();
    int tmp[NCARD], effv[NCARD], pts[NCARD], hpw[NCARD];
    memset(hpw, 0, sizeof(hpw));
    int str[NSUIT][NCARD];
    r->np = np;
    for (int i = 0; i < 2 * MAXP; i++) r->mod_np[i] = (unsigned char)(i % np);
    for (int i = 0; i < NCARD; i++) r->int_of[i] = -1;
    if (read_int_seq(eff, effv, NCARD, "eff") < 0) goto fail;
    if (read_int_seq(points, pts, NCARD, "points") < 0) goto fail;
    if (hpower != Py_None && read_int_seq(hpower, hpw, NCARD, "hpower") < 0) goto fail;
    PyObject *fast = PySequence_Fast(strength, "strength");
    if (!fast) goto fail;
    if (PySequence_Fast_GET_SIZE(fast) != NSUIT) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "strength: 5 rows"); goto fail; }
    for (int su = 0; su < NSUIT; su++)
        if (read_int_seq(PySequence_Fast_GET_ITEM(fast, su), str[su], NCARD, "strength row") < 0) { Py_DECREF(fast); goto fail; }
    Py_DECREF(fast);
    int fstr[NSUIT][NCARD];
    if (first_strength != Py_None) {
        fast = PySequence_Fast(first_strength, "first_strength");
        if (!fast) goto fail;
        if (PySequence_Fast_GET_SIZE(fast) != NSUIT) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "first_strength: 5 rows"); goto fail; }
        for (int su = 0; su < NSUIT; su++)
            if (read_int_seq(PySequence_Fast_GET_ITEM(fast, su), fstr[su], NCARD, "first_strength row") < 0) { Py_DECREF(fast); goto fail; }
        Py_DECREF(fast);
        r->special = 1;
    }
    fast = PySequence_Fast(order, "order");
    if (!fast) goto fail;
    if (PySequence_Fast_GET_SIZE(fast) != NSUIT) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "order: 5 lists"); goto fail; }
    int next = 0;
    for (int su = 0; su < NSUIT; su++) {
        PyObject *row = PySequence_Fast_GET_ITEM(fast, su);
        Py_ssize_t len = PySequence_Size(row);
        if (len < 0 || next + len > NCARD) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "order: at most 64 cards"); goto fail; }
        if (read_int_seq(row, tmp, (int)len, "order row") < 0) { Py_DECREF(fast); goto fail; }
        r->off[su] = next; r->len[su] = (int)len;
        for (int k = 0; k < len; k++) {           /* strongest first -> highest bit */
            int bit = next + (int)len - 1 - k;
            int c = tmp[k];
            if (c < 0 || c >= NCARD || effv[c] != su) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "order: a card out of its suit"); goto fail; }
            r->card_of[bit] = c; r->int_of[c] = bit; r->isuit[bit] = (unsigned char)su;
            r->suit_mask[su] |= 1ULL << bit;
        }
        next += (int)len;
    }
    Py_DECREF(fast);
    for (int b = 0; b < next; b++) {
        int c = r->card_of[b];
        for (int su = 0; su < NSUIT; su++) r->strength[su][b] = (short)str[su][c];
        for (int su = 0; su < NSUIT; su++) r->first_strength[su][b] = (short)(r->special ? fstr[su][c] : str[su][c]);
        r->psuit[b] = (unsigned char)(c < 52 ? c / 13 : 4);
        r->hpower[b] = (short)hpw[c];
        r->points[b] = (short)pts[c];
        if (pts[c]) r->has_points = 1;
    }
    r->all_mask = next >= 64 ? ~0ULL : ((1ULL << next) - 1);
    if (r->has_points) {
        /* tuned on 100 Kakeya positions with 8 tricks left and 60 Napoleon ones with 6, checked
         * on Kakeya's with 6, 9 and 10 left: 24-59% fewer nodes than the trick games' weights */
        r->lw.opplen = 256; r->lw.rho_top = 0; r->lw.lho_part = 0; r->lw.master = 1500;
        r->lw.other = 1500; r->lw.pmaster = 0; r->lw.master_points = 50; r->lw.multi = 300;
        /* a point onto the side's trick outweighs which card it is (a defender's partner too
         * puts its points onto its side's trick); tuned on the same positions, checked on
         * Kakeya's with 6 and 13 left and Napoleon's with 8 */
        r->fw.schmear = 50; r->fw.capture = 10; r->fw.shed = 10;
    } else {
        /* master and multi (a joker lead) tuned on the geometric mean of the nodes of 400
         * Meitora deals */
        r->lw.opplen = 64; r->lw.rho_top = 60; r->lw.lho_part = 270; r->lw.master = 1400;
        r->lw.other = 1000; r->lw.pmaster = 400; r->lw.master_points = 0; r->lw.multi = 1000;
        r->fw.schmear = r->fw.capture = r->fw.shed = 0;     /* no card carries points */
    }
    r->free_mask = to_internal(r, free_mask); r->multi_lead_mask = to_internal(r, multi);
    r->last_forced_mask = to_internal(r, last_forced); r->nomerge_mask = to_internal(r, nomerge);
    r->trick_base = trick_base;
    r->restricted_mask = to_internal(r, restricted);
    r->same2_mask = to_internal(r, same2);
    r->almighty = (almighty >= 0 && almighty < NCARD) ? r->int_of[almighty] : -1;
    /* the call card: its lead may call the restricted cards (led CALLED: its suit's table) */
    r->call_card = (call_card >= 0 && call_card < NCARD && r->restricted_mask) ? r->int_of[call_card] : -1;
    if (r->call_card >= 0)
        for (int b = 0; b < next; b++) {
            r->strength[CALLED][b] = r->strength[r->isuit[r->call_card]][b];
            r->first_strength[CALLED][b] = r->first_strength[r->isuit[r->call_card]][b];
        }
    r->yoromeki = (yoromeki >= 0 && yoromeki < NCARD && r->almighty >= 0) ? r->int_of[yoromeki] : -1;
    r->same2_max = same2_max; r->first_same2_max = first_same2_max;
    r->first_rules = r->special && first;
    r->horizon = r->special && horizon > 1 ? horizon : 0;
    Py_ssize_t nl = PySequence_Size(lead_choices);
    if (nl < 0 || nl > NSUIT) { PyErr_SetString(PyExc_ValueError, "lead_choices: 0 to 5"); goto fail; }
    r->n_lead_choices = (int)nl;
    if (read_int_seq(lead_choices, r->lead_choices, (int)nl, "lead_choices") < 0) goto fail;
    for (int j = 0; j < r->n_lead_choices; j++) {
        if (r->lead_choices[j] < 0 || r->lead_choices[j] > NOSUIT) { PyErr_SetString(PyExc_ValueError, "lead_choices: 0 to 4"); goto fail; }
        if (r->lead_choices[j] == NOSUIT) r->any_choice = 1;
    }
    for (int led = 0; led < NSUIT; led++)
        for (int b = 0; b < next; b++)
            if (r->strength[led][b] == r->strength[NOSUIT][b] && r->first_strength[led][b] == r->first_strength[NOSUIT][b])
                r->as_any[led] |= 1ULL << b;
    for (int b = 0; b < next && !r->special; b++) {
        if (!((r->multi_lead_mask >> b) & 1)) continue;
        int wins = 1;
        for (int j = 0; j < r->n_lead_choices && wins; j++) {
            int led = r->lead_choices[j];
            for (int o = 0; o < next && wins; o++)
                if (o != b && (r->strength[led][o] >= r->strength[led][b] || r->first_strength[led][o] >= r->first_strength[led][b])) wins = 0;
        }
        if (wins) r->lead_wins_mask |= 1ULL << b;
    }
    r->nclass = 0;
    r->canon_ok = 1;
    r->classes_ok = 1;
    for (int b = 0; b < next; b++) {
        int k;
        for (k = 0; k < r->nclass; k++) if (r->points[lowbit(r->class_mask[k])] == r->points[b]) break;
        if (k == r->nclass) {
            if (r->nclass == 8) { r->canon_ok = 0; r->classes_ok = 0; break; }
            r->class_mask[r->nclass++] = 0;
        }
        r->class_mask[k] |= 1ULL << b;
    }
    for (int su = 0; su < NSUIT && r->canon_ok; su++)
        for (int k = 0; k < r->nclass; k++) {
            u64 m = r->suit_mask[su] & r->class_mask[k] & ~r->nomerge_mask;
            if (m && ((m >> lowbit(m)) & ((m >> lowbit(m)) + 1))) r->canon_ok = 0;
        }
    if (r->special) r->canon_ok = 0;
    {
        /* the signature's words: splitmix64 from a fixed seed (the same in every run) */
        u64 z = 0x6b697269667564ULL;
        for (int p = 0; p < MAXP; p++) {
            z += 0x9E3779B97F4A7C15ULL; r->zlead[p] = mix(z);
            for (int su = 0; su < NSUIT; su++)
                for (int k = 0; k < r->nclass; k++) {
                    z += 0x9E3779B97F4A7C15ULL;
                    u64 w = mix(z);
                    for (u64 m = r->suit_mask[su] & r->class_mask[k]; m; m &= m - 1) r->zcard[p][lowbit(m)] = w;
                }
            for (u64 m = r->nomerge_mask; m; m &= m - 1) {
                z += 0x9E3779B97F4A7C15ULL;
                r->zcard[p][lowbit(m)] += mix(z);
            }
        }
    }
    r->nrun = 0; r->run_slots = 0;
    for (int su = 0; su < NSUIT && r->canon_ok; su++)
        for (int k = 0; k < r->nclass; k++) {
            u64 m = r->suit_mask[su] & r->class_mask[k] & ~r->nomerge_mask;
            if (m) { r->run[r->nrun++] = m; r->run_slots |= m; }
        }
    r->suit_tops = 0;
    for (int su = 0; su < NSUIT; su++) if (r->len[su]) r->suit_tops |= 1ULL << (r->off[su] + r->len[su] - 1);
    r->lead_own_mask = r->multi_lead_mask | (r->call_card >= 0 ? 1ULL << r->call_card : 0);
    r->trump = -1;
    for (int su = 0; su < 4 && !r->special; su++) {
        /* the trump suit: its lowest card beats the ace of every other led suit */
        if (r->len[su] == 0) continue;
        int is_trump = 1;
        int low = r->off[su];
        for (int led = 0; led < 4 && is_trump; led++) {
            if (led == su || r->len[led] == 0) continue;
            int top = r->off[led] + r->len[led] - 1;
            if (r->strength[led][low] <= r->strength[led][top]) is_trump = 0;
        }
        if (is_trump) r->trump = su;
    }
    r->mono = 1;
    for (int led = 0; led < NSUIT && r->mono; led++)
        for (int b = 1; b < next; b++)
            if (r->isuit[b] == r->isuit[b - 1] && r->strength[led][b] < r->strength[led][b - 1]) { r->mono = 0; break; }
    r->top_suit = -1;
    for (int su = 0; su < NSUIT && r->top_suit < 0 && !r->special; su++) {
        if (r->len[su] == 0) continue;
        int ok = 1;
        for (int led = 0; led < NSUIT && ok; led++) {
            int low = 1 << 30, high = -1;
            for (int b = 0; b < next; b++) {
                int v = r->strength[led][b];
                if (r->isuit[b] == su) { if (v < low) low = v; }
                else if (v > high) high = v;
            }
            if (low <= high) ok = 0;
        }
        if (ok) r->top_suit = su;
    }
    for (int b = 0; b < next && !r->special && !r->has_points && r->top_suit >= 0; b++) {
        if (!((r->free_mask >> b) & 1) || r->isuit[b] != r->top_suit) continue;
        int wins = 1;
        for (int led = 0; led < NSUIT && wins; led++)
            for (int o = 0; o < next && wins; o++)
                if (o != b && r->strength[led][o] >= r->strength[led][b]) wins = 0;
        if (wins) r->free_wins_mask |= 1ULL << b;
    }
    r->own_mask = r->free_mask | r->multi_lead_mask | r->last_forced_mask | r->restricted_mask | r->nomerge_mask;
    r->plain_follow = r->mono && !r->special && !r->has_points;
    for (int led = 0; led < NSUIT && r->plain_follow; led++) {
        if (r->len[led] == 0 || led == r->trump || led == r->top_suit) continue;
        int low = 1 << 30;
        for (int b = 0; b < next; b++) if (r->isuit[b] == led && r->strength[led][b] < low) low = r->strength[led][b];
        for (int b = 0; b < next; b++) {
            int su = r->isuit[b];
            if (su == led || su == r->trump || su == r->top_suit || ((r->own_mask >> b) & 1)) continue;
            if (r->strength[led][b] >= low) { r->plain_follow = 0; break; }
        }
    }
    return PyCapsule_New(r, "kirifuda.solver.rules", rules_free);
fail:
    free(r);
    return NULL;
}

static int setup(S *s, PyObject *cap, PyObject *hands, int leader, PyObject *trick, int led,
                 unsigned long long maxside, PyObject *gone) {
    const Rules *r = PyCapsule_GetPointer(cap, "kirifuda.solver.rules");
    if (!r) return -1;
    memset(s, 0, sizeof(*s));
    s->r = r;
    memset(s->killer, -1, sizeof(s->killer));
    PyObject *fast = PySequence_Fast(hands, "hands");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != r->np) { Py_DECREF(fast); PyErr_SetString(PyExc_ValueError, "one hand per player"); return -1; }
    u64 held = 0;
    for (int p = 0; p < r->np; p++) {
        u64 h = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(fast, p));
        if (PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        s->hands[p] = to_internal(r, h);
        held |= s->hands[p];
        s->maxside[p] = (int)((maxside >> p) & 1);
    }
    Py_DECREF(fast);
    Py_ssize_t tn = PySequence_Size(trick);
    if (tn < 0 || tn >= r->np) { PyErr_SetString(PyExc_ValueError, "trick: fewer cards than players"); return -1; }
    int tc[MAXP];
    if (read_int_seq(trick, tc, (int)tn, "trick") < 0) return -1;
    for (int i = 0; i < tn; i++) {
        if (tc[i] < 0 || tc[i] >= NCARD || r->int_of[tc[i]] < 0) { PyErr_SetString(PyExc_ValueError, "trick: not a card of this game"); return -1; }
        s->tcard[i] = r->int_of[tc[i]];
        held |= 1ULL << s->tcard[i];
    }
    s->tn = (int)tn;
    s->led = led;
    s->leader = leader;
    s->first = r->first_rules;
    s->gone = r->all_mask & ~held;
    for (int p = 0; p < r->np; p++)
        for (u64 h = s->hands[p]; h; h &= h - 1) s->zhands += r->zcard[p][lowbit(h)];
    (void)gone;
    if (led < 0 || (led > NOSUIT && !(led == CALLED && r->call_card >= 0)) || leader < 0 || leader >= r->np) { PyErr_SetString(PyExc_ValueError, "bad led or leader"); return -1; }
    if (s->tn > 0) {                 /* a trick in progress: its frame */
        Trick *t = &s->trick[popc(s->hands[leader]) + 1];
        trick_prepare(s, t);
        trick_so_far(s, t);
    }
    Table *t = free_tables;
    if (t) free_tables = t->next_free;
    else {
        t = calloc(1, sizeof(Table));
        if (t) { t->heads = calloc(TT_SIZE, sizeof(Head)); t->pool = malloc(POOL_SIZE * sizeof(Ent)); }
        if (!t || !t->heads || !t->pool) {
            if (t) { free(t->heads); free(t->pool); free(t); }
            PyErr_NoMemory();
            return -1;
        }
    }
    s->tt = t;
    new_generation(t);
    return 0;
}

/* The solve's table back to the free list (under the GIL). */
static void release(S *s) {
    s->tt->next_free = free_tables;
    free_tables = s->tt;
    s->tt = NULL;
}

static void new_generation(Table *t) {
    t->gen++;
    if (t->gen == 0) { memset(t->heads, 0, TT_SIZE * sizeof(Head)); t->gen = 1; }
    t->n = 0;
    t->bits = TT_MIN_BITS;
    t->grow_at = (1u << TT_MIN_BITS) * TT_LOAD;
}

/* solve(rules, hands, leader, trick_cards, led, maxside_mask, guess=-1, max_nodes=0)
 *   -> (lo, hi, nodes): the value is lo == hi, unless max_nodes stopped the search first */
/* The arguments both entry points share: (rules, hands, leader, trick_cards, led, maxside_mask,
 * guess=-1, max_nodes=0), read into a position s; -1 with the Python error set. */
static int parse_position(PyObject *args, S *s, int *guess, long long *max_nodes) {
    PyObject *cap, *hands, *trick;
    int leader, led;
    unsigned long long maxside;
    *guess = -1;
    *max_nodes = 0;
    if (!PyArg_ParseTuple(args, "OOiOiK|iL", &cap, &hands, &leader, &trick, &led, &maxside, guess, max_nodes)) return -1;
    return setup(s, cap, hands, leader, trick, led, maxside, NULL);
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    int guess;
    long long max_nodes;
    S s;
    if (parse_position(args, &s, &guess, &max_nodes) < 0) return NULL;
    s.limit = max_nodes > 0 ? max_nodes : 0;
    int lo, hi;
    Py_BEGIN_ALLOW_THREADS
    lo = CORE(search_exact)(&s, 0, upper_bound(&s), guess, &hi);
    Py_END_ALLOW_THREADS
    release(&s);
    return Py_BuildValue("iiL", lo, hi, s.nodes);
}

/* solve_moves(..., guess=-1, max_nodes=0) -> ([(card, led, lo, hi)], nodes): the value after
 * each choice of the player to move (equivalent cards merged: callers give a merged card's
 * value to its twins); max_nodes bounds the work per choice (lo < hi where it ran out). */
static PyObject *py_solve_moves(PyObject *self, PyObject *args) {
    int guess;
    long long max_nodes;
    S s;
    if (parse_position(args, &s, &guess, &max_nodes) < 0) return NULL;
    const Rules *r = s.r;
    int seat = r->mod_np[s.leader + s.tn];
    u64 legal = legal_mask(r, s.hands[seat], s.tn, s.led);
    Move mv[NCARD * 2];
    s.every_choice = 1;                /* a value for every choice, dominated or not */
    int n = gen_moves(&s, seat, legal, mv);
    s.every_choice = 0;
    order_moves_of(&s, seat, mv, n);
    Trick *t = &s.trick[popc(s.hands[s.leader]) + (s.tn > 0)];
    PyObject *out = PyList_New(n);
    if (!out) { release(&s); return NULL; }
    long long total = 0;
    guess = CORE(first_guess)(&s, guess, upper_bound(&s));
    for (int i = 0; i < n; i++) {
        int lo = 0, hi = upper_bound(&s);
        /* the first choice from first_guess; each later one a trick above the value of the one
         * before (a probe just above the value costs about as little as one at it, and the
         * probe's expectation, to fail, is then right: -0.8% nodes on full Meitora deals) */
        int g = i > 0 ? guess + r->trick_base : guess;
        s.nodes = 0;
        s.limit = max_nodes > 0 ? max_nodes : 0;
        s.aborted = 0;
        Py_BEGIN_ALLOW_THREADS
        CORE(search_choice)(&s, seat, t, &mv[i], &lo, &hi, g);
        Py_END_ALLOW_THREADS
        total += s.nodes;
        if (s.aborted) new_generation(s.tt);   /* the table may hold the stopped probe's guesses */
        else guess = lo;
        PyObject *item = Py_BuildValue("iiii", r->card_of[mv[i].card], mv[i].led, lo, hi);
        if (!item) { Py_DECREF(out); release(&s); return NULL; }
        PyList_SET_ITEM(out, i, item);
        if (s.tn == 0 && mv[i].led == NOSUIT && ((r->multi_lead_mask >> mv[i].card) & 1)) {
            /* the requests found equal to asking for nothing (gen_moves) have its value */
            for (int j = 0; j < r->n_lead_choices; j++) {
                int ld = r->lead_choices[j], found = 0;
                for (int k = 0; k < n && !found; k++) found = mv[k].card == mv[i].card && mv[k].led == ld;
                if (found) continue;
                PyObject *t = Py_BuildValue("iiii", r->card_of[mv[i].card], ld, lo, hi);
                if (!t || PyList_Append(out, t) < 0) { Py_XDECREF(t); Py_DECREF(out); release(&s); return NULL; }
                Py_DECREF(t);
            }
        }
    }
    release(&s);
    return Py_BuildValue("NL", out, total);
}

/* build(): which build of the search solves run ("bmi2" or "portable"), for kirifuda doctor */
static PyObject *py_build(PyObject *self, PyObject *noargs) {
#ifdef FAST_CORE
    if (kf_use_bmi2) return PyUnicode_FromString("bmi2");
#endif
    return PyUnicode_FromString("portable");
}

static PyMethodDef methods[] = {
    {"build", py_build, METH_NOARGS, "Which build of the search solves run: 'bmi2' or 'portable'."},
    {"make_rules", py_make_rules, METH_VARARGS, "Compile a game's trick rules."},
    {"solve", py_solve, METH_VARARGS, "The exact value of a position: (value, nodes)."},
    {"solve_moves", py_solve_moves, METH_VARARGS, "The exact value after each choice: ([(card, led, value)], nodes)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_csolver", "kirifuda's compiled solver core", -1, methods};

PyMODINIT_FUNC PyInit__csolver(void) {
#ifdef HAVE_BMI2_PATH
    __builtin_cpu_init();
    /* KIRIFUDA_SOLVER_NO_BMI2 set: the plain loop and the portable core (tests compare the two) */
    unsigned int a, b, c, d;
    int lzcnt = __get_cpuid(0x80000001, &a, &b, &c, &d) && (c & (1u << 5));  /* LZCNT (ABM) */
    kf_use_bmi2 = __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("bmi") && lzcnt && !getenv("KIRIFUDA_SOLVER_NO_BMI2")
               && !(__builtin_cpu_is("amd") && (__builtin_cpu_is("amdfam15h") || __builtin_cpu_is("amdfam17h")));
#endif
    return PyModule_Create(&module);
}
