/* Unsun, N deals stepped at once: the whole deal in C (dealing with the engine's shuffle, the
 * indicator and the re-turn of a face-card indicator, the first 取り番 by the ♣J, the play with
 * face-down cards (差し), the trick winner of the three suit groups, the tricks and the deal's
 * end), each seat's observation vector and action mask written straight into numpy arrays.
 *
 * It is the batched core of kirifuda.env.vector for Unsun (kirifuda.games.unsun_vector wraps
 * it).  The engine (kirifuda.games.unsun) is the truth: its tables (suit groups, face-down
 * masks, deal sizes, the ♣J) are handed over by configure(), and the tests step this core and the
 * Python env side by side on the same deals and compare observations, masks, rewards and ends
 * action by action.
 *
 * Layout of the observation: the Python env's (kirifuda.env.core.ObservationEncoder of
 * UnsunView, kirifuda-env/2) for n = 3, 4 or 5 seats; unsun_vector.py checks the offsets below
 * against the encoder's layout before it builds a batch.  Cards are ids 0..51 (suit * 13 +
 * rank - 2), a hand a 64-bit mask.  Each env keeps the list of the slots it wrote in its
 * observation row, so that the next write clears those only.
 *
 * The random numbers: the engine deals with Python's random.Random (UnsunState.deal_random
 * sorts the pack by random() keys), so each env here carries a Mersenne Twister seeded as
 * CPython seeds random.Random(seed) from an integer, and draws random() as CPython does: env i
 * reset with seed s deals what GameEnv("unsun").reset(seed=s) deals, deal after deal.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include "../_bitops.h"
#include "../_cpython_random.h"

#define NUM_ACTIONS 53
#define MAX_SEATS 5
#define MAX_TRICKS 16
#define STEP_ROWS_MAX 64
#define NZ_MAX 512

enum { PH_DEAL, PH_PLAY, PH_DONE };

/* the engine's tables, handed over by configure() */
static int GROUP[4][52];             /* GROUPS[trump][card]: 0 trump, 1 red, 2 black */
static uint64_t FACE_DOWN[4][2];     /* FACE_DOWN_MASKS[trump][all_trumps_face_down] */
static int HAND_SIZE[6], LEFT_OVER[6];
static int TENKA = -1, FACE_RANK = 9;
static int configured = 0;

/* -- the state ------------------------------------------------------------------------------ */

typedef struct {
    MT rng;
    uint64_t hands[MAX_SEATS];
    uint64_t fd_mask;      /* the cards played face down this deal */
    int deal_no;
    int totals[MAX_SEATS];
    int deals_won[MAX_SEATS];
    int8_t phase, to_act, dealer, start, trump, indicator, trick_len, ntricks;
    int8_t won[MAX_SEATS];
    int8_t trick[MAX_SEATS];
    int8_t t_start[MAX_TRICKS], t_cards[MAX_TRICKS][MAX_SEATS], t_winner[MAX_TRICKS];
    uint8_t nsteps;
    uint8_t step_actor[STEP_ROWS_MAX], step_card[STEP_ROWS_MAX], step_public[STEP_ROWS_MAX];
    int nnz;
    uint16_t nz[NZ_MAX];   /* the slots written in this env's observation row */
} Game;

/* the observation's offsets for n seats (UnsunView's fields in order) */
typedef struct {
    int phase, to_act, deal_no, hand, hand_sizes, totals, players, dealer, indicator, trump, start, last, trick,
        face_down, last_trick, lt_winner, lt_last, tricks, tricks_won, deals_won, deals, base;
} Offsets;

static Offsets offsets_for(int n) {
    Offsets o;
    o.phase = 0;
    o.to_act = 3;
    o.deal_no = o.to_act + n;
    o.hand = o.deal_no + 1;
    o.hand_sizes = o.hand + 53;
    o.totals = o.hand_sizes + n;
    o.players = o.totals + n;
    o.dealer = o.players + 1;
    o.indicator = o.dealer + n;
    o.trump = o.indicator + 53;
    o.start = o.trump + 4;
    o.last = o.start + n;
    o.trick = o.last + n;
    o.face_down = o.trick + 54 * n;
    o.last_trick = o.face_down + n;
    o.lt_winner = o.last_trick + 54 * n;
    o.lt_last = o.lt_winner + n;
    o.tricks = o.lt_last + n;
    o.tricks_won = o.tricks + 54 * n;
    o.deals_won = o.tricks_won + n;
    o.deals = o.deals_won + n;
    o.base = o.deals + 1;
    return o;
}

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    int seats, first, deals, all_face_down, reflip, match, recall, rows, autoreset;
    int hand_size, left_over;
    Offsets off;
    Py_ssize_t obs_size;
    Game *games;
    float *scale;          /* obs_size factors (1 where nothing is scaled) */
    Py_buffer obs, mask, to_act, rewards, done;
} Batch;

/* -- the deal -------------------------------------------------------------------------------- */

/* UnsunState.deal_random: sorted(DECK_IDS, key=lambda _: rng.random()) (a stable sort: a tie
   keeps the pack's order), reshuffled while the indicator is a face card under
   reflip_face_card; the top card is the indicator, then each seat's hand, then the rest. */
static void deal(const Batch *b, Game *g) {
    uint64_t keys[52];
    for (;;) {
        for (int c = 0; c < 52; c++) keys[c] = mt_random53(&g->rng) << 6 | (uint64_t)c;
        for (int i = 1; i < 52; i++) { /* insertion sort: 52 keys once a deal */
            uint64_t k = keys[i];
            int j = i - 1;
            while (j >= 0 && keys[j] > k) { keys[j + 1] = keys[j]; j--; }
            keys[j + 1] = k;
        }
        if (!b->reflip || (int)(keys[0] & 63) % 13 < FACE_RANK) break;
    }
    int n = b->seats, size = b->hand_size;
    for (int s = 0; s < n; s++) {
        uint64_t m = 0;
        for (int k = 0; k < size; k++) m |= 1ULL << (keys[1 + s * size + k] & 63);
        g->hands[s] = m;
    }
    for (int s = n; s < MAX_SEATS; s++) g->hands[s] = 0;
    g->indicator = (int8_t)(keys[0] & 63);
    g->trump = (int8_t)(g->indicator / 13);
    g->fd_mask = FACE_DOWN[g->trump][b->all_face_down];
    int last = g->dealer; /* ♣J among the left-over cards: the dealer is the last player */
    for (int s = 0; s < n; s++)
        if ((g->hands[s] >> TENKA) & 1) last = s; /* テンカ: the ♣J holder */
    g->start = (int8_t)((last + 1) % n);
    g->to_act = g->start;
    g->phase = PH_PLAY;
    g->trick_len = 0;
    g->ntricks = 0;
    g->nsteps = 0;
    for (int s = 0; s < MAX_SEATS; s++) g->won[s] = 0;
}

/* A fresh match and its first deal. */
static void new_episode(const Batch *b, Game *g) {
    g->deal_no = 0;
    g->dealer = (int8_t)b->first;
    for (int s = 0; s < MAX_SEATS; s++) g->totals[s] = g->deals_won[s] = 0;
    deal(b, g);
}

/* -- rules ----------------------------------------------------------------------------------- */

/* unsun._winner_index: the index in play order of the card that takes a complete trick */
static int winner_index(const int8_t *cards, int len, int trump) {
    int best_i = -1, best_r = -1;
    for (int i = 0; i < len; i++) {
        int c = cards[i];
        if (c / 13 == trump && c % 13 > best_r) best_i = i, best_r = c % 13; /* §5.1: the highest trump */
    }
    if (best_i >= 0) return best_i;
    const int *group = GROUP[trump];
    int last = group[cards[len - 1]];
    int contested = group[cards[0]]; /* §5.3: one group before; the last player switched away */
    for (int i = 0; i < len - 1; i++)
        if (group[cards[i]] == last) { contested = last; break; } /* §5.2 */
    for (int i = 0; i < len; i++) {
        int c = cards[i];
        if (group[c] == contested && c % 13 > best_r) best_i = i, best_r = c % 13; /* the earlier wins a tie */
    }
    return best_i;
}

/* The deal ends: the tricks join the totals; the match goes on with the next dealer. */
static void end_deal(const Batch *b, Game *g, float *rewards) {
    int n = b->seats, top = 0;
    for (int s = 0; s < n; s++) if (g->won[s] > top) top = g->won[s];
    for (int s = 0; s < n; s++) {
        if (g->won[s] == top) g->deals_won[s]++;
        g->totals[s] += g->won[s];
        rewards[s] = (float)g->won[s];
    }
    g->deal_no++;
    g->dealer = (int8_t)((g->dealer + 1) % n);
    g->to_act = -1;
    g->phase = g->deal_no >= b->deals ? PH_DONE : PH_DEAL;
}

/* One legal play of the seat to act; returns 1 when the episode ended. */
static int apply(const Batch *b, Game *g, int cid, float *rewards) {
    int n = b->seats, seat = g->to_act, step = g->nsteps;
    for (int s = 0; s < n; s++) rewards[s] = 0.0f;
    g->hands[seat] ^= 1ULL << cid;
    g->trick[g->trick_len++] = (int8_t)cid;
    int trick_done = g->trick_len == n;
    if (!trick_done) {
        g->to_act = (int8_t)((seat + 1) % n);
    } else {
        int w = (g->start + winner_index(g->trick, n, g->trump)) % n;
        int t = g->ntricks++;
        g->t_start[t] = g->start;
        memcpy(g->t_cards[t], g->trick, (size_t)n);
        g->t_winner[t] = (int8_t)w;
        g->won[w]++;
        g->trick_len = 0;
        if (g->ntricks == b->hand_size) {
            end_deal(b, g, rewards);
            if (b->match && g->phase == PH_DEAL) {
                deal(b, g);  /* the match goes on: the next deal, from the same stream */
                return 0;
            }
            return 1;
        }
        g->start = g->to_act = (int8_t)w;
    }
    if (step < STEP_ROWS_MAX) { /* what each seat witnessed (the env's recall) */
        g->step_actor[step] = (uint8_t)seat;
        g->step_card[step] = (uint8_t)cid;
        /* a face-down card is seen by its player only, unless it ends the trick (then the whole
           trick is shown at once) */
        g->step_public[step] = trick_done || !((g->fd_mask >> cid) & 1);
        g->nsteps = (uint8_t)(step + 1);
    }
    return 0;
}

/* -- the observation --------------------------------------------------------------------------- */

typedef struct {
    float *row;
    const float *scale;
    uint16_t *nz;
    int nnz;
} Writer;

static KF_ALWAYS_INLINE void put(Writer *w, int i, float v) {
    w->row[i] = v * w->scale[i];
    w->nz[w->nnz++] = (uint16_t)i;
}

static void encode(const Batch *b, const Game *g, int seat, Writer *w) {
    const Offsets *o = &b->off;
    int n = b->seats;
#define REL(s) ((((s) - seat) % n + n) % n)
    int in_deal = g->phase == PH_PLAY;
    put(w, o->phase + g->phase, 1.0f);
    if (g->to_act >= 0) put(w, o->to_act + REL(g->to_act), 1.0f);
    put(w, o->deal_no, (float)g->deal_no);
    for (int s = 0; s < n; s++) put(w, o->totals + REL(s), (float)g->totals[s]);
    put(w, o->players, (float)n);
    for (int s = 0; s < n; s++) put(w, o->deals_won + REL(s), (float)g->deals_won[s]);
    put(w, o->deals, (float)b->deals);
    if (in_deal) {
        for (uint64_t m = g->hands[seat]; m; m &= m - 1) put(w, o->hand + kf_ctz(m), 1.0f);
        for (int s = 0; s < n; s++) put(w, o->hand_sizes + REL(s), (float)kf_popcount(g->hands[s]));
        put(w, o->dealer + REL(g->dealer), 1.0f);
        put(w, o->indicator + g->indicator, 1.0f);
        put(w, o->trump + g->trump, 1.0f);
        put(w, o->start + REL(g->start), 1.0f);
        put(w, o->last + REL(g->start - 1), 1.0f);
        for (int k = 0; k < g->trick_len; k++) {
            int s = (g->start + k) % n, c = g->trick[k];
            if ((g->fd_mask >> c) & 1) {
                put(w, o->face_down + REL(s), 1.0f);
                if (s != seat) {
                    put(w, o->trick + 53 * n + REL(s), 1.0f);
                    continue;
                }
            }
            put(w, o->trick + REL(s) * 53 + c, 1.0f);
        }
        for (int t = 0; t < g->ntricks; t++)
            for (int k = 0; k < n; k++) put(w, o->tricks + REL(g->t_start[t] + k) * 53 + g->t_cards[t][k], 1.0f);
        for (int s = 0; s < n; s++) {
            if (g->won[s]) put(w, o->tricks + 53 * n + REL(s), (float)g->won[s]);
            put(w, o->tricks_won + REL(s), (float)g->won[s]);
        }
    }
    if (g->ntricks && g->trick_len == 0) { /* the trick just completed, until the next card */
        int t = g->ntricks - 1;
        for (int k = 0; k < n; k++) put(w, o->last_trick + REL(g->t_start[t] + k) * 53 + g->t_cards[t][k], 1.0f);
        put(w, o->last_trick + 53 * n + REL(g->t_start[t]), 1.0f);
        put(w, o->lt_winner + REL(g->t_winner[t]), 1.0f);
        put(w, o->lt_last + REL(g->t_start[t] - 1), 1.0f);
    }
    if (b->recall) { /* the seat's memory of the deal, after the view's slots (not scaled) */
        int base = o->base, row = n + NUM_ACTIONS + 1;
        for (int t = 0; t < g->nsteps; t++) {
            int actor = g->step_actor[t], c = g->step_card[t];
            int seen = g->step_public[t] || actor == seat;
            if (seen) put(w, base + REL(actor) * 53 + c, 1.0f);
            if (b->recall == 2 && t < b->rows) {
                int r = base + 53 * n + t * row;
                put(w, r + REL(actor), 1.0f);
                put(w, r + n + (seen ? c : NUM_ACTIONS), 1.0f);
            }
        }
    }
#undef REL
}

/* Rewrite env i's observation row and mask (the seat to act's; seat 0's once the deal ended). */
static void write_env(Batch *b, Py_ssize_t i) {
    Game *g = &b->games[i];
    float *row = (float *)b->obs.buf + i * b->obs_size;
    for (int k = 0; k < g->nnz; k++) row[g->nz[k]] = 0.0f;
    Writer w = {row, b->scale, g->nz, 0};
    encode(b, g, g->to_act >= 0 ? g->to_act : 0, &w);
    g->nnz = w.nnz;
    int8_t *mask = (int8_t *)b->mask.buf + i * NUM_ACTIONS;
    uint64_t legal = g->to_act >= 0 ? g->hands[g->to_act] : 0; /* no must-follow: any card */
    for (int k = 0; k < NUM_ACTIONS; k++) mask[k] = (int8_t)((legal >> k) & 1);
    ((int8_t *)b->to_act.buf)[i] = g->to_act;
}

/* -- the Python type ------------------------------------------------------------------------- */

static int get_buffer(PyObject *o, Py_buffer *view, Py_ssize_t len, Py_ssize_t item, const char *name) {
    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len != len * item) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd bytes, got %zd", name, len * item, view->len);
        PyBuffer_Release(view);
        view->obj = NULL;
        return -1;
    }
    return 0;
}

static void Batch_dealloc(Batch *self) {
    PyMem_Free(self->games);
    PyMem_Free(self->scale);
    Py_buffer *bufs[5] = {&self->obs, &self->mask, &self->to_act, &self->rewards, &self->done};
    for (int k = 0; k < 5; k++)
        if (bufs[k]->obj != NULL) PyBuffer_Release(bufs[k]);
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static int Batch_init(Batch *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"n", "players", "first", "deals", "all_trumps_face_down", "reflip_face_card", "match",
                             "recall", "rows", "autoreset", "scale", "obs", "mask", "to_act", "rewards", "done",
                             NULL};
    Py_ssize_t n;
    PyObject *scale, *obs, *mask, *to_act, *rewards, *done;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "the Unsun vector core is not configured");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "niiipppiipOOOOOO", kwlist, &n, &self->seats, &self->first,
                                     &self->deals, &self->all_face_down, &self->reflip, &self->match, &self->recall,
                                     &self->rows, &self->autoreset, &scale, &obs, &mask, &to_act, &rewards, &done))
        return -1;
    if (n < 1 || self->seats < 3 || self->seats > MAX_SEATS || self->first < 0 || self->first >= self->seats ||
        self->deals < 1 || self->recall < 0 || self->recall > 2 || self->rows < 0 || self->rows > STEP_ROWS_MAX) {
        PyErr_SetString(PyExc_ValueError, "n >= 1, players 3-5, first a seat, deals >= 1, recall 0-2, rows 0-64");
        return -1;
    }
    self->n = n;
    self->hand_size = HAND_SIZE[self->seats];
    self->left_over = LEFT_OVER[self->seats];
    self->off = offsets_for(self->seats);
    int row = self->seats + NUM_ACTIONS + 1;
    self->obs_size = self->off.base + (self->recall ? 53 * self->seats : 0) + (self->recall == 2 ? self->rows * row : 0);
    if (get_buffer(obs, &self->obs, n * self->obs_size, 4, "obs") < 0 ||
        get_buffer(mask, &self->mask, n * NUM_ACTIONS, 1, "mask") < 0 ||
        get_buffer(to_act, &self->to_act, n, 1, "to_act") < 0 ||
        get_buffer(rewards, &self->rewards, n * self->seats, 4, "rewards") < 0 ||
        get_buffer(done, &self->done, n, 1, "done") < 0)
        return -1;
    Py_buffer sv;
    if (PyObject_GetBuffer(scale, &sv, PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (sv.len != self->obs_size * 4) {
        PyBuffer_Release(&sv);
        PyErr_SetString(PyExc_ValueError, "scale: one float32 per observation slot");
        return -1;
    }
    self->scale = PyMem_Malloc(sv.len);
    self->games = PyMem_Calloc((size_t)n, sizeof(Game));
    if (self->scale == NULL || self->games == NULL) {
        PyBuffer_Release(&sv);
        PyErr_NoMemory();
        return -1;
    }
    memcpy(self->scale, sv.buf, sv.len);
    PyBuffer_Release(&sv);
    memset(self->obs.buf, 0, self->obs.len);
    for (Py_ssize_t i = 0; i < n; i++) {
        self->games[i].to_act = -1;
        self->games[i].phase = PH_DEAL;
        mt_seed(&self->games[i].rng, (uint64_t)i);
    }
    return 0;
}

/* reset(seeds): a new episode in every env; seeds (uint64 per env) reseed the streams, None
   keeps them. */
static PyObject *Batch_reset(Batch *self, PyObject *arg) {
    if (arg != Py_None) {
        Py_buffer sv;
        if (PyObject_GetBuffer(arg, &sv, PyBUF_C_CONTIGUOUS) < 0) return NULL;
        if (sv.len != self->n * 8) {
            PyBuffer_Release(&sv);
            PyErr_SetString(PyExc_ValueError, "reset: one uint64 seed per env");
            return NULL;
        }
        const uint64_t *seeds = sv.buf;
        for (Py_ssize_t i = 0; i < self->n; i++) mt_seed(&self->games[i].rng, seeds[i]);
        PyBuffer_Release(&sv);
    }
    float *rewards = self->rewards.buf;
    uint8_t *done = self->done.buf;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        new_episode(self, &self->games[i]);
        for (int s = 0; s < self->seats; s++) rewards[self->seats * i + s] = 0.0f;
        done[i] = 0;
        write_env(self, i);
    }
    Py_RETURN_NONE;
}

/* step(actions): one action (int64) per env for its seat to act.  Every action is checked first:
   an illegal one changes nothing and the call returns its env's index; else -1.  Rewards per
   seat and done flags are written; with autoreset an env whose episode ended starts the next
   one at once (its row then shows the new deal). */
static PyObject *Batch_step(Batch *self, PyObject *arg) {
    Py_buffer av;
    if (PyObject_GetBuffer(arg, &av, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    if (av.len != self->n * 8 || av.itemsize != 8) {
        PyBuffer_Release(&av);
        PyErr_SetString(PyExc_ValueError, "step: one int64 action per env");
        return NULL;
    }
    const int64_t *actions = av.buf;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        int64_t a = actions[i];
        const Game *g = &self->games[i];
        if (a < 0 || a >= NUM_ACTIONS || g->to_act < 0 || !((g->hands[g->to_act] >> a) & 1)) {
            PyBuffer_Release(&av);
            return PyLong_FromSsize_t(i);
        }
    }
    float *rewards = self->rewards.buf;
    uint8_t *done = self->done.buf;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        Game *g = &self->games[i];
        int ended = apply(self, g, (int)actions[i], rewards + self->seats * i);
        done[i] = (uint8_t)ended;
        if (ended && self->autoreset) new_episode(self, g);
        write_env(self, i);
    }
    PyBuffer_Release(&av);
    return PyLong_FromLong(-1);
}

/* observe(i, seat, out): seat's observation in env i, written whole into out (float32). */
static PyObject *Batch_observe(Batch *self, PyObject *args) {
    Py_ssize_t i;
    int seat;
    PyObject *out;
    if (!PyArg_ParseTuple(args, "niO", &i, &seat, &out)) return NULL;
    if (i < 0 || i >= self->n || seat < 0 || seat >= self->seats) {
        PyErr_SetString(PyExc_IndexError, "observe: no such env or seat");
        return NULL;
    }
    Py_buffer ov;
    if (get_buffer(out, &ov, self->obs_size, 4, "out") < 0) return NULL;
    memset(ov.buf, 0, ov.len);
    uint16_t nz[NZ_MAX];
    Writer w = {ov.buf, self->scale, nz, 0};
    encode(self, &self->games[i], seat, &w);
    PyBuffer_Release(&ov);
    Py_RETURN_NONE;
}

static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* sample(out, seed): a random legal action per env (uniform over its mask) into out (int64),
   from a stream of its own seeded with seed: the benchmark's random agents, chosen in C. */
static PyObject *Batch_sample(Batch *self, PyObject *args) {
    PyObject *out;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OK", &out, &seed)) return NULL;
    Py_buffer ov;
    if (get_buffer(out, &ov, self->n, 8, "out") < 0) return NULL;
    int64_t *acts = ov.buf;
    uint64_t s = seed;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        const Game *g = &self->games[i];
        uint64_t m = g->to_act >= 0 ? g->hands[g->to_act] : 0;
        int count = kf_popcount(m);
        if (count == 0) { acts[i] = -1; continue; }
        uint64_t x = splitmix64(&s);
        int r = (int)(((x >> 32) * (uint64_t)count) >> 32);
        for (int k = 0; k < r; k++) m &= m - 1;
        acts[i] = kf_ctz(m);
    }
    PyBuffer_Release(&ov);
    Py_RETURN_NONE;
}

/* info(i): env i's state for tests and messages (the whole deal: not an observation). */
static PyObject *Batch_info(Batch *self, PyObject *arg) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0 || i >= self->n) {
        PyErr_SetString(PyExc_IndexError, "info: no such env");
        return NULL;
    }
    Game *g = &self->games[i];
    int n = self->seats;
    PyObject *hands = PyTuple_New(n), *totals = PyTuple_New(n), *won = PyTuple_New(n);
    if (hands == NULL || totals == NULL || won == NULL) {
        Py_XDECREF(hands);
        Py_XDECREF(totals);
        Py_XDECREF(won);
        return NULL;
    }
    for (int s = 0; s < n; s++) {
        PyTuple_SET_ITEM(hands, s, PyLong_FromUnsignedLongLong(g->hands[s]));
        PyTuple_SET_ITEM(totals, s, PyLong_FromLong(g->totals[s]));
        PyTuple_SET_ITEM(won, s, PyLong_FromLong(g->won[s]));
    }
    return Py_BuildValue("{s:i,s:i,s:i,s:N,s:i,s:i,s:i,s:i,s:N,s:N}", "phase", g->phase, "to_act", g->to_act,
                         "deal_number", g->deal_no, "hands", hands, "indicator", g->indicator, "dealer", g->dealer,
                         "starting_player", g->start, "tricks_played", g->ntricks, "tricks_won", won, "totals",
                         totals);
}

static PyObject *Batch_get_n(Batch *self, void *closure) { return PyLong_FromSsize_t(self->n); }
static PyObject *Batch_get_obs_size(Batch *self, void *closure) { return PyLong_FromSsize_t(self->obs_size); }

static PyMethodDef Batch_methods[] = {
    {"reset", (PyCFunction)Batch_reset, METH_O, "reset(seeds or None): a new episode in every env."},
    {"step", (PyCFunction)Batch_step, METH_O, "step(actions) -> -1, or the index of an env whose action is illegal."},
    {"observe", (PyCFunction)Batch_observe, METH_VARARGS, "observe(i, seat, out): a seat's observation."},
    {"sample", (PyCFunction)Batch_sample, METH_VARARGS, "sample(out, seed): a random legal action per env."},
    {"info", (PyCFunction)Batch_info, METH_O, "info(i): env i's state (for tests and messages)."},
    {NULL},
};

static PyGetSetDef Batch_getset[] = {
    {"n", (getter)Batch_get_n, NULL, "the number of envs", NULL},
    {"obs_size", (getter)Batch_get_obs_size, NULL, "floats per observation", NULL},
    {NULL},
};

static PyType_Slot Batch_slots[] = {
    {Py_tp_dealloc, Batch_dealloc},
    {Py_tp_init, Batch_init},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_methods, Batch_methods},
    {Py_tp_getset, Batch_getset},
    {Py_tp_doc, "N Unsun deals stepped at once (see kirifuda.games.unsun_vector)."},
    {0, NULL},
};

static PyType_Spec Batch_spec = {
    "kirifuda.games._unsun_vector.Batch", sizeof(Batch), 0, Py_TPFLAGS_DEFAULT, Batch_slots,
};

static int long_at(PyObject *seq, Py_ssize_t k, long long *out) {
    PyObject *x = PySequence_GetItem(seq, k);
    if (x == NULL) return -1;
    *out = PyLong_AsLongLong(x);
    Py_DECREF(x);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* configure(groups, face_down, hand_sizes, left_over, tenka, face_rank): the engine's tables
   (groups: 4 × 52 flat; face_down: 4 × 2 flat masks; hand_sizes, left_over: 6 entries by
   table size). */
static PyObject *configure(PyObject *module, PyObject *args) {
    PyObject *groups, *fd, *sizes, *left;
    int tenka, face_rank;
    if (!PyArg_ParseTuple(args, "OOOOii", &groups, &fd, &sizes, &left, &tenka, &face_rank)) return NULL;
    PyObject *seqs[4] = {groups, fd, sizes, left};
    Py_ssize_t lens[4] = {4 * 52, 8, 6, 6};
    for (int k = 0; k < 4; k++) {
        if (!PySequence_Check(seqs[k]) || PySequence_Size(seqs[k]) != lens[k]) {
            PyErr_Format(PyExc_ValueError, "configure: table %d needs %zd entries", k, lens[k]);
            return NULL;
        }
    }
    long long v;
    for (Py_ssize_t k = 0; k < 4 * 52; k++) {
        if (long_at(groups, k, &v) < 0) return NULL;
        GROUP[k / 52][k % 52] = (int)v;
    }
    for (Py_ssize_t k = 0; k < 8; k++) {
        PyObject *x = PySequence_GetItem(fd, k);
        if (x == NULL) return NULL;
        FACE_DOWN[k / 2][k % 2] = PyLong_AsUnsignedLongLong(x);
        Py_DECREF(x);
        if (PyErr_Occurred()) return NULL;
    }
    for (Py_ssize_t k = 0; k < 6; k++) {
        if (long_at(sizes, k, &v) < 0) return NULL;
        HAND_SIZE[k] = (int)v;
        if (long_at(left, k, &v) < 0) return NULL;
        LEFT_OVER[k] = (int)v;
    }
    if (tenka < 0 || tenka >= 52 || face_rank < 0 || face_rank > 13) {
        PyErr_SetString(PyExc_ValueError, "configure: tenka is a card id, face_rank a rank index");
        return NULL;
    }
    TENKA = tenka;
    FACE_RANK = face_rank;
    configured = 1;
    Py_RETURN_NONE;
}

/* random_words(seed, n) -> n random() draws of random.Random(seed), as 53-bit integers (the
   tests check the stream against CPython's). */
static PyObject *random_words(PyObject *module, PyObject *args) {
    unsigned long long seed;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "Kn", &seed, &n)) return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "n >= 0");
        return NULL;
    }
    MT r;
    mt_seed(&r, seed);
    PyObject *out = PyList_New(n);
    if (out == NULL) return NULL;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *x = PyLong_FromUnsignedLongLong(mt_random53(&r));
        if (x == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, x);
    }
    return out;
}

static PyMethodDef module_methods[] = {
    {"configure", configure, METH_VARARGS, "Hand the engine's tables to the core."},
    {"random_words", random_words, METH_VARARGS, "random_words(seed, n) -> random.Random(seed)'s first n random() * 2**53."},
    {NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "kirifuda.games._unsun_vector",
    "Unsun deals stepped N at once in C (see kirifuda.games.unsun_vector).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__unsun_vector(void) {
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "NUM_ACTIONS", NUM_ACTIONS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    PyObject *type = PyType_FromSpec(&Batch_spec);
    if (type == NULL || PyModule_AddObject(m, "Batch", type) < 0) {
        Py_XDECREF(type);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
