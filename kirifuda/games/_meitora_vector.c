/* Meitora, N deals at once: the whole deal in C (dealing, the four-jacks redeal, bidding and
 * broken, the agari and the negri, the play with joker requests, the claim and its check,
 * scoring), each seat's observation vector and action mask written straight into numpy arrays.
 *
 * It is the batched core of kirifuda.env.vector for Meitora (kirifuda.games.meitora_vector
 * wraps it).  The engine (kirifuda.games.meitora) is the truth: the tables of the card order
 * come from it (configure()), and the tests step this core and the Python env side by side on
 * the same deals and compare observations, masks, rewards and ends action by action.
 *
 * Layout of the observation: the Python env's (kirifuda.env.core.ObservationEncoder of
 * MeitoraView, kirifuda-env/2); meitora_vector.py checks the offsets below against the encoder's
 * layout before it builds a batch.  Cards are ids 0..52 (suit * 13 + rank - 2; the joker 52),
 * a hand a 64-bit mask.  Each env keeps the list of the slots it wrote in its observation row,
 * so that the next write clears those only (a row is ~2000 floats, ~100 of them non-zero).
 *
 * The random numbers: one splitmix64 stream per env (seeded with the env's seed); a deal takes
 * 40 words of it, the Fisher-Yates shuffle of the engine's deal_random (the same words as
 * bytes, little-endian, deal the same cards there).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include "../_bitops.h"

#define JOKER 52
#define JK_BIT (1ULL << JOKER)
#define NO_SUIT 4
#define NUM_ACTIONS 139

/* the action catalog (kirifuda.env.core.ActionCatalog of Meitora) */
#define A_JOKER_LEAD 53
#define A_BID 58
#define A_PASS 83
#define A_BROKEN 84
#define A_DISCARD 85
#define A_CLAIM 138

/* the observation layout (offsets of the view's fields) */
#define O_PHASE 0
#define O_TO_ACT 5
#define O_DEAL_NO 9
#define O_HAND 10
#define O_HAND_SIZES 63
#define O_TOTALS 67
#define O_FIRST_BIDDER 71
#define O_BIDS 75
#define O_DECLARER 774
#define O_CONTRACT 778
#define O_AGARI 917
#define O_NEGRI 970
#define O_TRICK 1023
#define O_JOKER_REQUEST 1239
#define O_LAST_TRICK 1246
#define O_LAST_WINNER 1462
#define O_TRICKS_PLAYED 1466
#define O_TEAM_TRICKS 1467
#define O_OWN_TRICKS 1471
#define O_TARGET 1684
#define O_LAST_REQUEST 1685
#define O_OWN_REQUESTS 1692
#define BASE_SIZE 1964
#define STEP_ROW (4 + NUM_ACTIONS + 1)
#define STEP_ROWS 64

enum { PH_DEAL, PH_BIDDING, PH_DISCARD, PH_PLAY, PH_DONE };

/* the engine's tables, handed over by configure() */
static int DECK[41];
static int EFF[5][53];
static uint64_t SUIT_MASK[5][5];
static int STRENGTH[5][5][53];
static uint64_t ALL_JACKS, HONOUR_MASK, QUEEN_MASK;
static int TRUMP_OF_STRAIN[5]; /* suit index, or NO_SUIT in no-trump */
static int configured = 0;

#define NZ_MAX 400

typedef struct {
    uint64_t hands[4];
    uint64_t rng;
    uint64_t legal[3];     /* the legal action indices as bits */
    int deal_no;
    int totals[2];         /* half points */
    int8_t phase, to_act, first_bidder, high, declarer, bid_turns, agari, negri;
    int8_t strain, led, leader, trick_len, ntricks, req_word, joker_word, nbids;
    int8_t team_tricks[2];
    int8_t trick_card[4];
    int8_t bid_seat[4];
    uint8_t bid_action[4];
    int8_t t_leader[10], t_cards[10][4], t_winner[10];
    uint8_t nsteps;
    uint8_t step_actor[STEP_ROWS], step_action[STEP_ROWS], step_public[STEP_ROWS];
    int nnz;
    uint16_t nz[NZ_MAX];   /* the slots written in this env's observation row */
} Game;

typedef struct {
    PyObject_HEAD
    Py_ssize_t n;
    int first, target, joker_request, claim_in_mask, auto_claim, recall, autoreset;
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

static void deal_cards(Game *g) {
    int ids[41];
    memcpy(ids, DECK, sizeof ids);
    for (int i = 40; i > 0; i--) {
        uint64_t x = splitmix64(&g->rng);
        uint64_t m = (uint64_t)(i + 1);
        /* floor(x * (i + 1) / 2^64) in 64-bit halves, as the engine's deal_masks */
        int j = (int)(((x >> 32) * m + (((x & 0xFFFFFFFFULL) * m) >> 32)) >> 32);
        int t = ids[i]; ids[i] = ids[j]; ids[j] = t;
    }
    for (int s = 0; s < 4; s++) g->hands[s] = 0;
    for (int k = 0; k < 40; k++) g->hands[k / 10] |= 1ULL << ids[k];
    g->agari = (int8_t)ids[40];
}

static void reset_deal(Game *g) {
    g->phase = PH_BIDDING;
    g->to_act = g->first_bidder;
    g->high = -1;
    g->declarer = -1;
    g->bid_turns = 0;
    g->negri = -1;
    g->strain = 4;
    g->led = NO_SUIT;
    g->leader = 0;
    g->trick_len = 0;
    g->ntricks = 0;
    g->req_word = -1;
    g->joker_word = -1;
    g->nbids = 0;
    g->team_tricks[0] = g->team_tricks[1] = 0;
    g->nsteps = 0;
}

/* A fresh match and its first deal; a deal with four jacks in one hand is dealt again (the
   engine's automatic broken: the deal number moves on, the first bidder stays). */
static void new_episode(const Batch *b, Game *g) {
    g->deal_no = 0;
    g->totals[0] = g->totals[1] = 0;
    g->first_bidder = (int8_t)b->first;
    for (;;) {
        deal_cards(g);
        int jacks = 0;
        for (int s = 0; s < 4; s++) jacks |= (g->hands[s] & ALL_JACKS) == ALL_JACKS;
        if (!jacks) break;
        g->deal_no++;
    }
    reset_deal(g);
}

/* -- rules --------------------------------------------------------------------------------- */

static int weak_hand(uint64_t hand) {
    uint64_t h = hand & HONOUR_MASK;
    return h == 0 || ((h & (h - 1)) == 0 && (h & QUEEN_MASK) != 0);
}

static uint64_t legal_play_mask(uint64_t hand, int led, int strain) {
    if ((hand & JK_BIT) && kf_popcount(hand) == 2) return JK_BIT;
    if (led == NO_SUIT) return hand;
    uint64_t follow = hand & SUIT_MASK[strain][led];
    return follow ? follow | (hand & JK_BIT) : hand;
}

#define SET_LEGAL(g, i) ((g)->legal[(i) >> 6] |= 1ULL << ((i) & 63))
#define IS_LEGAL(g, i) (((g)->legal[(i) >> 6] >> ((i) & 63)) & 1)

static void compute_legal(const Batch *b, Game *g) {
    g->legal[0] = g->legal[1] = g->legal[2] = 0;
    int s = g->to_act;
    if (s < 0) return;
    uint64_t hand = g->hands[s];
    if (g->phase == PH_BIDDING) {
        SET_LEGAL(g, A_PASS);
        for (int h = g->high + 1; h < 25; h++) SET_LEGAL(g, A_BID + h);
        if (weak_hand(hand)) SET_LEGAL(g, A_BROKEN);
    } else if (g->phase == PH_DISCARD) {
        for (uint64_t m = hand; m; m &= m - 1) SET_LEGAL(g, A_DISCARD + kf_ctz(m));
    } else if (g->phase == PH_PLAY) {
        uint64_t m = legal_play_mask(hand, g->trick_len ? g->led : NO_SUIT, g->strain);
        if ((m & JK_BIT) && g->trick_len == 0 && b->joker_request) {
            m &= ~JK_BIT;
            for (int r = 0; r < 5; r++) SET_LEGAL(g, A_JOKER_LEAD + r);
        }
        g->legal[0] |= m;  /* play: indices 0..52 are the card ids */
        if (b->claim_in_mask) SET_LEGAL(g, A_CLAIM);
    }
}

/* The deal ends: the score (half points per team) joins the totals. */
static void end_deal(const Batch *b, Game *g, int s0, int s1, int keep_first, float *rewards) {
    g->totals[0] += s0;
    g->totals[1] += s1;
    g->deal_no++;
    if (!keep_first) g->first_bidder = (int8_t)((g->first_bidder + 1) & 3);
    g->to_act = -1;
    g->trick_len = 0;
    int top = g->totals[0] > g->totals[1] ? g->totals[0] : g->totals[1];
    g->phase = top >= 2 * b->target ? PH_DONE : PH_DEAL;
    for (int s = 0; s < 4; s++) rewards[s] = (float)((s & 1 ? s1 : s0) / 2.0);
}

static void score_played(const Batch *b, Game *g, float *rewards) {
    int count = g->high / 5 + 6, team = g->declarer & 1;
    int y = g->team_tricks[team];
    int ours = 0, theirs = 0;
    if (y >= count) ours = 2 * (count - 5) + (y - count);
    else theirs = 2 * (count - y);
    if (team == 0) end_deal(b, g, ours, theirs, 0, rewards);
    else end_deal(b, g, theirs, ours, 0, rewards);
}

static int winner_of(const int8_t *cards, int len, int first_seat, int strain, int led) {
    const int *st = STRENGTH[strain][led];
    int best = 0, bv = st[cards[0]];
    for (int k = 1; k < len; k++) {
        if (st[cards[k]] > bv) { bv = st[cards[k]]; best = k; }
    }
    return (first_seat + best) & 3;
}

/* -- the claim (オープン): can the claimant win every remaining trick, whatever the others play?
 * The engine's search (meitora._ClaimSearch): a defender's cards of one effective suit are
 * merged into the lowest one; positions are memoised in a small hash table. */

#define MEMO_BITS 13 /* 8192 positions, ~400 KB: a table that stays in the cache */
#define MEMO_SIZE (1 << MEMO_BITS)

typedef struct {
    uint64_t h[4];
    uint32_t trick;   /* up to three (card + 1) bytes */
    uint8_t first, len, led, value;
    uint32_t gen;
} MemoEntry;

static MemoEntry *memo = NULL;
static uint32_t memo_gen = 0;

typedef struct {
    int claimant, strain, joker_request, trump_lead;
} Claim;

static int claim_node(const Claim *c, uint64_t *hands, int8_t *trick, int first, int len, int led);

static int claim_trick_done(const Claim *c, uint64_t *hands, int8_t *trick, int first, int led) {
    if (winner_of(trick, 4, first, c->strain, led) != c->claimant) return 0;
    if (!(hands[0] | hands[1] | hands[2] | hands[3])) return 1;
    return claim_node(c, hands, trick + 4, c->claimant, 0, NO_SUIT);
}

static int claim_node(const Claim *c, uint64_t *hands, int8_t *trick, int first, int len, int led) {
    uint32_t packed = 0;
    for (int k = 0; k < len; k++) packed |= (uint32_t)(trick[k] + 1) << (8 * k);
    uint64_t key = hands[0] * 0x9E3779B97F4A7C15ULL ^ hands[1] * 0xC2B2AE3D27D4EB4FULL ^
                   hands[2] * 0x165667B19E3779F9ULL ^ hands[3] * 0xD6E8FEB86659FD93ULL ^
                   ((uint64_t)packed << 8 | (uint64_t)(first * 16 + len * 4) << 3 | (uint64_t)led) * 0x94D049BB133111EBULL;
    /* the products above carry low bits upwards only: mix the high bits down before indexing */
    key ^= key >> 31;
    key *= 0xBF58476D1CE4E5B9ULL;
    key ^= key >> 29;
    MemoEntry *e = NULL;
    for (int probe = 0; probe < 8; probe++) {
        MemoEntry *m = &memo[(key + (uint64_t)probe) & (MEMO_SIZE - 1)];
        if (m->gen != memo_gen) { if (e == NULL) e = m; break; }
        if (m->h[0] == hands[0] && m->h[1] == hands[1] && m->h[2] == hands[2] && m->h[3] == hands[3] &&
            m->trick == packed && m->first == first && m->len == len && m->led == led)
            return m->value;
    }
    if (e == NULL) e = &memo[key & (MEMO_SIZE - 1)]; /* every probe taken: replace the first */
    int seat = (first + len) & 3;
    uint64_t hand = hands[seat];
    uint64_t legal = legal_play_mask(hand, len ? led : NO_SUIT, c->strain);
    int result;
    if (seat == c->claimant) {
        result = 0;
        for (uint64_t m = legal; m && !result; m &= m - 1) {
            int cid = kf_ctz(m);
            int leds[5], nleds = 0;
            if (len) leds[nleds++] = led;
            else if (cid == JOKER) {
                if (c->joker_request) for (int r = 0; r < 5; r++) leds[nleds++] = r;
                else leds[nleds++] = c->trump_lead;
            } else leds[nleds++] = EFF[c->strain][cid];
            hands[seat] = hand ^ (1ULL << cid);
            trick[len] = (int8_t)cid;
            for (int k = 0; k < nleds && !result; k++) {
                result = len + 1 == 4 ? claim_trick_done(c, hands, trick, first, leds[k])
                                      : claim_node(c, hands, trick, first, len + 1, leds[k]);
            }
            hands[seat] = hand;
        }
    } else {
        /* the claimant has played to this trick: it must be winning it, and no defender card
           may beat it */
        const int *st = STRENGTH[c->strain][led];
        if (winner_of(trick, len, first, c->strain, led) != c->claimant || (legal & JK_BIT)) {
            result = 0;
        } else {
            int best = 0;
            for (int k = 0; k < len; k++) if (st[trick[k]] > best) best = st[trick[k]];
            result = 1;
            int lowest[5] = {-1, -1, -1, -1, -1};
            for (uint64_t m = legal; m; m &= m - 1) {
                int cid = kf_ctz(m);
                if (st[cid] > best) { result = 0; break; }
                int grp = EFF[c->strain][cid];
                if (lowest[grp] < 0 || STRENGTH[c->strain][grp][cid] < STRENGTH[c->strain][grp][lowest[grp]])
                    lowest[grp] = cid;
            }
            for (int grp = 0; grp < 5 && result; grp++) {
                int cid = lowest[grp];
                if (cid < 0) continue;
                hands[seat] = hand ^ (1ULL << cid);
                trick[len] = (int8_t)cid;
                result = len + 1 == 4 ? claim_trick_done(c, hands, trick, first, led)
                                      : claim_node(c, hands, trick, first, len + 1, led);
                hands[seat] = hand;
            }
        }
    }
    if (e != NULL) {
        memcpy(e->h, hands, sizeof e->h);
        e->trick = packed; e->first = (uint8_t)first; e->len = (uint8_t)len; e->led = (uint8_t)led;
        e->value = (uint8_t)result; e->gen = memo_gen;
    }
    return result;
}

static int claim_is_valid(const Batch *b, const Game *g, int claimant) {
    /* the joker may be played to any trick and wins it: with another seat it sinks every claim
       (the search finds the same, later) */
    for (int s = 0; s < 4; s++)
        if (s != claimant && (g->hands[s] & JK_BIT)) return 0;
    /* in a suit contract, a trump of another seat above every trump of a claimant without the
       joker is played to some trick the claimant's card is in, and takes it */
    int trump = TRUMP_OF_STRAIN[g->strain];
    if (trump != NO_SUIT && !(g->hands[claimant] & JK_BIT)) {
        const int *st = STRENGTH[g->strain][trump];
        uint64_t trumps = SUIT_MASK[g->strain][trump];
        int top = 0;
        for (uint64_t m = g->hands[claimant] & trumps; m; m &= m - 1)
            if (st[kf_ctz(m)] > top) top = st[kf_ctz(m)];
        for (int s = 0; s < 4; s++) {
            if (s == claimant) continue;
            for (uint64_t m = g->hands[s] & trumps; m; m &= m - 1)
                if (st[kf_ctz(m)] > top) return 0;
        }
    }
    if (++memo_gen == 0) {  /* the generation wrapped: clear the table */
        memset(memo, 0, sizeof(MemoEntry) * MEMO_SIZE);
        memo_gen = 1;
    }
    Claim c;
    c.claimant = claimant;
    c.strain = g->strain;
    c.joker_request = b->joker_request;
    c.trump_lead = TRUMP_OF_STRAIN[g->strain];
    uint64_t hands[4];
    memcpy(hands, g->hands, sizeof hands);
    int8_t trick[44];
    int first = g->trick_len ? g->leader : claimant;
    for (int k = 0; k < g->trick_len; k++) trick[k] = g->trick_card[k];
    return claim_node(&c, hands, trick, first, g->trick_len, g->led);
}

static void claim(const Batch *b, Game *g, int seat, float *rewards) {
    if (claim_is_valid(b, g, seat)) {
        g->team_tricks[seat & 1] += (int8_t)(10 - g->ntricks);
        score_played(b, g, rewards);
    } else {  /* a chombo: 5 points to the other team */
        if (seat & 1) end_deal(b, g, 10, 0, 0, rewards);
        else end_deal(b, g, 0, 10, 0, rewards);
    }
}

static void play(const Batch *b, Game *g, int seat, int cid, int request, float *rewards) {
    g->hands[seat] ^= 1ULL << cid;
    if (g->trick_len == 0) {
        if (cid == JOKER) {
            if (b->joker_request) {
                g->led = (int8_t)request;
                g->req_word = (int8_t)(request < 4 ? request : 5);
            } else {
                g->led = (int8_t)TRUMP_OF_STRAIN[g->strain];
                g->req_word = -1;
            }
            g->joker_word = g->req_word;
        } else {
            g->led = (int8_t)EFF[g->strain][cid];
            g->req_word = -1;
        }
    }
    g->trick_card[g->trick_len++] = (int8_t)cid;
    if (g->trick_len < 4) {
        g->to_act = (int8_t)((seat + 1) & 3);
        return;
    }
    int w = winner_of(g->trick_card, 4, g->leader, g->strain, g->led);
    int t = g->ntricks++;
    g->t_leader[t] = g->leader;
    memcpy(g->t_cards[t], g->trick_card, 4);
    g->t_winner[t] = (int8_t)w;
    g->team_tricks[w & 1]++;
    g->trick_len = 0;
    if (g->ntricks == 10) {
        score_played(b, g, rewards);
        return;
    }
    g->leader = g->to_act = (int8_t)w;
}

static void next_bidder(const Batch *b, Game *g, float *rewards) {
    if (++g->bid_turns < 4) {
        g->to_act = (int8_t)((g->to_act + 1) & 3);
        return;
    }
    int d = g->declarer;
    if (d < 0) {  /* all pass: 流れ */
        end_deal(b, g, 0, 0, 0, rewards);
        return;
    }
    g->strain = (int8_t)(g->high % 5);
    g->hands[d] |= 1ULL << g->agari;
    if ((g->hands[d] & ALL_JACKS) == ALL_JACKS) {  /* four jacks after the agari */
        end_deal(b, g, 0, 0, 1, rewards);
        return;
    }
    g->phase = PH_DISCARD;
    g->to_act = (int8_t)d;
}

/* One legal action of the seat to act; returns 1 when the deal ended. */
static int apply(const Batch *b, Game *g, int a, float *rewards) {
    int seat = g->to_act;
    int step = g->nsteps;
    for (int s = 0; s < 4; s++) rewards[s] = 0.0f;
    if (a < A_BID) {
        if (a < A_JOKER_LEAD) play(b, g, seat, a, -1, rewards);
        else play(b, g, seat, JOKER, a - A_JOKER_LEAD, rewards);
    } else if (a < A_PASS) {
        g->high = (int8_t)(a - A_BID);
        g->declarer = (int8_t)seat;
        g->bid_seat[g->nbids] = (int8_t)seat;
        g->bid_action[g->nbids++] = (uint8_t)a;
        next_bidder(b, g, rewards);
    } else if (a == A_PASS) {
        g->bid_seat[g->nbids] = (int8_t)seat;
        g->bid_action[g->nbids++] = (uint8_t)a;
        next_bidder(b, g, rewards);
    } else if (a == A_BROKEN) {
        end_deal(b, g, 0, 0, 1, rewards);
    } else if (a < A_CLAIM) {
        int cid = a - A_DISCARD;
        g->hands[seat] &= ~(1ULL << cid);
        g->negri = (int8_t)cid;
        g->phase = PH_PLAY;
        g->leader = (int8_t)seat;
    } else {
        claim(b, g, seat, rewards);
    }
    int ended = g->phase == PH_DEAL || g->phase == PH_DONE;
    if (!ended && step < STEP_ROWS) {  /* what each seat witnessed (the env's recall) */
        g->step_actor[step] = (uint8_t)seat;
        g->step_action[step] = (uint8_t)a;
        g->step_public[step] = !(a >= A_DISCARD && a < A_CLAIM);
        g->nsteps = (uint8_t)(step + 1);
    }
    if (!ended && b->auto_claim && g->phase == PH_PLAY && claim_is_valid(b, g, g->to_act)) {
        g->team_tricks[g->to_act & 1] += (int8_t)(10 - g->ntricks);
        score_played(b, g, rewards);
        ended = 1;
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

static KF_ALWAYS_INLINE void add(Writer *w, int i) {
    if (w->row[i] == 0.0f) w->nz[w->nnz++] = (uint16_t)i;
    w->row[i] += 1.0f;
}

#define REL(s) (((s) - seat) & 3)

static void encode(const Batch *b, const Game *g, int seat, Writer *w) {
    int in_deal = g->phase >= PH_BIDDING && g->phase <= PH_PLAY;
    int contract = g->phase == PH_DISCARD || g->phase == PH_PLAY;
    put(w, O_PHASE + g->phase, 1.0f);
    if (g->to_act >= 0) put(w, O_TO_ACT + REL(g->to_act), 1.0f);
    put(w, O_DEAL_NO, (float)g->deal_no);
    for (int i = 0; i < 2; i++) put(w, O_TOTALS + ((i - (seat & 1)) & 1), (float)(g->totals[i] / 2.0));
    put(w, O_TARGET, (float)b->target);
    if (in_deal) {
        for (uint64_t m = g->hands[seat]; m; m &= m - 1) put(w, O_HAND + kf_ctz(m), 1.0f);
        for (int s = 0; s < 4; s++) put(w, O_HAND_SIZES + REL(s), (float)kf_popcount(g->hands[s]));
        put(w, O_FIRST_BIDDER + REL(g->first_bidder), 1.0f);
        for (int k = 0; k < g->nbids; k++) add(w, O_BIDS + REL(g->bid_seat[k]) * NUM_ACTIONS + g->bid_action[k]);
        if (g->nbids) {
            int k = g->nbids - 1;
            put(w, O_BIDS + 4 * NUM_ACTIONS + REL(g->bid_seat[k]), 1.0f);
            put(w, O_BIDS + 4 * NUM_ACTIONS + 4 + g->bid_action[k], 1.0f);
        }
        if (contract) {
            put(w, O_DECLARER + REL(g->declarer), 1.0f);
            put(w, O_CONTRACT + A_BID + g->high, 1.0f);
            if (seat == g->declarer) {
                put(w, O_AGARI + g->agari, 1.0f);
                if (g->negri >= 0) put(w, O_NEGRI + g->negri, 1.0f);
            }
        }
        if (g->trick_len) {
            for (int k = 0; k < g->trick_len; k++) put(w, O_TRICK + REL(g->leader + k) * 53 + g->trick_card[k], 1.0f);
            put(w, O_TRICK + 4 * 53 + REL(g->leader), 1.0f);
            if (g->trick_card[0] == JOKER && g->req_word >= 0) put(w, O_JOKER_REQUEST + g->req_word, 1.0f);
        } else if (g->ntricks) {
            int t = g->ntricks - 1;
            for (int k = 0; k < 4; k++) put(w, O_LAST_TRICK + REL(g->t_leader[t] + k) * 53 + g->t_cards[t][k], 1.0f);
            put(w, O_LAST_TRICK + 4 * 53 + REL(g->t_leader[t]), 1.0f);
            put(w, O_LAST_WINNER + REL(g->t_winner[t]), 1.0f);
            if (g->t_cards[t][0] == JOKER && g->req_word >= 0) put(w, O_LAST_REQUEST + g->req_word, 1.0f);
        }
        put(w, O_TRICKS_PLAYED, (float)g->ntricks);
        for (int i = 0; i < 2; i++) put(w, O_TEAM_TRICKS + ((i - (seat & 1)) & 1), (float)g->team_tricks[i]);
        int own = 0;
        for (int t = 0; t < g->ntricks; t++) {
            if ((g->t_winner[t] & 1) != (seat & 1)) continue;
            own++;
            for (int k = 0; k < 4; k++) put(w, O_OWN_TRICKS + REL(g->t_leader[t] + k) * 53 + g->t_cards[t][k], 1.0f);
            if (g->t_cards[t][0] == JOKER && g->joker_word >= 0) add(w, O_OWN_REQUESTS + g->joker_word);
        }
        put(w, O_OWN_TRICKS + 4 * 53, (float)own);
    }
    if (b->recall) {  /* the seat's memory of the deal, after the view's slots (not scaled) */
        for (int t = 0; t < g->nsteps; t++) {
            int actor = g->step_actor[t], a = g->step_action[t];
            int seen = g->step_public[t] || actor == seat;
            if (seen && a < A_BID) put(w, BASE_SIZE + REL(actor) * 53 + (a < A_JOKER_LEAD ? a : JOKER), 1.0f);
            if (b->recall == 2) {
                int o = BASE_SIZE + 4 * 53 + t * STEP_ROW;
                put(w, o + REL(actor), 1.0f);
                put(w, o + 4 + (seen ? a : NUM_ACTIONS), 1.0f);
            }
        }
    }
}

/* Rewrite env i's observation row and mask (the seat to act's; seat 0's once the deal ended). */
static void write_env(Batch *b, Py_ssize_t i) {
    Game *g = &b->games[i];
    float *row = (float *)b->obs.buf + i * b->obs_size;
    for (int k = 0; k < g->nnz; k++) row[g->nz[k]] = 0.0f;
    Writer w = {row, b->scale, g->nz, 0};
    encode(b, g, g->to_act >= 0 ? g->to_act : 0, &w);
    g->nnz = w.nnz;
    compute_legal(b, g);
    int8_t *mask = (int8_t *)b->mask.buf + i * NUM_ACTIONS;
    for (int k = 0; k < NUM_ACTIONS; k++) mask[k] = (int8_t)IS_LEGAL(g, k);
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
    static char *kwlist[] = {"n", "first", "target", "joker_request", "claim_in_mask", "auto_claim", "recall",
                             "autoreset", "scale", "obs", "mask", "to_act", "rewards", "done", NULL};
    Py_ssize_t n;
    PyObject *scale, *obs, *mask, *to_act, *rewards, *done;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "the Meitora vector core is not configured");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "niipppipOOOOOO", kwlist, &n, &self->first, &self->target,
                                     &self->joker_request, &self->claim_in_mask, &self->auto_claim, &self->recall,
                                     &self->autoreset, &scale, &obs, &mask, &to_act, &rewards, &done))
        return -1;
    if (n < 1 || self->first < 0 || self->first > 3 || self->target < 1 || self->recall < 0 || self->recall > 2) {
        PyErr_SetString(PyExc_ValueError, "n >= 1, first 0-3, target >= 1, recall 0-2");
        return -1;
    }
    self->n = n;
    self->obs_size = BASE_SIZE + (self->recall ? 4 * 53 : 0) + (self->recall == 2 ? STEP_ROWS * STEP_ROW : 0);
    if (get_buffer(obs, &self->obs, n * self->obs_size, 4, "obs") < 0 ||
        get_buffer(mask, &self->mask, n * NUM_ACTIONS, 1, "mask") < 0 ||
        get_buffer(to_act, &self->to_act, n, 1, "to_act") < 0 ||
        get_buffer(rewards, &self->rewards, n * 4, 4, "rewards") < 0 ||
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
    for (Py_ssize_t i = 0; i < n; i++) self->games[i].to_act = -1, self->games[i].phase = PH_DEAL;
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
        for (Py_ssize_t i = 0; i < self->n; i++) self->games[i].rng = seeds[i];
        PyBuffer_Release(&sv);
    }
    float *rewards = self->rewards.buf;
    uint8_t *done = self->done.buf;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        Game *g = &self->games[i];
        new_episode(self, g);
        for (int s = 0; s < 4; s++) rewards[4 * i + s] = 0.0f;
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
    for (Py_ssize_t i = 0; i < self->n; i++) {
        Game *g = &self->games[i];
        int ended = apply(self, g, (int)actions[i], rewards + 4 * i);
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
    if (i < 0 || i >= self->n || seat < 0 || seat > 3) {
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
        int count = kf_popcount(g->legal[0]) + kf_popcount(g->legal[1]) + kf_popcount(g->legal[2]);
        if (count == 0) { acts[i] = -1; continue; }
        uint64_t x = splitmix64(&s);
        int r = (int)(((x >> 32) * (uint64_t)count) >> 32);
        for (int w = 0; w < 3; w++) {
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
    return Py_BuildValue("{s:i,s:i,s:i,s:(KKKK),s:i,s:i,s:i,s:(ii),s:K}", "phase", g->phase, "to_act", g->to_act,
                         "deal_number", g->deal_no, "hands", g->hands[0], g->hands[1], g->hands[2], g->hands[3],
                         "agari", g->agari, "declarer", g->declarer, "tricks_played", g->ntricks, "totals",
                         g->totals[0], g->totals[1], "rng", g->rng);
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
    {Py_tp_doc, "N Meitora deals stepped at once (see kirifuda.games.meitora_vector)."},
    {0, NULL},
};

static PyType_Spec Batch_spec = {
    "kirifuda.games._meitora_vector.Batch", sizeof(Batch), 0, Py_TPFLAGS_DEFAULT, Batch_slots,
};

/* configure(deck, eff, suit_masks, strength, trump_of_strain, all_jacks, honours, queens) */
static PyObject *configure(PyObject *module, PyObject *args) {
    PyObject *deck, *eff, *masks, *strength, *trumps;
    unsigned long long jacks, honours, queens;
    if (!PyArg_ParseTuple(args, "OOOOOKKK", &deck, &eff, &masks, &strength, &trumps, &jacks, &honours, &queens))
        return NULL;
    PyObject *seqs[5] = {deck, eff, masks, strength, trumps};
    Py_ssize_t lens[5] = {41, 5 * 53, 25, 5 * 5 * 53, 5};
    for (int k = 0; k < 5; k++) {
        if (!PySequence_Check(seqs[k]) || PySequence_Size(seqs[k]) != lens[k]) {
            PyErr_Format(PyExc_ValueError, "configure: table %d needs %zd entries", k, lens[k]);
            return NULL;
        }
    }
    for (Py_ssize_t k = 0; k < 5 * 5 * 53; k++) {
        PyObject *x[5] = {NULL, NULL, NULL, NULL, NULL};
        for (int t = 0; t < 5; t++)
            if (k < lens[t]) x[t] = PySequence_GetItem(seqs[t], k);
        int bad = 0;
        if (x[0]) DECK[k] = (int)PyLong_AsLong(x[0]);
        if (x[1]) EFF[k / 53][k % 53] = (int)PyLong_AsLong(x[1]);
        if (x[2]) SUIT_MASK[k / 5][k % 5] = PyLong_AsUnsignedLongLong(x[2]);
        if (x[3]) STRENGTH[k / 265][(k / 53) % 5][k % 53] = (int)PyLong_AsLong(x[3]);
        if (x[4]) TRUMP_OF_STRAIN[k] = (int)PyLong_AsLong(x[4]);
        for (int t = 0; t < 5; t++) {
            if (k < lens[t] && x[t] == NULL) bad = 1;
            Py_XDECREF(x[t]);
        }
        if (bad || PyErr_Occurred()) return NULL;
    }
    ALL_JACKS = jacks;
    HONOUR_MASK = honours;
    QUEEN_MASK = queens;
    if (memo == NULL) {
        memo = PyMem_Calloc(MEMO_SIZE, sizeof(MemoEntry));
        if (memo == NULL) return PyErr_NoMemory();
    }
    configured = 1;
    Py_RETURN_NONE;
}

/* splitmix64(seed, n) -> bytes: the first n words of an env's stream (the tests deal the same
   cards through the engine with them). */
static PyObject *words(PyObject *module, PyObject *args) {
    unsigned long long seed;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "Kn", &seed, &n)) return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "n >= 0");
        return NULL;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, n * 8);
    if (out == NULL) return NULL;
    unsigned char *p = (unsigned char *)PyBytes_AS_STRING(out);
    uint64_t s = seed;
    for (Py_ssize_t k = 0; k < n; k++) {
        uint64_t x = splitmix64(&s);
        for (int j = 0; j < 8; j++) p[8 * k + j] = (unsigned char)(x >> (8 * j));
    }
    return out;
}

static PyMethodDef module_methods[] = {
    {"configure", configure, METH_VARARGS, "Hand the engine's card tables to the core."},
    {"splitmix64", words, METH_VARARGS, "splitmix64(seed, n) -> the stream's first n words as bytes."},
    {NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "kirifuda.games._meitora_vector",
    "Meitora deals stepped N at once in C (see kirifuda.games.meitora_vector).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__meitora_vector(void) {
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "NUM_ACTIONS", NUM_ACTIONS) < 0 ||
        PyModule_AddIntConstant(m, "BASE_SIZE", BASE_SIZE) < 0) {
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
