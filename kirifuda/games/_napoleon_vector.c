/* Napoleon, N deals at once: the whole deal in C (dealing, the bidding, the adjutant's card,
 * the exchange with the middle, the re-declaration and its approvals, the play with the
 * almighty, the first-trick ace, same-2, the jacks, the joker and the ♠3 call, scoring), each
 * seat's observation vector and action mask written straight into numpy arrays.
 *
 * It is the batched core of kirifuda.env.vector for Napoleon (kirifuda.games.napoleon_vector
 * wraps it).  The engine (kirifuda.games.napoleon) is the truth: the deck's order and the
 * special cards come from it (configure()), the observation offsets are the encoder's (checked
 * and handed over by napoleon_vector.py), and the tests step this core and the Python env side
 * by side on the same deals and compare observations, masks, rewards and ends action by action.
 *
 * Cards are ids 0..52 (suit * 13 + rank - 2, suits ♠ ♥ ♦ ♣; the joker 52), a hand a 64-bit
 * mask.  Each env keeps the list of the slots it wrote in its observation row, so that the next
 * write clears those only (a row is ~3000 floats, ~100 of them non-zero).
 *
 * The random numbers: the engine's deal_random sorts the deck (in its set's order) by one
 * random.Random.random() per card, so each env carries a Mersenne Twister seeded as CPython seeds
 * random.Random(seed) from an integer and drawn as CPython draws random(): env i reset with seed
 * s deals what GameEnv("napoleon").reset(seed=s) deals, deal after deal.  (The benchmark's
 * random agents, sample(), draw from a splitmix64 stream of their own.)
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include "../_bitops.h"
#include "../_cpython_random.h"

#define JOKER 52
#define JK_BIT (1ULL << JOKER)
#define NUM_ACTIONS 249
#define LEGAL_WORDS 4

/* the action catalog (kirifuda.env.core.ActionCatalog of Napoleon; napoleon_vector.py checks it) */
#define A_JOKER_LEAD 53 /* + suit S H D C */
#define A_CALL_JOKER 58
#define A_BID 59        /* + (count - 11) * 4 + suit S H D C */
#define A_PASS 99
#define A_ADJUTANT 100  /* + card */
#define A_DISCARD 153   /* + card: one pick of the exchange's discard */
#define A_REDECLARE 206 /* none; then 207 + (count - 11) * 4 + suit S H D C */
#define A_APPROVE 247   /* yes; 248 no */

#define STEP_ROWS 320   /* the env's bound of steps a deal (ActionSpace.deal_steps) */
#define MAX_EVENTS 320  /* a deal has fewer steps than that (at most ~265) */
#define MAX_BIDS 256

/* the observation's fields, in the encoder's order; their offsets come from napoleon_vector.py */
enum {
    F_PHASE, F_TO_ACT, F_DEAL_NO, F_HAND, F_HAND_SIZES, F_TOTALS, F_PLAYERS, F_FIRST_BIDDER, F_BIDS,
    F_NAPOLEON, F_CONTRACT, F_ADJ_CARD, F_ADJUTANT, F_SOLO, F_MIDDLE, F_DISCARD, F_PROPOSAL, F_APPROVALS,
    F_TRICK, F_JOKER_REQUEST, F_JOKER_CALLED, F_LAST_TRICK, F_LAST_WINNER, F_TRICKS_PLAYED, F_FACE_TAKEN,
    F_DEALS_PLAYED, F_MATCH_LENGTH, F_YOROMEKI, F_FIRST_PLAIN, F_PENDING, F_BASE_SIZE, NUM_FIELDS
};

enum { PH_DEAL, PH_BIDDING, PH_ADJUTANT, PH_DISCARD, PH_REDECLARE, PH_APPROVE, PH_PLAY, PH_DONE };

/* the engine's tables, handed over by configure() */
static int DECK_ORDER[2][53]; /* the deck's ids in the order deal_random sorts them from */
static int DECK_LEN[2];
static int SA, SK, HQ, S3;
static int SAME_COLOUR[4];
static uint64_t FACE_MASK;
static int configured = 0;
static uint64_t BYTE_BITS[256]; /* a byte's eight bits as eight bytes 0/1 (little-endian order) */

#define NZ_MAX 1024 /* a deal writes fewer (~900 with recall="full"); more: the row is cleared whole */

typedef struct {
    uint64_t hands[5];
    uint64_t taken[5];     /* face cards taken per seat */
    uint64_t middle, discard, pending;
    MT rng;
    uint64_t legal[LEGAL_WORDS];
    int totals[5];
    int deal_no, played;
    int8_t phase, to_act, first_bidder, high, napoleon, passes, proposal, adj_card;
    int8_t adjutant, solo, adj_shown, trump, leader, trick_len, ntricks, led;
    int8_t request, called, has_last, last_leader, last_winner, napprovals;
    int8_t last_army;      /* the army's face cards of the episode's last played deal (info()) */
    int8_t trick_card[5], last_cards[5];
    int8_t appr_seat[5], appr_ok[5];
    int16_t nbids, nevents;
    int8_t bid_seat[MAX_BIDS];
    uint8_t bid_action[MAX_BIDS];
    int8_t ev_actor[MAX_EVENTS];
    uint8_t ev_action[MAX_EVENTS], ev_public[MAX_EVENTS];
    int nnz;
    uint32_t nz[NZ_MAX];   /* the slots written in this env's observation row */
} Game;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    int players, hand_size, low, nstrengths, joker, yoromeki, first_trick_plain, strategy_b, redeclare;
    int match_length, first, recall, autoreset, match;
    int off[NUM_FIELDS];
    Py_ssize_t obs_size;
    Game *games;
    float *scale;          /* obs_size factors (1 where nothing is scaled) */
    Py_buffer obs, mask, to_act, rewards, done;
} Batch;

/* -- random numbers and the deal ---------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The engine's deal_random: the deck sorted by one random() per card (a stable sort), the
   hands dealt in runs of hand_size, the rest the middle. */
static void deal_cards(const Batch *b, Game *g) {
    int len = DECK_LEN[b->joker];
    const int *order = DECK_ORDER[b->joker];
    uint64_t key[53]; /* random() * 2**53: the same order */
    int ids[53];
    for (int k = 0; k < len; k++) {
        key[k] = mt_random53(&g->rng);
        ids[k] = order[k];
    }
    for (int i = 1; i < len; i++) {  /* insertion sort: stable, as Python's sorted */
        uint64_t kv = key[i];
        int id = ids[i], j = i - 1;
        while (j >= 0 && key[j] > kv) {
            key[j + 1] = key[j];
            ids[j + 1] = ids[j];
            j--;
        }
        key[j + 1] = kv;
        ids[j + 1] = id;
    }
    int n = b->players, size = b->hand_size;
    for (int s = 0; s < 5; s++) g->hands[s] = 0;
    for (int k = 0; k < n * size; k++) g->hands[k / size] |= 1ULL << ids[k];
    g->middle = 0;
    for (int k = n * size; k < len; k++) g->middle |= 1ULL << ids[k];
}

static void reset_deal(Game *g) {
    g->phase = PH_BIDDING;
    g->to_act = g->first_bidder;
    g->high = -1;
    g->napoleon = -1;
    g->passes = 0;
    g->proposal = -1;
    g->adj_card = -1;
    g->adjutant = -1;
    g->solo = 0;
    g->adj_shown = 0;
    g->trump = 0;
    g->leader = 0;
    g->trick_len = 0;
    g->ntricks = 0;
    g->led = 0;
    g->request = -1;
    g->called = 0;
    g->has_last = 0;
    g->napprovals = 0;
    g->nbids = 0;
    g->nevents = 0;
    g->discard = g->pending = 0;
    for (int s = 0; s < 5; s++) g->taken[s] = 0;
}

/* A fresh match and its first deal. */
static void new_episode(const Batch *b, Game *g) {
    g->deal_no = 0;
    g->played = 0;
    for (int s = 0; s < 5; s++) g->totals[s] = 0;
    g->first_bidder = (int8_t)b->first;
    deal_cards(b, g);
    reset_deal(g);
}

/* -- declarations: strength h (the engine's order, weakest first: counts from the table's
 * lowest, suits ♣ ♦ ♥ ♠) and catalog indices (counts from 11, suits ♠ ♥ ♦ ♣) ------------------- */

static KF_ALWAYS_INLINE int count_of(const Batch *b, int h) { return b->low + h / 4; }
static KF_ALWAYS_INLINE int suit_of(int h) { return 3 - (h & 3); } /* S H D C index */
static KF_ALWAYS_INLINE int bid_action(const Batch *b, int h) { return A_BID + (count_of(b, h) - 11) * 4 + suit_of(h); }
static KF_ALWAYS_INLINE int strength_of(const Batch *b, int count, int suit) { return (count - b->low) * 4 + 3 - suit; }

/* -- rules --------------------------------------------------------------------------------- */

#define SUIT_BITS(s) (0x1FFFULL << (13 * (s)))

static uint64_t legal_play_mask(const Game *g, uint64_t hand) {
    if (g->trick_len == 0) return hand;
    if (hand & JK_BIT) {
        if (g->called || hand == JK_BIT) return JK_BIT;
        uint64_t follow = hand & SUIT_BITS(g->led);
        return follow ? follow : hand ^ JK_BIT;
    }
    uint64_t follow = hand & SUIT_BITS(g->led);
    return follow ? follow : hand;
}

#define SET_LEGAL(g, i) ((g)->legal[(i) >> 6] |= 1ULL << ((i) & 63))
#define IS_LEGAL(g, i) (((g)->legal[(i) >> 6] >> ((i) & 63)) & 1)

static void compute_legal(const Batch *b, Game *g) {
    for (int k = 0; k < LEGAL_WORDS; k++) g->legal[k] = 0;
    int s = g->to_act;
    if (s < 0) return;
    uint64_t hand = g->hands[s];
    switch (g->phase) {
    case PH_BIDDING:
        SET_LEGAL(g, A_PASS);
        for (int h = g->high + 1; h < b->nstrengths; h++) SET_LEGAL(g, bid_action(b, h));
        break;
    case PH_ADJUTANT:
        for (int k = 0; k < DECK_LEN[b->joker]; k++) SET_LEGAL(g, A_ADJUTANT + DECK_ORDER[b->joker][k]);
        break;
    case PH_DISCARD:
        for (uint64_t m = hand & ~g->pending; m; m &= m - 1) SET_LEGAL(g, A_DISCARD + kf_ctz(m));
        break;
    case PH_REDECLARE:
        SET_LEGAL(g, A_REDECLARE);
        for (int c = count_of(b, g->high) + 1; c <= 20; c++)
            for (int t = 0; t < 4; t++) SET_LEGAL(g, A_REDECLARE + 1 + (c - 11) * 4 + t);
        break;
    case PH_APPROVE:
        SET_LEGAL(g, A_APPROVE);
        SET_LEGAL(g, A_APPROVE + 1);
        break;
    case PH_PLAY: {
        uint64_t m = legal_play_mask(g, hand);
        if (g->trick_len == 0) {
            g->legal[0] |= m & ~JK_BIT;
            if (b->joker) {
                if (m >> S3 & 1) SET_LEGAL(g, A_CALL_JOKER);
                if (m & JK_BIT)
                    for (int r = 0; r < 4; r++) SET_LEGAL(g, A_JOKER_LEAD + r);
            }
        } else {
            g->legal[0] |= m;  /* play: indices 0..52 are the card ids */
        }
        break;
    }
    default:
        break;
    }
}

/* The engine's trick_winner: the index in play order of the card that wins (spec §6). */
static int trick_winner(const int8_t *cards, int len, int led, int trump, int first, int yoromeki, int plain) {
    int sa = -1, hq = -1, joker = -1;
    for (int i = 0; i < len; i++) {
        if (cards[i] == SA) sa = i;
        if (cards[i] == HQ) hq = i;
        if (cards[i] == JOKER) joker = i;
    }
    if (sa >= 0) return yoromeki && hq >= 0 ? hq : sa;
    if (first) {
        if (plain) {
            int best = -1, bi = -1;
            for (int i = 0; i < len; i++)
                if (cards[i] != JOKER && cards[i] / 13 == led && cards[i] % 13 > best) best = cards[i] % 13, bi = i;
            return bi >= 0 ? bi : joker;
        }
        int ace = led == 0 ? SK : led * 13 + 12;
        for (int i = 0; i < len; i++)
            if (cards[i] == ace) return i;
    }
    if (joker < 0) {
        int suit = cards[0] / 13, same = 1;
        for (int i = 1; i < len; i++) same &= cards[i] / 13 == suit;
        if (same)
            for (int i = 0; i < len; i++)
                if (cards[i] == suit * 13) return i;
    }
    int main_jack = trump * 13 + 9, back_jack = SAME_COLOUR[trump] * 13 + 9;
    for (int i = 0; i < len; i++)
        if (cards[i] == main_jack) return i;
    for (int i = 0; i < len; i++)
        if (cards[i] == back_jack) return i;
    int suits[2] = {trump, led};
    for (int k = 0; k < 2; k++) {
        int best = -1, bi = -1;
        for (int i = 0; i < len; i++)
            if (cards[i] != JOKER && cards[i] / 13 == suits[k] && cards[i] % 13 > best) best = cards[i] % 13, bi = i;
        if (bi >= 0) return bi;
    }
    return joker;
}

/* The deal ends: its score per seat joins the totals and is the step's reward. */
static void end_deal(const Batch *b, Game *g, const int *score, int played, float *rewards) {
    int n = b->players;
    for (int s = 0; s < n; s++) {
        g->totals[s] += score[s];
        rewards[s] = (float)score[s];
    }
    g->deal_no++;
    if (played) g->played++;
    else g->last_army = -1;
    g->first_bidder = (int8_t)((g->first_bidder + 1) % n);
    g->to_act = -1;
    g->trick_len = 0;
    g->phase = g->played >= b->match_length ? PH_DONE : PH_DEAL;
}

static void score_deal(const Batch *b, Game *g, float *rewards) {
    int n = b->players, nap = g->napoleon, adj = g->solo ? -1 : g->adjutant;
    uint64_t army_mask = g->taken[nap] | (adj >= 0 ? g->taken[adj] : 0);
    int army = kf_popcount(army_mask), declared = count_of(b, g->high);
    g->last_army = (int8_t)army;
    int wins = (b->strategy_b && army == 20 && declared < 20) ? 0 : army >= declared;
    int k = declared - 10, solo = adj < 0;
    int p_nap = n == 5 ? (solo ? 4 * k : 2 * k) : (solo ? 3 * k : k);
    int p_adj = solo ? 0 : k, sign = wins ? 1 : -1;
    int score[5];
    for (int s = 0; s < n; s++) score[s] = -sign * k;
    score[nap] = sign * p_nap;
    if (adj >= 0) score[adj] = sign * p_adj;
    end_deal(b, g, score, 1, rewards);
}

static void start_play(Game *g) {
    g->phase = PH_PLAY;
    g->leader = g->napoleon;
    g->to_act = g->napoleon;
}

static void play(const Batch *b, Game *g, int seat, int cid, int request, int call, float *rewards) {
    int n = b->players;
    g->hands[seat] ^= 1ULL << cid;
    if (cid == g->adj_card) g->adj_shown = 1;
    if (g->trick_len == 0) {
        g->has_last = 0;
        if (cid == JOKER) {
            g->request = (int8_t)request;
            g->led = (int8_t)request;
        } else {
            g->request = -1;
            g->led = (int8_t)(cid / 13);
        }
        g->called = (int8_t)call;
    }
    g->trick_card[g->trick_len++] = (int8_t)cid;
    if (g->trick_len < n) {
        g->to_act = (int8_t)((seat + 1) % n);
        return;
    }
    int i = trick_winner(g->trick_card, n, g->led, g->trump, g->ntricks == 0, b->yoromeki, b->first_trick_plain);
    int w = (g->leader + i) % n;
    g->has_last = 1;
    g->last_leader = g->leader;
    g->last_winner = (int8_t)w;
    memcpy(g->last_cards, g->trick_card, sizeof g->last_cards);
    uint64_t m = 0;
    for (int k = 0; k < n; k++) m |= 1ULL << g->trick_card[k];
    g->taken[w] |= m & FACE_MASK;
    g->trick_len = 0;
    g->called = 0;
    g->request = -1;
    if (++g->ntricks == b->hand_size) {
        score_deal(b, g, rewards);
        return;
    }
    g->leader = g->to_act = (int8_t)w;
}

/* One legal action of the seat to act; returns 1 when the episode ended (the deal, or with
   match the match: a deal that ends before then is followed by the next one at once). */
static int apply(const Batch *b, Game *g, int a, float *rewards) {
    int n = b->players, seat = g->to_act, pick = 0;
    for (int s = 0; s < n; s++) rewards[s] = 0.0f;
    if (a < A_JOKER_LEAD) {
        play(b, g, seat, a, -1, 0, rewards);
    } else if (a < A_CALL_JOKER) {
        play(b, g, seat, JOKER, a - A_JOKER_LEAD, 0, rewards);
    } else if (a == A_CALL_JOKER) {
        play(b, g, seat, S3, -1, 1, rewards);
    } else if (a <= A_PASS) {
        g->bid_seat[g->nbids] = (int8_t)seat;
        g->bid_action[g->nbids++] = (uint8_t)a;
        if (a < A_PASS) {
            g->high = (int8_t)strength_of(b, 11 + (a - A_BID) / 4, (a - A_BID) % 4);
            g->napoleon = (int8_t)seat;
            g->passes = 0;
            g->to_act = (int8_t)((seat + 1) % n);
        } else if (++g->passes < n) {
            g->to_act = (int8_t)((seat + 1) % n);
        } else if (g->napoleon < 0) { /* all pass: the deal is void */
            int zero[5] = {0, 0, 0, 0, 0};
            end_deal(b, g, zero, 0, rewards);
        } else {
            g->trump = (int8_t)suit_of(g->high);
            g->phase = PH_ADJUTANT;
            g->to_act = g->napoleon;
        }
    } else if (a < A_DISCARD) {
        int cid = a - A_ADJUTANT, holder = -1;
        g->adj_card = (int8_t)cid;
        for (int s = 0; s < n; s++)
            if (g->hands[s] >> cid & 1) holder = s;
        if (holder < 0 || holder == seat) {
            g->solo = 1;
            g->adjutant = -1;
        } else {
            g->adjutant = (int8_t)holder;
        }
        g->hands[seat] |= g->middle;
        g->phase = PH_DISCARD;
    } else if (a < A_REDECLARE) {
        pick = 1;
        g->pending |= 1ULL << (a - A_DISCARD);
        if (kf_popcount(g->pending) == kf_popcount(g->middle)) {
            g->discard = g->pending;
            g->hands[seat] &= ~g->pending;
            g->pending = 0;
            if (b->redeclare) g->phase = PH_REDECLARE;
            else start_play(g);
        }
    } else if (a == A_REDECLARE) {
        start_play(g);
    } else if (a < A_APPROVE) {
        int k = a - A_REDECLARE - 1;
        g->proposal = (int8_t)strength_of(b, 11 + k / 4, k % 4);
        g->phase = PH_APPROVE;
        g->to_act = (int8_t)((seat + 1) % n);
    } else {
        int ok = a == A_APPROVE;
        g->appr_seat[g->napprovals] = (int8_t)seat;
        g->appr_ok[g->napprovals++] = (int8_t)ok;
        if (!ok) {
            start_play(g);
        } else if ((seat + 1) % n == g->napoleon) {  /* everyone approved */
            g->high = g->proposal;
            g->trump = (int8_t)suit_of(g->high);
            start_play(g);
        } else {
            g->to_act = (int8_t)((seat + 1) % n);
        }
    }
    int ended = g->phase == PH_DEAL || g->phase == PH_DONE;
    if (ended && b->match && g->phase == PH_DEAL) {  /* the match goes on: the next deal, at once */
        deal_cards(b, g);
        reset_deal(g);
        return 0;
    }
    if (!ended && g->nevents < MAX_EVENTS) {  /* what each seat witnessed (the env's recall) */
        int t = g->nevents++;
        g->ev_actor[t] = (int8_t)seat;
        g->ev_action[t] = (uint8_t)a;
        g->ev_public[t] = (uint8_t)!pick;  /* a discard is Napoleon's alone; plays and names show */
    }
    return ended;
}

/* -- the observation ------------------------------------------------------------------------ */

typedef struct {
    float *row;
    const float *scale;
    uint32_t *nz;
    int nnz;
} Writer;

static KF_ALWAYS_INLINE void put(Writer *w, int i, float v) {
    if (v == 0.0f) return;
    w->row[i] = v * w->scale[i];
    if (w->nnz < NZ_MAX) w->nz[w->nnz++] = (uint32_t)i;
}

static KF_ALWAYS_INLINE void add(Writer *w, int i) {
    if (w->row[i] == 0.0f && w->nnz < NZ_MAX) w->nz[w->nnz++] = (uint32_t)i;
    w->row[i] += 1.0f;
}

static KF_ALWAYS_INLINE void put_cards(Writer *w, int o, uint64_t m) {
    for (; m; m &= m - 1) put(w, o + kf_ctz(m), 1.0f);
}

static void encode(const Batch *b, const Game *g, int seat, Writer *w) {
    const int *O = b->off;
    int n = b->players;
#define REL(s) ((((s) - seat) % n + n) % n)
    int ph = g->phase;
    int in_deal = ph >= PH_BIDDING && ph <= PH_PLAY;
    int named = in_deal && ph != PH_BIDDING; /* Napoleon and the contract are known */
    int is_nap = named && seat == g->napoleon;
    put(w, O[F_PHASE] + ph, 1.0f);
    if (g->to_act >= 0) put(w, O[F_TO_ACT] + REL(g->to_act), 1.0f);
    put(w, O[F_DEAL_NO], (float)g->deal_no);
    for (int s = 0; s < n; s++) put(w, O[F_TOTALS] + REL(s), (float)g->totals[s]);
    put(w, O[F_PLAYERS], (float)n);
    put(w, O[F_DEALS_PLAYED], (float)g->played);
    put(w, O[F_MATCH_LENGTH], (float)b->match_length);
    put(w, O[F_YOROMEKI], (float)b->yoromeki);
    put(w, O[F_FIRST_PLAIN], (float)b->first_trick_plain);
    if (in_deal) {
        put_cards(w, O[F_HAND], g->hands[seat]);
        for (int s = 0; s < n; s++) put(w, O[F_HAND_SIZES] + REL(s), (float)kf_popcount(g->hands[s]));
        put(w, O[F_FIRST_BIDDER] + REL(g->first_bidder), 1.0f);
        for (int k = 0; k < g->nbids; k++) add(w, O[F_BIDS] + REL(g->bid_seat[k]) * NUM_ACTIONS + g->bid_action[k]);
        if (g->nbids) {
            int k = g->nbids - 1;
            put(w, O[F_BIDS] + n * NUM_ACTIONS + REL(g->bid_seat[k]), 1.0f);
            put(w, O[F_BIDS] + n * NUM_ACTIONS + n + g->bid_action[k], 1.0f);
        }
        if (named) {
            put(w, O[F_NAPOLEON] + REL(g->napoleon), 1.0f);
            put(w, O[F_CONTRACT] + bid_action(b, g->high), 1.0f);
        }
        if (g->adj_card >= 0) {
            put(w, O[F_ADJ_CARD] + g->adj_card, 1.0f);
            /* the adjutant and solo as far as this seat knows them */
            int adj = -1, solo = -1;
            if (g->adj_shown) {
                if (g->solo) solo = 1;
                else adj = g->adjutant, solo = 0;
            } else if (g->solo) {
                if (seat == g->napoleon) solo = 1;
            } else if (seat == g->adjutant) {
                adj = seat, solo = 0;
            }
            if (adj >= 0) put(w, O[F_ADJUTANT] + REL(adj), 1.0f);
            if (solo >= 0) put(w, O[F_SOLO] + (solo ? 0 : 1), 1.0f);
        }
        if (is_nap) {
            if (ph >= PH_DISCARD) put_cards(w, O[F_MIDDLE], g->middle);
            put_cards(w, O[F_DISCARD], g->discard);
        }
        if (ph == PH_APPROVE) put(w, O[F_PROPOSAL] + bid_action(b, g->proposal), 1.0f);
        for (int k = 0; k < g->napprovals; k++)
            put(w, O[F_APPROVALS] + (g->appr_ok[k] ? 0 : n) + REL(g->appr_seat[k]), 1.0f);
        if (g->trick_len) {
            for (int k = 0; k < g->trick_len; k++)
                put(w, O[F_TRICK] + REL(g->leader + k) * 53 + g->trick_card[k], 1.0f);
            put(w, O[F_TRICK] + n * 53 + REL(g->leader), 1.0f);
            if (g->request >= 0) put(w, O[F_JOKER_REQUEST] + g->request, 1.0f);
            put(w, O[F_JOKER_CALLED], (float)g->called);
        } else if (g->has_last) {
            for (int k = 0; k < n; k++)
                put(w, O[F_LAST_TRICK] + REL(g->last_leader + k) * 53 + g->last_cards[k], 1.0f);
            put(w, O[F_LAST_TRICK] + n * 53 + REL(g->last_leader), 1.0f);
            put(w, O[F_LAST_WINNER] + REL(g->last_winner), 1.0f);
        }
        put(w, O[F_TRICKS_PLAYED], (float)g->ntricks);
        for (int s = 0; s < n; s++) put_cards(w, O[F_FACE_TAKEN] + REL(s) * 53, g->taken[s]);
        if (seat == g->to_act) put_cards(w, O[F_PENDING], g->pending);
    }
    if (b->recall) {  /* the seat's memory of the deal, after the view's slots (not scaled) */
        int base = O[F_BASE_SIZE], row = n + NUM_ACTIONS + 1;
        for (int t = 0; t < g->nevents; t++) {
            int actor = g->ev_actor[t], a = g->ev_action[t];
            int seen = g->ev_public[t] || actor == seat;
            if (seen && a <= A_CALL_JOKER) {
                int card = a < A_JOKER_LEAD ? a : a == A_CALL_JOKER ? S3 : JOKER;
                put(w, base + REL(actor) * 53 + card, 1.0f);
            }
            if (b->recall == 2 && t < STEP_ROWS) {
                int o = base + n * 53 + t * row;
                put(w, o + REL(actor), 1.0f);
                put(w, o + n + (seen ? a : NUM_ACTIONS), 1.0f);
            }
        }
    }
#undef REL
}

/* Rewrite env i's observation row and mask (the seat to act's; seat 0's once the deal ended). */
static void write_env(Batch *b, Py_ssize_t i) {
    Game *g = &b->games[i];
    float *row = (float *)b->obs.buf + i * b->obs_size;
    if (g->nnz >= NZ_MAX) memset(row, 0, sizeof(float) * (size_t)b->obs_size);
    else for (int k = 0; k < g->nnz; k++) row[g->nz[k]] = 0.0f;
    Writer w = {row, b->scale, g->nz, 0};
    encode(b, g, g->to_act >= 0 ? g->to_act : 0, &w);
    g->nnz = w.nnz;
    compute_legal(b, g);
    int8_t *mask = (int8_t *)b->mask.buf + i * NUM_ACTIONS;
    for (int k = 0; k + 8 <= NUM_ACTIONS; k += 8)  /* eight mask bytes per byte of the bit set */
        memcpy(mask + k, &BYTE_BITS[(g->legal[k >> 6] >> (k & 63)) & 0xFF], 8);
    for (int k = NUM_ACTIONS & ~7; k < NUM_ACTIONS; k++) mask[k] = (int8_t)IS_LEGAL(g, k);
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
    static char *kwlist[] = {"n", "first", "players", "joker", "yoromeki", "first_trick_plain", "strategy_b",
                             "redeclare", "match_length", "recall", "autoreset", "match", "offsets", "scale",
                             "obs", "mask", "to_act", "rewards", "done", NULL};
    Py_ssize_t n;
    PyObject *offsets, *scale, *obs, *mask, *to_act, *rewards, *done;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "the Napoleon vector core is not configured");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "niipppppiippOOOOOOO", kwlist, &n, &self->first, &self->players,
                                     &self->joker, &self->yoromeki, &self->first_trick_plain, &self->strategy_b,
                                     &self->redeclare, &self->match_length, &self->recall, &self->autoreset,
                                     &self->match, &offsets, &scale, &obs, &mask, &to_act, &rewards, &done))
        return -1;
    if (n < 1 || (self->players != 4 && self->players != 5) || self->first < 0 || self->first >= self->players ||
        self->match_length < 1 || self->recall < 0 || self->recall > 2) {
        PyErr_SetString(PyExc_ValueError, "n >= 1, players 4 or 5, first a seat, match_length >= 1, recall 0-2");
        return -1;
    }
    if (!PySequence_Check(offsets) || PySequence_Size(offsets) != NUM_FIELDS) {
        PyErr_Format(PyExc_ValueError, "offsets: %d field offsets", NUM_FIELDS);
        return -1;
    }
    for (int k = 0; k < NUM_FIELDS; k++) {
        PyObject *x = PySequence_GetItem(offsets, k);
        if (x == NULL) return -1;
        self->off[k] = (int)PyLong_AsLong(x);
        Py_DECREF(x);
        if (PyErr_Occurred()) return -1;
    }
    self->n = n;
    self->hand_size = self->players == 5 ? 10 : 12;
    self->low = self->players == 5 ? 11 : 13;
    self->nstrengths = (21 - self->low) * 4;
    int np = self->players;
    self->obs_size = self->off[F_BASE_SIZE] + (self->recall ? np * 53 : 0) +
                     (self->recall == 2 ? STEP_ROWS * (np + NUM_ACTIONS + 1) : 0);
    if (get_buffer(obs, &self->obs, n * self->obs_size, 4, "obs") < 0 ||
        get_buffer(mask, &self->mask, n * NUM_ACTIONS, 1, "mask") < 0 ||
        get_buffer(to_act, &self->to_act, n, 1, "to_act") < 0 ||
        get_buffer(rewards, &self->rewards, n * np, 4, "rewards") < 0 ||
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
    int np = self->players;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        Game *g = &self->games[i];
        new_episode(self, g);
        for (int s = 0; s < np; s++) rewards[np * i + s] = 0.0f;
        done[i] = 0;
        write_env(self, i);
    }
    Py_RETURN_NONE;
}

/* step(actions): one action (int64) per env for its seat to act.  Every action is checked first:
   an illegal one changes nothing and the call returns its env's index; else -1.  Rewards per
   seat and done flags are written; with autoreset an env whose deal ended starts the next
   episode at once (its row then shows the new deal). */
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
        if (a < 0 || a >= NUM_ACTIONS || self->games[i].to_act < 0 || !IS_LEGAL(&self->games[i], (int)a)) {
            PyBuffer_Release(&av);
            return PyLong_FromSsize_t(i);
        }
    }
    float *rewards = self->rewards.buf;
    uint8_t *done = self->done.buf;
    int np = self->players;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        Game *g = &self->games[i];
        int ended = apply(self, g, (int)actions[i], rewards + np * i);
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
    uint32_t nz[NZ_MAX];
    Writer w = {ov.buf, self->scale, nz, 0};
    encode(self, &self->games[i], seat, &w);
    PyBuffer_Release(&ov);
    Py_RETURN_NONE;
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
        int count = 0;
        for (int w = 0; w < LEGAL_WORDS; w++) count += kf_popcount(g->legal[w]);
        if (count == 0) { acts[i] = -1; continue; }
        uint64_t x = splitmix64(&s);
        int r = (int)(((x >> 32) * (uint64_t)count) >> 32);
        for (int w = 0; w < LEGAL_WORDS; w++) {
            int c = kf_popcount(g->legal[w]);
            if (r < c) {
                uint64_t m = g->legal[w];
                for (int k = 0; k < r; k++) m &= m - 1;
                acts[i] = 64 * w + kf_ctz(m);
                break;
            }
            r -= c;
        }
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
    PyObject *hands = PyTuple_New(self->players);
    if (hands == NULL) return NULL;
    for (int s = 0; s < self->players; s++) {
        PyObject *h = PyLong_FromUnsignedLongLong(g->hands[s]);
        if (h == NULL) {
            Py_DECREF(hands);
            return NULL;
        }
        PyTuple_SET_ITEM(hands, s, h);
    }
    return Py_BuildValue("{s:i,s:i,s:i,s:N,s:K,s:i,s:i,s:i,s:i,s:i,s:i}", "phase", g->phase, "to_act",
                         g->to_act, "deal_number", g->deal_no, "hands", hands, "middle", g->middle, "napoleon",
                         g->napoleon, "adjutant", g->adjutant, "solo", g->solo, "tricks_played", g->ntricks,
                         "last_army_face_cards", g->last_army, "deals_played", g->played);
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
    {Py_tp_doc, "N Napoleon deals stepped at once (see kirifuda.games.napoleon_vector)."},
    {0, NULL},
};

static PyType_Spec Batch_spec = {
    "kirifuda.games._napoleon_vector.Batch", sizeof(Batch), 0, Py_TPFLAGS_DEFAULT, Batch_slots,
};

static int read_ints(PyObject *seq, int *out, Py_ssize_t len, const char *name) {
    if (!PySequence_Check(seq) || PySequence_Size(seq) != len) {
        PyErr_Format(PyExc_ValueError, "configure: %s needs %zd entries", name, len);
        return -1;
    }
    for (Py_ssize_t k = 0; k < len; k++) {
        PyObject *x = PySequence_GetItem(seq, k);
        if (x == NULL) return -1;
        out[k] = (int)PyLong_AsLong(x);
        Py_DECREF(x);
        if (PyErr_Occurred()) return -1;
    }
    return 0;
}

/* configure(deck, deck_with_joker, specials (♠A ♠K ♥Q ♠3), same_colour, face_mask) */
static PyObject *configure(PyObject *module, PyObject *args) {
    PyObject *deck, *deck_jk, *specials, *colours;
    unsigned long long faces;
    if (!PyArg_ParseTuple(args, "OOOOK", &deck, &deck_jk, &specials, &colours, &faces)) return NULL;
    int sp[4];
    if (read_ints(deck, DECK_ORDER[0], 52, "deck") < 0 || read_ints(deck_jk, DECK_ORDER[1], 53, "deck_with_joker") < 0 ||
        read_ints(specials, sp, 4, "specials") < 0 || read_ints(colours, SAME_COLOUR, 4, "same_colour") < 0)
        return NULL;
    DECK_LEN[0] = 52;
    DECK_LEN[1] = 53;
    SA = sp[0];
    SK = sp[1];
    HQ = sp[2];
    S3 = sp[3];
    FACE_MASK = faces;
    for (int v = 0; v < 256; v++) {
        unsigned char bytes[8];
        for (int j = 0; j < 8; j++) bytes[j] = (unsigned char)(v >> j & 1);
        memcpy(&BYTE_BITS[v], bytes, 8);
    }
    configured = 1;
    Py_RETURN_NONE;
}

/* random_words(seed, n) -> n random() draws of random.Random(seed), as 53-bit integers (the
   tests hold them against CPython's). */
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

/* trick_winner(cards, led, trump, first, yoromeki, first_trick_plain) -> index: the core's rule
   of the trick, for the tests to hold against the engine's on any trick. */
static PyObject *winner(PyObject *module, PyObject *args) {
    PyObject *cards;
    int led, trump, first, yoromeki, plain;
    if (!PyArg_ParseTuple(args, "Oiippp", &cards, &led, &trump, &first, &yoromeki, &plain)) return NULL;
    int ids[5];
    Py_ssize_t len = PySequence_Check(cards) ? PySequence_Size(cards) : -1;
    if (!configured || len < 4 || len > 5 || led < 0 || led > 3 || trump < 0 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "trick_winner: 4 or 5 card ids, led and trump 0-3 (configure() first)");
        return NULL;
    }
    if (read_ints(cards, ids, len, "cards") < 0) return NULL;
    int8_t c8[5];
    for (Py_ssize_t k = 0; k < len; k++) {
        if (ids[k] < 0 || ids[k] > JOKER) {
            PyErr_SetString(PyExc_ValueError, "trick_winner: card ids 0-52");
            return NULL;
        }
        c8[k] = (int8_t)ids[k];
    }
    return PyLong_FromLong(trick_winner(c8, (int)len, led, trump, first, yoromeki, plain));
}

static PyMethodDef module_methods[] = {
    {"configure", configure, METH_VARARGS, "Hand the engine's card tables to the core."},
    {"trick_winner", winner, METH_VARARGS, "trick_winner(cards, led, trump, first, yoromeki, plain) -> index."},
    {"random_words", random_words, METH_VARARGS, "random_words(seed, n) -> random.Random(seed)'s first n random() * 2**53."},
    {NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "kirifuda.games._napoleon_vector",
    "Napoleon deals stepped N at once in C (see kirifuda.games.napoleon_vector).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__napoleon_vector(void) {
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL) return NULL;
    const char *names[] = {"NUM_ACTIONS", "A_JOKER_LEAD", "A_CALL_JOKER", "A_BID", "A_PASS", "A_ADJUTANT",
                           "A_DISCARD", "A_REDECLARE", "A_APPROVE", "STEP_ROWS", "NUM_FIELDS"};
    int values[] = {NUM_ACTIONS, A_JOKER_LEAD, A_CALL_JOKER, A_BID, A_PASS, A_ADJUTANT,
                    A_DISCARD, A_REDECLARE, A_APPROVE, STEP_ROWS, NUM_FIELDS};
    for (size_t k = 0; k < sizeof values / sizeof values[0]; k++) {
        if (PyModule_AddIntConstant(m, names[k], values[k]) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    }
    PyObject *type = PyType_FromSpec(&Batch_spec);
    if (type == NULL || PyModule_AddObject(m, "Batch", type) < 0) {
        Py_XDECREF(type);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
