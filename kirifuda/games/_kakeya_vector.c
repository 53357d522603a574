/* Kakeya Trump (掛合トランプ), N games at once: the whole game in C (the deal, the trump decision
 * (切り), the choice of the leader, the thirteen tricks with the rensho (れんしょ), the face cards
 * (絵札) taken, the result and the chip payment (ご石)), each seat's observation vector and action
 * mask written straight into numpy arrays.
 *
 * It is the batched core of kirifuda.env.vector for Kakeya (kirifuda.games.kakeya_vector wraps
 * it).  The engine (kirifuda.games.kakeya) is the truth: the card strengths come from it
 * (configure()), and the tests step this core and the Python env side by side on the same deals
 * and compare observations, masks, rewards and ends action by action.
 *
 * An episode starts a fresh match, as the Python env's: chips 5 each, the seed's first game
 * (4 players: pair 1 deals, pair 0 leads; 6 players: pair 2 deals and sits out), the trump of the
 * option initial_trump.  It is that one game (match=False), or the whole match (match=True: the
 * next game is dealt from the same stream as soon as one ends, until the match is over; the
 * rewards of each game when it ends).
 *
 * Layout of the observation: the Python env's (kirifuda.env.core.ObservationEncoder of
 * KakeyaView, kirifuda-env/2) for n = 4 or 6 seats and h = n / 2 pairs; kakeya_vector.py checks
 * the offsets below against the encoder's layout before it builds a batch.  Cards are ids 0..51
 * (suit * 13 + rank - 2), a hand a 64-bit mask.
 *
 * The random numbers: the engine deals with Python's random.Random (Mersenne Twister), sorting
 * the 52 cards by 52 draws of random() (sorted(DECK_IDS, key=lambda _: r())).  Each env keeps a
 * Mersenne Twister seeded as random.Random(seed) seeds it (init_by_array over the seed's 32-bit
 * words) and draws random() as CPython does (two words: a >> 5, b >> 6), so an env seeded with s
 * deals what GameEnv.reset(seed=s) deals, and its next games what the env deals next.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include "../_bitops.h"
#include "../_cpython_random.h"

#define NUM_ACTIONS 64
#define A_TRUMP 53 /* keep, then S H D C */
#define A_LEADER 58 /* one per seat */
#define STEP_ROWS 56
#define NZ_MAX 512

enum { PH_DEAL, PH_TRUMP, PH_LEADER, PH_PLAY, PH_DONE };

/* the engine's tables, handed over by configure() */
static int STRENGTH[4][4][53]; /* [trump][led][card] */
static uint64_t FACE_MASK, ALL_ACES, SUIT_MASK[4];
static int RENSHO[4];          /* the rensho's id under each trump */
static int START_CHIPS;
static int configured = 0;

typedef struct {
    MT rng;
    uint64_t hands[6];
    uint64_t dealt_pair[3];
    uint64_t faces[3];     /* each pair's face cards taken */
    uint64_t legal;        /* the legal action indices as bits */
    int chips[3];
    int deal_no;
    int8_t phase, to_act, dealing, leading, sitting, trump, trump_decided, first_leader, leader, led;
    int8_t playing[2];
    int8_t next[6];        /* the next active seat in turn order */
    int8_t active[4];
    int8_t trick_len, trick_seat[4], trick_card[4];
    int8_t has_last, last_seat[4], last_card[4], last_winner;
    int8_t ntricks;
    uint8_t nsteps;
    uint8_t step_actor[STEP_ROWS], step_action[STEP_ROWS], step_public[STEP_ROWS];
    int nnz;
    uint16_t nz[NZ_MAX];   /* the slots written in this env's observation row */
} Game;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    int players, half, initial_trump, stop_at_zero, games, match, recall, autoreset;
    Py_ssize_t obs_size, base_size;
    /* offsets of the view's fields */
    int o_phase, o_to_act, o_deal_no, o_hand, o_hand_sizes, o_totals, o_players, o_own_pair, o_dealing,
        o_leading, o_sitting, o_trump, o_trump_decided, o_rensho, o_leader, o_trick, o_last, o_last_winner,
        o_tricks_played, o_faces;
    int rel[6][6];         /* rel[seat][s]: s relative to seat */
    Game *games_;
    float *scale;          /* obs_size factors (1 where nothing is scaled) */
    Py_buffer obs, mask, to_act, rewards, done;
} Batch;

/* -- the game ------------------------------------------------------------------------------ */

/* the playing pairs, the active seats in turn order and the next active seat of each */
static void set_roles(const Batch *b, Game *g) {
    int h = b->half;
    g->playing[0] = g->leading;
    g->playing[1] = (int8_t)(g->sitting < 0 ? 1 - g->leading : 3 - g->leading - g->sitting);
    int k = 0;
    for (int s = 0; s < b->players; s++) {
        g->next[s] = -1;
        if (s % h == g->playing[0] || s % h == g->playing[1]) g->active[k++] = (int8_t)s;
    }
    for (int i = 0; i < 4; i++) g->next[g->active[i]] = g->active[(i + 1) & 3];
}

/* The engine's deal_random: the 52 cards sorted by a random() each (a stable sort: equal keys
   keep the deck's order), 13 to each active seat in turn. */
static void deal_cards(const Batch *b, Game *g) {
    uint64_t keys[52];
    for (int c = 0; c < 52; c++) keys[c] = mt_random53(&g->rng) << 6 | (uint64_t)c;
    for (int i = 1; i < 52; i++) {
        uint64_t x = keys[i];
        int j = i - 1;
        while (j >= 0 && keys[j] > x) { keys[j + 1] = keys[j]; j--; }
        keys[j + 1] = x;
    }
    for (int s = 0; s < b->players; s++) g->hands[s] = 0;
    for (int k = 0; k < 52; k++) g->hands[g->active[k / 13]] |= 1ULL << (keys[k] & 63);
    for (int p = 0; p < b->half; p++) g->dealt_pair[p] = g->hands[p] | g->hands[p + b->half];
    g->phase = PH_TRUMP;
    g->to_act = g->dealing;
    g->trump_decided = 0;
    g->first_leader = -1;
    g->leader = -1;
    g->led = 0;
    g->trick_len = 0;
    g->ntricks = 0;
    g->faces[0] = g->faces[1] = g->faces[2] = 0;
    g->nsteps = 0;
}

/* A fresh match and its first game. */
static void new_episode(const Batch *b, Game *g) {
    g->deal_no = 0;
    for (int p = 0; p < 3; p++) g->chips[p] = p < b->half ? START_CHIPS : 0;
    g->trump = (int8_t)b->initial_trump;
    g->leading = 0;
    if (b->players == 4) g->dealing = 1, g->sitting = -1;
    else g->dealing = 2, g->sitting = 2;
    g->has_last = 0;
    set_roles(b, g);
    deal_cards(b, g);
}

static void compute_legal(const Batch *b, Game *g) {
    g->legal = 0;
    if (g->to_act < 0) return;
    if (g->phase == PH_TRUMP) {
        g->legal = 0x1FULL << A_TRUMP;
    } else if (g->phase == PH_LEADER) {
        g->legal = 1ULL << (A_LEADER + g->leading) | 1ULL << (A_LEADER + g->leading + b->half);
    } else if (g->phase == PH_PLAY) {
        uint64_t hand = g->hands[g->to_act];
        uint64_t follow = g->trick_len ? hand & SUIT_MASK[g->led] : 0;
        g->legal = follow ? follow : hand;
    }
}

/* The chips the losing pair pays (kakeya.chip_payment). */
static int chip_payment(int winner_faces, uint64_t loser_dealt, int trump) {
    if ((loser_dealt & ALL_ACES) == ALL_ACES) return 4;
    if ((loser_dealt >> RENSHO[trump] & 1) && (loser_dealt >> (trump * 13 + 12) & 1)) return 2;
    if (winner_faces >= 16) return 4;
    if (winner_faces >= 12) return 2;
    return 1;
}

/* The game's result and payment (kakeya.game_result, KakeyaState._settle). */
static void score(const Batch *b, Game *g, float *rewards) {
    int a = g->playing[0], c = g->playing[1];
    int fa = kf_popcount(g->faces[a]), fc = kf_popcount(g->faces[c]);
    int rensho_pair = (g->dealt_pair[a] >> RENSHO[g->trump] & 1) ? a : c;
    int winner = fa >= 9 ? a : fc >= 9 ? c : (rensho_pair == a ? c : a);
    int loser = winner == a ? c : a;
    int pay = chip_payment(fa > fc ? fa : fc, g->dealt_pair[loser], g->trump);
    g->chips[winner] += pay;
    g->chips[loser] -= pay;
    g->deal_no++;
    g->to_act = -1;
    if (g->sitting >= 0) g->sitting = (int8_t)loser;
    g->dealing = (int8_t)loser;
    g->leading = (int8_t)winner;
    set_roles(b, g);
    int low = g->chips[0];
    for (int p = 1; p < b->half; p++) if (g->chips[p] < low) low = g->chips[p];
    int over = (b->stop_at_zero && low <= 0) || (b->games > 0 && g->deal_no >= b->games);
    g->phase = over ? PH_DONE : PH_DEAL;
    for (int s = 0; s < b->players; s++) {
        int p = s % b->half;
        rewards[s] = (float)(p == winner ? pay : p == loser ? -pay : 0);
    }
}

static void play(const Batch *b, Game *g, int seat, int cid, float *rewards) {
    g->hands[seat] ^= 1ULL << cid;
    if (g->trick_len == 0) {
        g->has_last = 0;
        g->led = (int8_t)(cid / 13); /* the printed suit (the rensho too) */
        g->leader = (int8_t)seat;
    }
    g->trick_seat[g->trick_len] = (int8_t)seat;
    g->trick_card[g->trick_len++] = (int8_t)cid;
    if (g->trick_len < 4) {
        g->to_act = g->next[seat];
        return;
    }
    const int *st = STRENGTH[g->trump][g->led];
    int best = 0;
    for (int k = 1; k < 4; k++) if (st[g->trick_card[k]] > st[g->trick_card[best]]) best = k;
    int winner = g->trick_seat[best];
    uint64_t cards = 0;
    for (int k = 0; k < 4; k++) {
        g->last_seat[k] = g->trick_seat[k];
        g->last_card[k] = g->trick_card[k];
        cards |= 1ULL << g->trick_card[k];
    }
    g->has_last = 1;
    g->last_winner = (int8_t)winner;
    g->faces[winner % b->half] |= cards & FACE_MASK;
    g->trick_len = 0;
    g->ntricks++;
    if (g->ntricks == 13) {
        score(b, g, rewards);
        return;
    }
    g->leader = (int8_t)winner;
    g->to_act = (int8_t)winner;
}

/* One legal action of the seat to act; returns 1 when the game ended. */
static int apply(const Batch *b, Game *g, int a, float *rewards) {
    int seat = g->to_act;
    int step = g->nsteps;
    /* The env's memory counts a step public when its card newly shows on the table (the count of
       the card in the table's view grows).  The first card of a match's later game may be one of
       the previous game's last trick, still on the table until then: its count stays 1, and the
       env's memory keeps that play to its actor.  Kept so, as the env does. */
    int public = 1;
    if (a < A_TRUMP && g->trick_len == 0 && g->has_last)
        for (int k = 0; k < 4; k++) public &= g->last_card[k] != a;
    for (int s = 0; s < b->players; s++) rewards[s] = 0.0f;
    if (a < A_TRUMP) {
        play(b, g, seat, a, rewards);
    } else if (a < A_LEADER) {
        if (a > A_TRUMP) g->trump = (int8_t)(a - A_TRUMP - 1);
        g->trump_decided = 1;
        g->phase = PH_LEADER;
        g->to_act = g->leading;
    } else {
        g->phase = PH_PLAY;
        g->leader = g->first_leader = g->to_act = (int8_t)(a - A_LEADER);
    }
    int ended = g->phase == PH_DEAL || g->phase == PH_DONE;
    if (!ended && step < STEP_ROWS) { /* what each seat witnessed (the env's recall) */
        g->step_actor[step] = (uint8_t)seat;
        g->step_action[step] = (uint8_t)a;
        g->step_public[step] = (uint8_t)public;
        g->nsteps = (uint8_t)(step + 1);
    }
    return ended;
}

/* -- the observation ------------------------------------------------------------------------ */

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
    const int *rel = b->rel[seat];
    int h = b->half, own = seat % h;
    int in_game = g->phase >= PH_TRUMP && g->phase <= PH_PLAY;
    put(w, b->o_phase + g->phase, 1.0f);
    if (g->to_act >= 0) put(w, b->o_to_act + rel[g->to_act], 1.0f);
    if (g->deal_no) put(w, b->o_deal_no, (float)g->deal_no);
    if (in_game && g->trump_decided && own != g->sitting)
        for (uint64_t m = g->hands[seat]; m; m &= m - 1) put(w, b->o_hand + kf_ctz(m), 1.0f);
    if (in_game)
        for (int s = 0; s < b->players; s++)
            if (g->hands[s]) put(w, b->o_hand_sizes + rel[s], (float)kf_popcount(g->hands[s]));
    for (int p = 0; p < h; p++)
        if (g->chips[p]) put(w, b->o_totals + (p - own + h) % h, (float)g->chips[p]);
    put(w, b->o_players, (float)b->players);
    put(w, b->o_own_pair, 1.0f);
    if (g->phase != PH_DONE) {
        put(w, b->o_dealing + (g->dealing - own + h) % h, 1.0f);
        put(w, b->o_leading + (g->leading - own + h) % h, 1.0f);
        if (g->sitting >= 0) put(w, b->o_sitting + (g->sitting - own + h) % h, 1.0f);
    }
    put(w, b->o_trump + g->trump, 1.0f);
    if (in_game && g->trump_decided) put(w, b->o_trump_decided, 1.0f);
    put(w, b->o_rensho + RENSHO[g->trump], 1.0f);
    if (in_game && g->first_leader >= 0) put(w, b->o_leader + rel[g->first_leader], 1.0f);
    if (g->trick_len) {
        for (int k = 0; k < g->trick_len; k++) put(w, b->o_trick + rel[g->trick_seat[k]] * 53 + g->trick_card[k], 1.0f);
        put(w, b->o_trick + b->players * 53 + rel[g->leader], 1.0f);
    } else if (g->has_last) {
        for (int k = 0; k < 4; k++) put(w, b->o_last + rel[g->last_seat[k]] * 53 + g->last_card[k], 1.0f);
        put(w, b->o_last + b->players * 53 + rel[g->last_seat[0]], 1.0f);
        put(w, b->o_last_winner + rel[g->last_winner], 1.0f);
    }
    if (in_game) {
        if (g->ntricks) put(w, b->o_tricks_played, (float)g->ntricks);
        for (int p = 0; p < h; p++) {
            if (p == g->sitting) continue;
            int r = (p - own + h) % h;
            for (uint64_t m = g->faces[p]; m; m &= m - 1) put(w, b->o_faces + r * 53 + kf_ctz(m), 1.0f);
        }
    }
    if (b->recall) { /* the seat's memory of the game, after the view's slots (not scaled) */
        int o0 = (int)b->base_size, row = b->players + NUM_ACTIONS + 1;
        for (int t = 0; t < g->nsteps; t++) {
            int actor = g->step_actor[t], a = g->step_action[t];
            int seen = g->step_public[t] || actor == seat;
            if (seen && a < A_TRUMP) put(w, o0 + rel[actor] * 53 + a, 1.0f);
            if (b->recall == 2) {
                int o = o0 + b->players * 53 + t * row;
                put(w, o + rel[actor], 1.0f);
                put(w, o + b->players + (seen ? a : NUM_ACTIONS), 1.0f);
            }
        }
    }
}

/* Rewrite env i's observation row and mask (the seat to act's; seat 0's once the game ended). */
static void write_env(Batch *b, Py_ssize_t i) {
    Game *g = &b->games_[i];
    float *row = (float *)b->obs.buf + i * b->obs_size;
    for (int k = 0; k < g->nnz; k++) row[g->nz[k]] = 0.0f;
    Writer w = {row, b->scale, g->nz, 0};
    encode(b, g, g->to_act >= 0 ? g->to_act : 0, &w);
    g->nnz = w.nnz;
    compute_legal(b, g);
    int8_t *mask = (int8_t *)b->mask.buf + i * NUM_ACTIONS;
    for (int k = 0; k < NUM_ACTIONS; k++) mask[k] = (int8_t)(g->legal >> k & 1);
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
    PyMem_Free(self->games_);
    PyMem_Free(self->scale);
    Py_buffer *bufs[5] = {&self->obs, &self->mask, &self->to_act, &self->rewards, &self->done};
    for (int k = 0; k < 5; k++)
        if (bufs[k]->obj != NULL) PyBuffer_Release(bufs[k]);
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static void set_layout(Batch *b) {
    int n = b->players, h = b->half, o = 0;
#define FIELD(name, size) (b->name = o, o += (size))
    FIELD(o_phase, 5);
    FIELD(o_to_act, n);
    FIELD(o_deal_no, 1);
    FIELD(o_hand, 53);
    FIELD(o_hand_sizes, n);
    FIELD(o_totals, n);
    FIELD(o_players, 1);
    FIELD(o_own_pair, h);
    FIELD(o_dealing, h);
    FIELD(o_leading, h);
    FIELD(o_sitting, h);
    FIELD(o_trump, 4);
    FIELD(o_trump_decided, 1);
    FIELD(o_rensho, 53);
    FIELD(o_leader, n);
    FIELD(o_trick, n * 53 + n);
    FIELD(o_last, n * 53 + n);
    FIELD(o_last_winner, n);
    FIELD(o_tricks_played, 1);
    FIELD(o_faces, n * 53);
#undef FIELD
    b->base_size = o;
    b->obs_size = o + (b->recall ? n * 53 : 0) + (b->recall == 2 ? STEP_ROWS * (n + NUM_ACTIONS + 1) : 0);
    for (int seat = 0; seat < n; seat++)
        for (int s = 0; s < n; s++) b->rel[seat][s] = (s - seat + n) % n;
}

static int Batch_init(Batch *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"n", "players", "initial_trump", "stop_at_zero", "games", "match", "recall", "autoreset",
                             "scale", "obs", "mask", "to_act", "rewards", "done", NULL};
    Py_ssize_t n;
    PyObject *scale, *obs, *mask, *to_act, *rewards, *done;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "the Kakeya vector core is not configured");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "niipipipOOOOOO", kwlist, &n, &self->players, &self->initial_trump,
                                     &self->stop_at_zero, &self->games, &self->match, &self->recall, &self->autoreset, &scale, &obs,
                                     &mask, &to_act, &rewards, &done))
        return -1;
    if (n < 1 || (self->players != 4 && self->players != 6) || self->initial_trump < 0 || self->initial_trump > 3 ||
        self->games < 0 || self->recall < 0 || self->recall > 2) {
        PyErr_SetString(PyExc_ValueError, "n >= 1, players 4 or 6, initial_trump 0-3, games >= 0, recall 0-2");
        return -1;
    }
    self->n = n;
    self->half = self->players / 2;
    set_layout(self);
    if (get_buffer(obs, &self->obs, n * self->obs_size, 4, "obs") < 0 ||
        get_buffer(mask, &self->mask, n * NUM_ACTIONS, 1, "mask") < 0 ||
        get_buffer(to_act, &self->to_act, n, 1, "to_act") < 0 ||
        get_buffer(rewards, &self->rewards, n * self->players, 4, "rewards") < 0 ||
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
    self->games_ = PyMem_Calloc((size_t)n, sizeof(Game));
    if (self->scale == NULL || self->games_ == NULL) {
        PyBuffer_Release(&sv);
        PyErr_NoMemory();
        return -1;
    }
    memcpy(self->scale, sv.buf, sv.len);
    PyBuffer_Release(&sv);
    memset(self->obs.buf, 0, self->obs.len);
    for (Py_ssize_t i = 0; i < n; i++) {
        self->games_[i].to_act = -1;
        self->games_[i].phase = PH_DEAL;
        mt_seed(&self->games_[i].rng, (uint64_t)i);
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
        for (Py_ssize_t i = 0; i < self->n; i++) mt_seed(&self->games_[i].rng, seeds[i]);
        PyBuffer_Release(&sv);
    }
    float *rewards = self->rewards.buf;
    uint8_t *done = self->done.buf;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        new_episode(self, &self->games_[i]);
        for (int s = 0; s < self->players; s++) rewards[self->players * i + s] = 0.0f;
        done[i] = 0;
        write_env(self, i);
    }
    Py_RETURN_NONE;
}

/* step(actions): one action (int64) per env for its seat to act.  Every action is checked first:
   an illegal one changes nothing and the call returns its env's index; else -1.  Rewards per
   seat and done flags are written; with autoreset an env whose game ended starts the next
   episode at once (its row then shows the new game). */
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
        if (a < 0 || a >= NUM_ACTIONS || self->games_[i].to_act < 0 || !(self->games_[i].legal >> a & 1)) {
            PyBuffer_Release(&av);
            return PyLong_FromSsize_t(i);
        }
    }
    float *rewards = self->rewards.buf;
    uint8_t *done = self->done.buf;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        Game *g = &self->games_[i];
        int ended = apply(self, g, (int)actions[i], rewards + self->players * i);
        if (ended && self->match && g->phase == PH_DEAL) { /* the match goes on: its next game */
            deal_cards(self, g);
            ended = 0;
        }
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
    if (i < 0 || i >= self->n || seat < 0 || seat >= self->players) {
        PyErr_SetString(PyExc_IndexError, "observe: no such env or seat");
        return NULL;
    }
    Py_buffer ov;
    if (get_buffer(out, &ov, self->obs_size, 4, "out") < 0) return NULL;
    memset(ov.buf, 0, ov.len);
    uint16_t nz[NZ_MAX];
    Writer w = {ov.buf, self->scale, nz, 0};
    encode(self, &self->games_[i], seat, &w);
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
        uint64_t m = self->games_[i].legal;
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

/* info(i): env i's state for tests and messages (every hand: not an observation). */
static PyObject *Batch_info(Batch *self, PyObject *arg) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0 || i >= self->n) {
        PyErr_SetString(PyExc_IndexError, "info: no such env");
        return NULL;
    }
    Game *g = &self->games_[i];
    PyObject *hands = PyTuple_New(self->players), *chips = PyTuple_New(self->half);
    if (hands == NULL || chips == NULL) {
        Py_XDECREF(hands);
        Py_XDECREF(chips);
        return NULL;
    }
    for (int s = 0; s < self->players; s++) PyTuple_SET_ITEM(hands, s, PyLong_FromUnsignedLongLong(g->hands[s]));
    for (int p = 0; p < self->half; p++) PyTuple_SET_ITEM(chips, p, PyLong_FromLong(g->chips[p]));
    return Py_BuildValue("{s:i,s:i,s:i,s:N,s:i,s:i,s:i,s:N,s:i}", "phase", g->phase, "to_act", g->to_act,
                         "deal_number", g->deal_no, "hands", hands, "trump", g->trump, "dealing_pair", g->dealing,
                         "leading_pair", g->leading, "chips", chips, "tricks_played", g->ntricks);
}

static PyObject *Batch_get_n(Batch *self, void *closure) { return PyLong_FromSsize_t(self->n); }
static PyObject *Batch_get_obs_size(Batch *self, void *closure) { return PyLong_FromSsize_t(self->obs_size); }
static PyObject *Batch_get_base_size(Batch *self, void *closure) { return PyLong_FromSsize_t(self->base_size); }

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
    {"base_size", (getter)Batch_get_base_size, NULL, "floats of the view (before the recall)", NULL},
    {NULL},
};

static PyType_Slot Batch_slots[] = {
    {Py_tp_dealloc, Batch_dealloc},
    {Py_tp_init, Batch_init},
    {Py_tp_new, PyType_GenericNew},
    {Py_tp_methods, Batch_methods},
    {Py_tp_getset, Batch_getset},
    {Py_tp_doc, "N Kakeya games stepped at once (see kirifuda.games.kakeya_vector)."},
    {0, NULL},
};

static PyType_Spec Batch_spec = {
    "kirifuda.games._kakeya_vector.Batch", sizeof(Batch), 0, Py_TPFLAGS_DEFAULT, Batch_slots,
};

/* configure(strength, suit_masks, face_mask, all_aces, start_chips): strength is the engine's
   STRENGTH[trump][led][card] flattened (4 * 4 * 53). */
static PyObject *configure(PyObject *module, PyObject *args) {
    PyObject *strength, *masks;
    unsigned long long faces, aces;
    int chips;
    if (!PyArg_ParseTuple(args, "OOKKi", &strength, &masks, &faces, &aces, &chips)) return NULL;
    if (!PySequence_Check(strength) || PySequence_Size(strength) != 4 * 4 * 53 || !PySequence_Check(masks) ||
        PySequence_Size(masks) != 4) {
        PyErr_SetString(PyExc_ValueError, "configure: strength needs 4 * 4 * 53 entries, suit_masks 4");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < 4 * 4 * 53; k++) {
        PyObject *x = PySequence_GetItem(strength, k);
        if (x == NULL) return NULL;
        STRENGTH[k / 212][(k / 53) % 4][k % 53] = (int)PyLong_AsLong(x);
        Py_DECREF(x);
        if (PyErr_Occurred()) return NULL;
    }
    for (Py_ssize_t k = 0; k < 4; k++) {
        PyObject *x = PySequence_GetItem(masks, k);
        if (x == NULL) return NULL;
        SUIT_MASK[k] = PyLong_AsUnsignedLongLong(x);
        Py_DECREF(x);
        if (PyErr_Occurred()) return NULL;
    }
    /* the rensho: the card strongest whatever is led */
    for (int t = 0; t < 4; t++) {
        RENSHO[t] = 0;
        for (int c = 0; c < 52; c++)
            if (STRENGTH[t][0][c] > STRENGTH[t][0][RENSHO[t]]) RENSHO[t] = c;
    }
    FACE_MASK = faces;
    ALL_ACES = aces;
    START_CHIPS = chips;
    configured = 1;
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"configure", configure, METH_VARARGS, "Hand the engine's card tables to the core."},
    {NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "kirifuda.games._kakeya_vector",
    "Kakeya games stepped N at once in C (see kirifuda.games.kakeya_vector).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__kakeya_vector(void) {
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
