#ifndef CSOLVER_FAST_PASS
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
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../_bitops.h"
#ifdef DEBUGV
#include <stdio.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(KIRIFUDA_PORTABLE)
#include <immintrin.h>
#include <cpuid.h>
#define HAVE_BMI2_PATH 1
/* BMI2's pext/pdep squeeze a hand in two instructions; on the AMD families before Zen 3 they
 * are microcoded and slow, so there the plain loop is used (set once, at import).  Where set,
 * solves run the core compiled for BMI1, BMI2 and LZCNT (FAST_CORE). */
static int use_bmi2 = 0;
#endif

#define MAXP 6
#define NSUIT 5
#define NOSUIT 4
#define CALLED 5   /* a led value: the call card's suit led, calling the restricted cards (Napoleon's ♠3 call) */
#define NLED 6
#define NCARD 64

typedef uint64_t u64;

typedef struct {
    int np;
    unsigned char mod_np[2 * MAXP];  /* i % np: the seat i places after seat 0 (no division) */
    int off[NSUIT], len[NSUIT];      /* internal bit range of each effective suit */
    u64 suit_mask[NSUIT];            /* internal */
    unsigned char isuit[NCARD];      /* internal bit -> effective suit */
    int card_of[NCARD];              /* internal bit -> card id */
    int int_of[NCARD];               /* card id -> internal bit, -1 if none */
    short strength[NLED][NCARD];     /* [led][internal] (CALLED: the call card's suit's) */
    short points[NCARD];             /* internal */
    u64 free_mask, multi_lead_mask, last_forced_mask, nomerge_mask, all_mask;
    int n_lead_choices;
    int lead_choices[NSUIT];
    int any_choice;                  /* lead_choices has NOSUIT (a lead asking for nothing) */
    u64 as_any[NSUIT];               /* [led]: the cards as strong when `led` is led as when nothing is */
    u64 lead_wins_mask;              /* multi-lead cards that take the trick whatever they ask for */
    u64 free_wins_mask;              /* free cards that take any trick (the top suit's, trick rules without points) */
    int trick_base;
    int has_points;
    /* lead weights (order_moves): tuned on the nodes of Meitora deals for the games that count
     * tricks, and of Kakeya and Napoleon positions for those that count face cards */
    struct { int opplen, rho_top, lho_part, master, other, pmaster, master_points, multi; } lw;
    /* follower weights for the points a card carries: onto a trick the mover's side holds
     * (schmear), on the card that takes a trick (capture), kept off a trick lost (shed) */
    struct { int schmear, capture, shed; } fw;
    int trump;      /* the suit that beats every other led suit, or -1 */
    int nclass;                      /* cards of equal points: classes */
    u64 class_mask[8];
    int classes_ok;                  /* every card in one of class_mask (at most 8 classes) */
    u64 suit_tops;                   /* internal: each effective suit's highest bit */
    u64 lead_own_mask;               /* internal: cards whose lead has choices of its own (multi-lead, the call card) */
    int canon_ok;                    /* each class a contiguous run of each suit's order */
    /* The table's chains are per leader and suit lengths (what canonical hands keep of the
     * hands: the lengths per class of points, and the cards with rules of their own): their
     * signature is a sum of random words, zlead[leader] plus zcard[p][c] for each card c that
     * p holds (the same word for the cards of one suit and class, one of its own for a card
     * with rules of its own), kept up to date as cards are played. */
    u64 zlead[MAXP], zcard[MAXP][NCARD];
    int nrun;                        /* those runs (canon_ok), and all their slots */
    u64 run[NSUIT * 8], run_slots;
    int top_suit;   /* the suit whose every card beats every other card, whatever is led, or -1 */
    int mono;       /* every suit's cards rise in strength with their bit, whatever is led */
    /* a trick led in a suit is won by its highest card of that suit unless a card of the trump
     * or top suit or one with rules of its own is on it (later_tricks); own_mask: those cards */
    int plain_follow;
    u64 own_mask;
    /* Special tricks (Napoleon), off (special = 0) in the other games: a winner that depends on
     * the whole trick.  Where special, the parts that assume a plain monotone strength are off:
     * canonical (squeezed) keys, winning-ranks table entries (keys are exact), sure and quick
     * tricks, and merging during the deal's first trick. */
    int special;
    int first_rules;                    /* the root position's trick is the deal's first */
    short first_strength[NLED][NCARD]; /* [led][internal]: the first trick's table */
    int call_card;                   /* internal: a card whose lead may call the restricted cards, or -1 */
    u64 restricted_mask;                /* internal: playable only on lead or as the last card */
    int almighty, yoromeki;             /* internal bits (-1: none): yoromeki beats almighty */
    u64 same2_mask;                     /* internal: the 2s (same-2: a trick of one printed suit) */
    unsigned char psuit[NCARD];         /* internal bit -> printed suit (4: none) */
    int same2_max, first_same2_max;     /* same-2 applies when the table winner's strength <= */
    /* A horizon (special rules only; 0: none): a trick start with at most `horizon` cards per
     * hand (more than 1) is not searched: its value is the points in the hands shared by the
     * hands' power (the maximising side's share of the sum of hpower, rounded down). */
    int horizon;
    short hpower[NCARD];                /* internal */
} Rules;

/* A table entry: a bound on the value of every trick-start position with the same leader and
 * suit lengths per hand whose canonical hands agree with k on the slots of relmask (the cards
 * whose rank mattered to the bound: the top of each suit down to its lowest relevant card). */
typedef struct {
    u64 lensig;      /* first: a chain's walk reads it and next, mostly nothing else */
    uint32_t next;
    int16_t lo, hi;
    u64 relmask;
    u64 k[MAXP];     /* the canonical hands masked by relmask */
#ifdef DEBUGV
    u64 src[MAXP];   /* the hands the entry was made in */
#endif
} Ent;

/* Entries are chained per suit-length signature (a position matches entries of other cards'
 * ranks, so they cannot be found by a hash of the whole position).  A solve starts with
 * 2^TT_MIN_BITS chains and doubles them whenever the entries outnumber them TT_LOAD to one (up
 * to 2^TT_MAX_BITS): a small solve's chains stay within a small stretch of memory, which the
 * cache keeps (a fixed 2^17 made every lookup of a fresh solve a cache miss); a large solve's
 * chains stay short. */
#ifndef TT_MIN_BITS
#define TT_MIN_BITS 12
#endif
#ifndef TT_MAX_BITS
#define TT_MAX_BITS 18
#endif
#ifndef TT_LOAD
#define TT_LOAD 1
#endif
#define TT_SIZE (1u << TT_MAX_BITS)
#define POOL_SIZE (1u << 20)
typedef struct { uint32_t gen, head; } Head;
/* A table: the chains' heads (2^bits in use), the pool of entries (n used) and the generation
 * (a new solve starts a new one: older heads read as empty).  A solve takes a table from the
 * free list and gives it back when done, both under the GIL; in between it searches without
 * the GIL, so threads solve at once, each with its own table (as many tables as solves ever at
 * once). */
typedef struct Table { Head *heads; Ent *pool; uint32_t n, gen, bits, grow_at; struct Table *next_free; } Table;

/* The chain of the entries with this suit-length signature. */
static KF_ALWAYS_INLINE uint32_t chain_of(const Table *t, u64 lensig) { return (uint32_t)(lensig >> (64 - t->bits)); }

/* Does the entry match the canonical hands key (np of them) on its relevant cards? */
static KF_ALWAYS_INLINE int entry_matches(const Ent *e, const u64 *key, int np) {
    for (int p = 0; p < np; p++) if ((key[p] & e->relmask) != e->k[p]) return 0;
    return 1;
}

/* Twice the chains: chain b splits into 2b and 2b + 1 by the signature's next bit, each
 * keeping its entries' order (the order a lookup meets them in, so the search is the same
 * as with the larger table from the start).  From the last chain down, so that no chain is
 * overwritten before it is split. */
static void grow_chains(Table *t) {
    Head *h = t->heads;
    Ent *pool = t->pool;
    uint32_t gen = t->gen, nb = 1u << t->bits;
    int shift = 63 - (int)t->bits;
    for (uint32_t b = nb; b-- > 0;) {
        uint32_t i = h[b].gen == gen ? h[b].head : 0, first[2] = {0, 0};
        uint32_t *tail[2] = {&first[0], &first[1]};
        while (i) {
            int half = (int)((pool[i].lensig >> shift) & 1);
            *tail[half] = i;
            tail[half] = &pool[i].next;
            i = pool[i].next;
        }
        *tail[0] = 0;
        *tail[1] = 0;
        h[2 * b].gen = gen; h[2 * b].head = first[0];
        h[2 * b + 1].gen = gen; h[2 * b + 1].head = first[1];
    }
    t->bits++;
    t->grow_at = t->bits < TT_MAX_BITS ? (1u << t->bits) * TT_LOAD : POOL_SIZE;
}
static Table *free_tables = NULL;

static inline u64 mix(u64 x) {
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
    return x;
}


/* A trick in progress, kept per the cards each hand held at its start (one trick of each such
 * count is in progress at a time): what the players still to play can put on it, worked out
 * once when it is led (they hold what they held then), and the strongest cards on it so far,
 * kept up as they are played: the per-node work inside a trick needs no loop over the trick. */
typedef struct {
    int strong[MAXP];              /* [k]: the strongest card the trick's k-th player may put on it (-1: none) */
    short sufv[MAXP + 1][2];       /* [k][side]: the strength of the strongest of strong[k..] of the side's (-1: none) */
    signed char sufc[MAXP + 1][2]; /* and that card (the first of equals) */
    short pv[MAXP + 1][2];         /* [cards on the trick][side]: the strongest the side has put on it (-1: none) */
    signed char pc[MAXP + 1][2];   /* and that card (the first of equals) */
    short wv[MAXP + 1];            /* [cards on the trick]: the strongest card on it (the first of equals) */
    signed char wi[MAXP + 1];      /* and its place in the trick */
} Trick;

#define MAXLEFT (NCARD / 2 + 1)
#ifndef KILL3_LEFT
#define KILL3_LEFT 7         /* the fewest cards the third hand holds for its killer */
#endif
#ifndef ETC_LEFT
#define ETC_LEFT 7          /* the fewest cards the trick's last player holds for an ETC */
#endif

typedef struct { int card, led, score, low; } Move;  /* low: the lowest card of a merged run */

typedef struct {
    const Rules *r;
    u64 hands[MAXP];
    u64 gone;                        /* cards of completed tricks */
    u64 zhands;                      /* the sum of r->zcard over the hands */
    int maxside[MAXP];
    int tcard[MAXP];
    int tn, led, leader;
    int first;                       /* the current trick is the deal's first (special rules) */
    signed char killer[16][MAXP];    /* [cards left (< 16)][place in trick]: the last choice that cut */
    signed char killer_led[16][MAXP];  /* and what it led (a multi-lead card's choice) */
    Trick trick[MAXLEFT];            /* [the leader's cards at the trick's start] */
    long long nodes, limit;   /* limit: stop after this many nodes (0: none) */
    Table *tt;
    int aborted;
    int every_choice;                /* gen_moves leaves out no dominated choice (solve_moves' root) */
    int expect;                      /* the result expected here (node types): 1 at or above beta, 0 at or below alpha */
} S;

static void new_generation(Table *t);

/* MTD(f)'s steps (search_exact, search_choice): the next null-window probe's beta, at the
 * guess g kept inside (lo, hi]; and a probe's result v at beta taken into the bounds, the next
 * guess and the next probe's expected result (S.expect: the other way from this one's). */
static inline int probe_beta(int g, int lo, int hi) {
    int beta = g;
    if (beta <= lo) beta = lo + 1;
    if (beta > hi) beta = hi;
    return beta;
}
static inline void probe_done(S *s, int v, int beta, int *lo, int *hi, int *g) {
    if (v >= beta) { *lo = v < *hi ? v : *hi; *g = *lo + 1; s->expect = 0; }
    else { *hi = v > *lo ? v : *lo; *g = *hi; s->expect = 1; }
}

/* The two tricks left (end2): the hands in the first trick's order (k-th: its k-th player's). */
typedef struct {
    const Rules *r;
    u64 h[MAXP], live, gm;           /* gm: the cards of side G's hands */
    int np;
} E2;

#endif /* CSOLVER_FAST_PASS */

/* -- The search (the core) ---------------------------------------------------------------------- */

static inline int popc(u64 x) { return kf_popcount(x); }
static inline int lowbit(u64 x) { return kf_ctz(x); }
static inline int highbit(u64 x) { return 63 - kf_clz(x); }
static inline u64 above(int c) { return c >= 63 ? 0 : (~0ULL << (c + 1)); }
/* the k-th highest card of x (1 <= k <= popc(x)) */
static inline int kth_high(u64 x, int k) {
#ifdef CSOLVER_FAST_PASS
    return lowbit(_pdep_u64(1ULL << (popc(x) - k), x));
#else
    int c = -1;
    for (; k > 0; k--) { c = highbit(x); x ^= 1ULL << c; }
    return c;
#endif
}

static inline u64 legal_mask(const Rules *r, u64 hand, int tn, int led) {
    if ((hand & r->last_forced_mask) && popc(hand) == 2) return hand & r->last_forced_mask;
    if (tn == 0) return hand;
    if (led == CALLED) {                 /* called: a restricted card must be played */
        if (hand & r->restricted_mask) return hand & r->restricted_mask;
        led = r->isuit[r->call_card];
    }
    if ((hand & r->restricted_mask) && (hand & ~r->restricted_mask)) hand &= ~r->restricted_mask;
    if (led == NOSUIT) return hand;
    u64 f = hand & r->suit_mask[led];
    return f ? (f | (hand & r->free_mask)) : hand;
}

/* The strongest of the cards l when `led` is led (-1: none): where strength rises with the bit
 * in every suit, the top card of each suit is enough. */
static inline int strongest_card(const Rules *r, u64 l, const short *stl) {
    int best = -1, bv = -1;
    if (r->mono) {
        if (!l) return -1;
        int top = highbit(l);
        if (!(l & ~r->suit_mask[r->isuit[top]])) return top;    /* one suit (following) */
        for (int su = 0; su < NSUIT; su++) {
            u64 m = l & r->suit_mask[su];
            if (m) { int c = highbit(m); if (stl[c] > bv) { bv = stl[c]; best = c; } }
        }
    } else {
        while (l) { int c = lowbit(l); l &= l - 1; if (stl[c] > bv) { bv = stl[c]; best = c; } }
    }
    return best;
}

/* Special tricks: yoromeki beats the almighty; same-2 (every card of one printed suit, the 2
 * among them) beats a table winner of strength up to same2_max. */
static int special_winner(const Rules *r, int first, const int *cards, int best, int bv) {
    int np = r->np;
    if (r->yoromeki >= 0 && cards[best] == r->almighty)
        for (int i = 0; i < np; i++) if (cards[i] == r->yoromeki) return i;
    if (bv > (first ? r->first_same2_max : r->same2_max)) return best;
    int su = r->psuit[cards[0]], two = -1;
    if (su >= 4) return best;
    for (int i = 0; i < np; i++) {
        if (r->psuit[cards[i]] != su) return best;
        if ((r->same2_mask >> cards[i]) & 1) two = i;
    }
    return two >= 0 ? two : best;
}

static inline int winner_of(const Rules *r, int first, const int *cards, int led) {
    const short *st = first ? r->first_strength[led] : r->strength[led];
    int best = 0, bv = st[cards[0]];
    for (int i = 1; i < r->np; i++) {
        int v = st[cards[i]];
        if (v > bv) { bv = v; best = i; }
    }
    return r->special ? special_winner(r, first, cards, best, bv) : best;
}

static inline int trick_winner_idx(const S *s) { return winner_of(s->r, s->first, s->tcard, s->led); }

static inline int trick_value(const S *s) {
    int v = s->r->trick_base;
    if (s->r->has_points)
        for (int i = 0; i < s->r->np; i++) v += s->r->points[s->tcard[i]];
    return v;
}

static inline void add_move(const S *s, int seat, int c, Move *mv, int *n) {
    const Rules *r = s->r;
    if (s->tn == 0 && ((r->multi_lead_mask >> c) & 1)) {
        u64 others = 0, team = 0, opps = 0;
        for (int p = 0; p < r->np; p++) {
            if (p == seat) continue;
            others |= s->hands[p];
            if (s->maxside[p] == s->maxside[seat]) team |= s->hands[p]; else opps |= s->hands[p];
        }
        /* A card that takes the trick whatever it asks for: what it asks for changes only who
         * may play what.  Asking for a suit no partner holds and an opponent does is at least
         * as good as asking for nothing (the partners' choices are the same, the opponents'
         * fewer), and asking for nothing at least as good as asking for a suit no opponent
         * holds (the opponents' choices are the same, the partners' more): the dominated
         * requests are not searched (-3% nodes on full Meitora deals). */
        int dominance = ((r->lead_wins_mask >> c) & 1) && r->any_choice && !s->every_choice;
        int any_dominated = 0;
        if (dominance)
            for (int j = 0; j < r->n_lead_choices; j++) {
                int led = r->lead_choices[j];
                if (led != NOSUIT && !(team & r->suit_mask[led]) && (opps & r->suit_mask[led])) any_dominated = 1;
            }
        for (int j = 0; j < r->n_lead_choices; j++) {
            int led = r->lead_choices[j];
            if (led == NOSUIT && any_dominated) continue;
            if (led != NOSUIT && dominance && !(opps & r->suit_mask[led]) && (team & r->suit_mask[led])) continue;
            /* asking for a suit nobody else holds is asking for nothing, where that changes no
             * card's strength: one choice */
            if (led != NOSUIT && r->any_choice && !r->special && !(others & r->suit_mask[led])
                && !((others | (1ULL << c)) & ~r->as_any[led])) continue;
            mv[*n].card = mv[*n].low = c; mv[*n].led = led; (*n)++;
        }
    } else {
        mv[*n].card = mv[*n].low = c; mv[*n].led = (s->tn == 0) ? r->isuit[c] : s->led; (*n)++;
        if (s->tn == 0 && c == r->call_card) {
            /* the call: a choice only where another player holds a card it calls */
            u64 others = 0;
            for (int p = 0; p < r->np; p++) if (p != seat) others |= s->hands[p];
            if (others & r->restricted_mask) { mv[*n].card = mv[*n].low = c; mv[*n].led = CALLED; (*n)++; }
        }
    }
}

/* The mover's choices: legal cards with equivalents merged (cards of one effective suit, held
 * together, with nothing but played cards between them, are one choice: the strongest stands
 * for the run), the leads of a multi-lead card once per led choice. */
static int gen_moves_loop(const S *s, int seat, u64 legal, Move *mv) {
    const Rules *r = s->r;
    u64 live = r->all_mask & ~s->gone;
    u64 mergeable = s->first ? 0 : legal & ~r->nomerge_mask;
    int n = 0;
    for (int su = 0; su < NSUIT; su++) {
        u64 ls = legal & r->suit_mask[su];
        if (!ls) continue;
        u64 breakers = live & r->suit_mask[su] & ~ls;   /* live cards between break a run */
        u64 x = ls;
        int prev = -1;
        while (x) {
            int c = highbit(x);
            x ^= 1ULL << c;
            if (prev >= 0 && !(breakers & above(c) & ((1ULL << prev) - 1)) && ((mergeable >> c) & 1)
                && ((mergeable >> prev) & 1) && r->points[c] == r->points[prev]) { prev = c; mv[n - 1].low = c; continue; }
            prev = c;
            add_move(s, seat, c, mv, &n);
        }
    }
    return n;
}

/* The lowest card of each run of legal cards gen_moves merges, every suit's runs found at once
 * (r->classes_ok): a carry added just above each mergeable card ripples through the played
 * cards above it (the suits' top bits stop it) and lands on the next live card of the suit; a
 * card it lands on that is mergeable too (and of the same points) is merged with the one below,
 * so a run's lowest card is one nothing lands on.  (Always inlined: as a call the search was
 * 1.5% slower.) */
static KF_ALWAYS_INLINE u64 run_lows(const S *s, u64 legal) {
    const Rules *r = s->r;
    u64 mergeable = s->first ? 0 : legal & ~r->nomerge_mask;
    u64 through = s->gone & ~r->suit_tops;
    u64 src = mergeable & ~r->suit_tops;
    u64 joined = 0;                  /* cards merged with the card below them */
    if (r->nclass == 1) joined = ((through + (src << 1)) & ~through) & mergeable;
    else
        for (int k = 0; k < r->nclass; k++)
            joined |= ((through + ((src & r->class_mask[k]) << 1)) & ~through) & mergeable & r->class_mask[k];
    return legal & ~joined;
}

/* The same choices as gen_moves_loop, the runs found by run_lows. */
static int gen_moves(const S *s, int seat, u64 legal, Move *mv) {
    const Rules *r = s->r;
    if (!r->classes_ok) return gen_moves_loop(s, seat, legal, mv);
    u64 lows = run_lows(s, legal);
    u64 own = s->tn == 0 ? r->lead_own_mask : 0;
    int n = 0;
    for (int su = 0; su < NSUIT; su++) {
        u64 ls = legal & r->suit_mask[su];
        while (ls) {
            int c = highbit(ls), low = highbit(lows & ls);
            ls &= (1ULL << low) - 1;
            if ((own >> c) & 1) { add_move(s, seat, c, mv, &n); if (low != c) mv[n - 1].low = low; continue; }
            mv[n].card = c; mv[n].low = low; mv[n].led = s->tn == 0 ? r->isuit[c] : s->led; n++;
        }
    }
    return n;
}

/* Best first, equals in the order given (insertion). */
static inline void sort_moves(Move *mv, int n) {
    for (int i = 1; i < n; i++) {
        Move m = mv[i]; int j = i - 1;
        while (j >= 0 && mv[j].score < m.score) { mv[j + 1] = mv[j]; j--; }
        mv[j + 1] = m;
    }
}

/* A follower's weight for card c: the trick's strongest card so far has strength bv, need is
 * what a card must beat to hold the trick (the strongest an opponent still to play can put on
 * it, if more), partner_winning: the mover's side holds the trick whatever comes; jbase: a
 * free card's base where it takes the trick (free_base). */
static inline int follow_score(const S *s, int seat, int c, int partner_winning, int bv, int need, int jbase) {
    const Rules *r = s->r;
    int v = r->strength[s->led][c];
    int free = (r->free_mask >> c) & 1;
    /* a card that cannot matter to this trick (a discard): the lowest of its suit first, from
     * the longest holding */
    int low = v ? v * 4 : 2 * popc(r->suit_mask[r->isuit[c]] & ~above(c)) - popc(s->hands[seat] & r->suit_mask[r->isuit[c]]);
    int pts = r->points[c];
    if (partner_winning) return (free ? -5000 : 0) - low + r->fw.schmear * pts;
    if (v > need) return (free ? jbase : 6000) - v + r->fw.capture * pts;
    if (v > bv) return (free ? 3000 : 5000) - v + r->fw.capture * pts;
    return -low - r->fw.shed * pts;
}

static void order_moves(const S *s, int seat, Move *mv, int n, int opp_max, int bv, int wseat, int jbase);

/* follow_score's base for a free card (the joker; it takes any trick): after the cheapest card
 * that surely holds the trick and before the cards that beat the trick so far where an
 * opponent still to play can beat them with a card of the suit led (6000; not before a ruff:
 * there the joker fails more often than not; -1.5% / -2.0% nodes on two sets of 200 full
 * Meitora deals; before them wherever an opponent can beat them -1.1% / -1.5%, only where
 * trumps are led -1.1% / -0.9%), else after them
 * (3000); last where a partner still to play holds the trick whatever comes: its strongest
 * card there beats every card on it and every card an opponent still to play may put on it
 * (the joker would take a trick the side has anyway: tried there it failed 324 times in 515;
 * last: -1.5% / -1.4% nodes).  t: the trick's frame. */
static inline int free_base(const S *s, int seat, const Trick *t) {
    const Rules *r = s->r;
    int tn = s->tn, side = s->maxside[seat];
    int bv = t->wv[tn], opp_max = t->sufv[tn + 1][!side];
    if (t->sufv[tn + 1][side] > (bv > opp_max ? bv : opp_max)) return -100000;
    return opp_max > bv && r->isuit[t->sufc[tn + 1][!side]] == s->led ? 6000 : 3000;
}

/* A follower's choices (gen_moves) with their weights (order_moves), best first, in one pass. */
static int gen_follow(const S *s, int seat, u64 legal, Move *mv, int opp_max, int bv, int wseat, const Trick *t) {
    const Rules *r = s->r;
    int jbase = legal & r->free_mask ? free_base(s, seat, t) : 3000;
    if (!r->classes_ok) {
        int n = gen_moves_loop(s, seat, legal, mv);
        if (n > 1) order_moves(s, seat, mv, n, opp_max, bv, wseat, jbase);
        return n;
    }
    int partner_winning = s->maxside[wseat] == s->maxside[seat];
    if (opp_max > bv) partner_winning = 0;
    int need = bv > opp_max ? bv : opp_max;
    u64 lows = run_lows(s, legal);
    int n = 0, led = s->led;
    for (int su = 0; su < NSUIT; su++) {
        u64 ls = legal & r->suit_mask[su];
        while (ls) {
            int c = highbit(ls), low = highbit(lows & ls);
            ls &= (1ULL << low) - 1;
            Move m = {c, led, 0, low};
            m.score = follow_score(s, seat, c, partner_winning, bv, need, jbase);
            mv[n++] = m;
        }
    }
    if (n > 1) sort_moves(mv, n);
    return n;
}

/* The mover's choices, best first.  Following, opp_max: the strength of the strongest card an
 * opponent still to play can put on the trick (-1: none); bv and wseat: the strength of the
 * strongest card on the trick and the seat that played it. */
static void order_moves(const S *s, int seat, Move *mv, int n, int opp_max, int bv, int wseat, int jbase) {
    const Rules *r = s->r;
    if (s->tn == 0) {
        u64 others = 0;
        for (int p = 0; p < r->np; p++) if (p != seat) others |= s->hands[p];
        int left = popc(s->hands[seat]);
        /* per suit: how good a suit it is to lead (computed once, for the suits led) */
        int suit_sc[NSUIT], suit_ruff[NSUIT], suit_pmaster[NSUIT], done = 0;
        for (int i = 0; i < n; i++) {
            int c = mv[i].card;
            int su = r->isuit[c];
            if ((r->multi_lead_mask >> c) & 1) {
                /* a lead naming what is to be played: trump first, then the suits the
                 * opponents hold most of (each of their cards played to it is one they no
                 * longer have), asking for nothing last (-2.5% nodes) */
                int ld = mv[i].led, opp = 0;
                if (ld != NOSUIT)
                    for (int p = 0; p < r->np; p++)
                        if (s->maxside[p] != s->maxside[seat]) opp += popc(s->hands[p] & r->suit_mask[ld]);
                mv[i].score = r->lw.multi + (ld == NOSUIT ? -30 : 8 * opp + (ld == r->trump ? 40 : 0));
                continue;
            }
            if (!((done >> su) & 1)) {
                done |= 1 << su;
                /* the opponents' cards of the suit (a void counts as long): fewer, a smaller search;
                 * DDS's weights, then tuned on the nodes of 200 full Meitora deals (-18%) and
                 * checked on 200 others (-23%) */
                int opplen = 0, ruff = 0, pruff = 0, pmaster = 0;
                u64 live_su = others & r->suit_mask[su];
                for (int p = 0; p < r->np; p++) {
                    if (p == seat) continue;
                    int l = popc(s->hands[p] & r->suit_mask[su]);
                    int void_trumps = r->trump >= 0 && su != r->trump && l == 0 && (s->hands[p] & r->suit_mask[r->trump]);
                    if (s->maxside[p] == s->maxside[seat]) {
                        if (live_su && ((s->hands[p] >> highbit(live_su)) & 1)) pmaster = 1;
                        if (void_trumps) pruff = 1;
                    } else {
                        opplen += l ? l : left + 1;
                        if (void_trumps) ruff = 1;
                    }
                }
                int sc = -(opplen * r->lw.opplen) / 13 + (ruff ? -1200 : 0) + (pruff ? 340 : 0);
                if (live_su && r->np == 4 && s->maxside[(seat + 2) % 4] == s->maxside[seat]
                    && s->maxside[(seat + 1) % 4] != s->maxside[seat]) {
                    /* into the last hand's top cards: worse; the next hand's top card with the
                     * partner's second: better (DDS's weights) */
                    int lho = (seat + 1) % 4, part = (seat + 2) % 4, rho = (seat + 3) % 4;
                    u64 rest = live_su;
                    int h1 = highbit(rest); rest ^= 1ULL << h1;
                    int h2 = rest ? highbit(rest) : -1;
                    u64 hr = s->hands[rho];
                    if ((((hr >> h1) & 1) || (h2 >= 0 && ((hr >> h2) & 1))) && popc(hr & r->suit_mask[su]) != 1) sc -= r->lw.rho_top;
                    else if (((s->hands[lho] >> h1) & 1) && h2 >= 0 && ((s->hands[part] >> h2) & 1)
                             && popc(s->hands[part] & r->suit_mask[su]) != 1) sc += r->lw.lho_part;
                }
                suit_sc[su] = sc; suit_ruff[su] = ruff; suit_pmaster[su] = pmaster;
            }
            int st = r->strength[su][c];
            int master = !(others & r->suit_mask[su] & above(c)) && !(((r->free_mask >> c) & 1) && (others & r->free_mask));
            int sc = suit_sc[su];
            if (master) sc += suit_ruff[su] ? 1000 : r->lw.master - st + r->lw.master_points * r->points[c];   /* the lowest master first */
            else sc += r->lw.other - st + (suit_pmaster[su] ? r->lw.pmaster : 0);
            mv[i].score = sc;
        }
    } else {
        int partner_winning = s->maxside[wseat] == s->maxside[seat];
        /* a partner's card an opponent can still beat is not a won trick: beat it (the
         * cheapest card that holds first), as an opponent's */
        if (opp_max > bv) partner_winning = 0;
        int need = bv > opp_max ? bv : opp_max;
        for (int i = 0; i < n; i++) mv[i].score = follow_score(s, seat, mv[i].card, partner_winning, bv, need, jbase);
    }
    sort_moves(mv, n);
}

/* Sure tricks from the strongest suit (trumps with the joker; the joker alone in no-trump),
 * whose cards beat every other card whatever is led.  A player's k strongest cards of it go to
 * k different tricks; a trick with one of them is lost only to a stronger card of that suit held
 * by the other side, and each such card takes one trick at most: so the player's side takes at
 * least k minus the number of the other side's cards stronger than the k-th.  sure[side] is the
 * best such bound over the side's players (side 1: the maximising side), taken at the first
 * depth where it reaches need[side] (fewer relevant cards), else the best. */
static void sure_tricks(const S *s, int *sure, int *depth, const int *need) {
    const Rules *r = s->r;
    int su = r->top_suit;
    sure[0] = sure[1] = 0;
    depth[0] = depth[1] = 0;
    int k = 0, kr = 0;                 /* cards seen; those that are ranked slots of the table */
    if (su < 0) return;
    int np = r->np;
    int mine[MAXP] = {0};
    int seen[2] = {0, 0};
    u64 all = 0;
    for (int p = 0; p < np; p++) all |= s->hands[p];
    u64 x = all & r->suit_mask[su];
    /* The side's unbroken run of top cards split between two partners: theirs go to different
     * tricks, except that two share a trick when neither has another card of the suit to
     * play instead; so the run takes at least as many tricks as the side's longer holding of
     * the suit, up to the run's length.  Not where the run's top card is last-forced (the
     * Meitora joker): its holder may have to play it with a card of the suit still in hand,
     * onto a trick where the partner must follow with its run card (a joker led asking for
     * trump, or the partner's only trumps; found against the Python core, now a test). */
    int run_side = -1, longest[2] = {0, 0}, members[2] = {0, 0}, split_off = 0;
    for (int p = 0; p < np; p++) {
        int l = popc(s->hands[p] & r->suit_mask[su]);
        members[s->maxside[p]]++;
        if (l > longest[s->maxside[p]]) longest[s->maxside[p]] = l;
    }
    while (x) {
        int c = highbit(x);
        u64 b = 1ULL << c;
        x ^= b;
        int holder = 0;
        while (!(s->hands[holder] & b)) holder++;
        int side = s->maxside[holder];
        mine[holder]++;
        int bound = mine[holder] - seen[1 - side];
        if (k == 0) { run_side = side; split_off = (r->last_forced_mask >> c) & 1; }
        if (side == run_side && seen[1 - side] == 0 && members[side] == 2 && !split_off) {
            int run = seen[side] + 1 < longest[side] ? seen[side] + 1 : longest[side];
            if (run > bound) bound = run;
        }
        k++;
        kr += !((r->nomerge_mask >> c) & 1);   /* (a card with rules of its own is relevant anyway) */
        /* the first depth that gives the side what it needs: fewer relevant cards */
        if (bound > sure[side] && sure[side] < need[side]) { sure[side] = bound; depth[side] = kr; }
        seen[side]++;
    }
}

/* Sure tricks for the side on lead, cashed by the leader from the top (a lower bound).  Counted
 * only when nobody else holds a free card (an opponent's could take any one of them and the
 * lead; a partner's may be forced onto one, and the lead is lost): in every suit, trumps first,
 * the leader's unbroken run of top cards — outside the trump suit no longer than the shortest
 * holding of an opponent who has trumps (then that opponent could ruff) unless the trump run
 * has drawn the opponents' trumps, and all of the leader's cards of a suit once its run has
 * exhausted every other hand (long cards); the leader keeps the lead throughout, so the runs
 * add up — plus one for the leader's own free card led first (asking for trump: no opponent
 * sheds the suit).  Counting stops at `need`, which is then the bound.  qrel: per suit, the top
 * cards that mattered. */
static int quick_tricks_of(const S *s, int me, int *qrel, int need) {
    const Rules *r = s->r;
    int np = r->np;
    u64 others = 0, all = 0;
    u64 opp_hand[MAXP];
    int nopp = 0;
    for (int p = 0; p < np; p++) {
        all |= s->hands[p];
        if (p != me) others |= s->hands[p];
        if (s->maxside[p] != s->maxside[me]) opp_hand[nopp++] = s->hands[p];
    }
    /* a free card elsewhere may take any trick (the partner's too: it may be forced onto one,
     * and then the lead is lost) */
    if (others & r->free_mask) return 0;
    u64 mine = s->hands[me];
    u64 special = r->free_mask | r->multi_lead_mask;
    int trump = r->trump;
    int total = (mine & r->free_mask) ? 1 : 0, drawn = 0;
    for (int i = 0; i < NSUIT; i++) qrel[i] = 0;
    /* trumps first: cashing them does not change who can ruff the other suits */
    for (int k = 0; k < NSUIT; k++) {
        int su = k == 0 ? trump : (k - 1 < trump || trump < 0 ? k - 1 : k);
        if (su < 0 || su >= NSUIT || (k > 0 && su == trump)) continue;
        u64 m = mine & r->suit_mask[su] & ~special;
        if (!m) continue;
        u64 x = all & r->suit_mask[su] & ~special;
        int run = 0;
        while (x) {
            int c = highbit(x);
            if (!((m >> c) & 1)) break;
            x ^= 1ULL << c;
            run++;
        }
        if (run == 0) continue;
        qrel[su] = run;
        int longest = 0, opp_longest = 0;    /* the other hands' holdings of the suit */
        for (int p = 0; p < np; p++) {
            if (p == me) continue;
            int l = popc(s->hands[p] & r->suit_mask[su]);
            if (l > longest) longest = l;
            if (s->maxside[p] != s->maxside[me] && l > opp_longest) opp_longest = l;
        }
        int ruff = 0;
        if (su != trump && trump >= 0 && !drawn) {
            for (int i = 0; i < nopp; i++) {
                if (opp_hand[i] & r->suit_mask[trump]) {
                    int l = popc(opp_hand[i] & r->suit_mask[su]);
                    if (l < run) run = l;
                    ruff = 1;
                }
            }
        }
        /* long cards: once the top run has exhausted every other hand, the rest of the
         * leader's cards of the suit win too (unless an opponent can ruff them); that rests
         * on the leader's top `longest` cards only (the others' holdings are spent after as
         * many rounds, whatever their ranks) */
        int top_run = run;
        if (!ruff && run >= longest) { run = popc(m); qrel[su] = longest; }
        /* trumps drawn: the opponents cannot ruff what follows */
        if (su == trump && run >= opp_longest) drawn = 1;
        if (total + run >= need) {
            /* enough: the other suits' cards need not be relevant, and of this suit's only
             * the top ones that give what is still needed; the bound is then `need` (a
             * larger one would rest on more cards: -8% nodes on full Meitora deals, -14% on
             * bridge positions, against counting the suit's whole run) */
            int rest = need - total;
            if (rest <= top_run && rest < qrel[su]) qrel[su] = rest;
            total = need;
            break;
        }
        total += run;
    }
    int left = popc(mine);
    return total < left ? total : left;
}

/* Quick tricks for the side on lead: the leader's own, or (no trump) a partner's: a card led
 * to the partner's master of its suit puts the partner on lead, and the partner cashes as if
 * leading that suit itself (its master takes the first trick either way). */
static int quick_tricks(const S *s, int *qrel, int need) {
    const Rules *r = s->r;
    int me = s->leader;
    int q = quick_tricks_of(s, me, qrel, need);
    if (q >= need || r->trump >= 0) return q;
    u64 special = r->free_mask | r->multi_lead_mask, all = 0;
    for (int p = 0; p < r->np; p++) all |= s->hands[p];
    for (int p = 0; p < r->np; p++) {
        /* (a partner holding a card with rules of its own might be forced to play it to the
         * entry) */
        if (p == me || s->maxside[p] != s->maxside[me] || (s->hands[p] & (special | r->last_forced_mask))) continue;
        int entry = -1;
        for (int su = 0; su < NSUIT && entry < 0; su++) {
            u64 live = all & r->suit_mask[su] & ~special;
            if ((s->hands[me] & live) && ((s->hands[p] >> highbit(live | 1)) & 1)) entry = su;
        }
        if (entry < 0) continue;
        int prel[NSUIT];
        int pq = quick_tricks_of(s, p, prel, need);
        if (prel[entry] < 1) prel[entry] = 1;     /* the master the entry is made to */
        if (pq > q) { q = pq; memcpy(qrel, prel, sizeof prel); }
        if (q >= need) break;
    }
    return q;
}

/* Later tricks (as DDS's LaterTricksMIN/MAX): for a side on lead that needs every trick left,
 * 1 when it surely loses one (rel: the cards that mattered).
 * - The top suit's two highest cards, the first the side's, the second an opponent's with
 *   another card of the suit, seated right after the first's holder: an opponent never leads
 *   while the side takes every trick, so the first is played before the second in each trick;
 *   the second's holder plays it onto any trick without the first (it wins: the top card's
 *   holder has already played) and keeps another card of the suit for the trick with the first,
 *   after which the second is the top card and wins wherever it is played.
 * - No card of the trump or top suit live, none with rules of its own: every trick is led by
 *   the side, in a suit whose highest live card is its own (the opponent holding it would
 *   follow with it and win); each trick led in a suit takes a card of it from each of the side's
 *   hands that holds it, so that suit gives at most its longest holding among the side's hands.
 *   Fewer than the tricks left in all (DDS's rule; checked on 344,000 small no-trump endings
 *   where it applies): a trick is lost.  Relevant: the top card of each suit the opponents top
 *   and the side holds. */
static int later_tricks(const S *s, int *rel) {
    const Rules *r = s->r;
    int np = r->np, side = s->maxside[s->leader];
    u64 all = 0, mine = 0;
    for (int p = 0; p < np; p++) { all |= s->hands[p]; if (s->maxside[p] == side) mine |= s->hands[p]; }
    int ts = r->top_suit;
    if (ts >= 0 && !(all & r->free_mask & ~r->suit_mask[ts])) {
        u64 tm = all & r->suit_mask[ts];
        if (popc(tm) >= 2 && ((mine >> highbit(tm)) & 1)) {
            int t1 = highbit(tm), t2 = highbit(tm & ~(1ULL << t1));
            if (!((mine >> t2) & 1)) {
                int q2 = 0;
                while (!((s->hands[q2] >> t2) & 1)) q2++;
                if (((s->hands[r->mod_np[q2 + np - 1]] >> t1) & 1) && popc(s->hands[q2] & r->suit_mask[ts]) >= 2) {
                    rel[ts] = !((r->nomerge_mask >> t1) & 1) + !((r->nomerge_mask >> t2) & 1);
                    return 1;
                }
            }
        }
    }
    if (!r->plain_follow || (all & r->own_mask)) return 0;
    if (r->trump >= 0 && (all & r->suit_mask[r->trump])) return 0;
    if (ts >= 0 && (all & r->suit_mask[ts])) return 0;
    int sum = 0, left = popc(s->hands[s->leader]);
    for (int su = 0; su < NSUIT; su++) {
        u64 m = all & r->suit_mask[su];
        if (!(mine & m)) continue;
        if ((mine >> highbit(m)) & 1) {
            int longest = 0;
            for (int p = 0; p < np; p++)
                if (s->maxside[p] == side) { int l = popc(s->hands[p] & m); if (l > longest) longest = l; }
            sum += longest;
            if (sum >= left) break;
        } else rel[su] = 1;
    }
    if (sum < left) return 1;
    for (int i = 0; i < NSUIT; i++) rel[i] = 0;
    return 0;
}

/* The hands with played cards squeezed out: in each suit the live cards move to the top of the
 * suit's run of bits, keeping their order (cards with rules of their own stay where they are).
 * Two positions with the same canonical hands have the same value.  Not with card points. */
#ifdef HAVE_BMI2_PATH
/* The same with BMI2: the live cards of every run, in order, are deposited on the top slots of
 * their runs (pext then pdep: the k-th live card from the bottom lands on the k-th slot). */
__attribute__((target("bmi2"))) static void canonical_bmi2(const S *s, u64 *key) {
    const Rules *r = s->r;
    int np = r->np;
    u64 all = 0;
    for (int p = 0; p < np; p++) all |= s->hands[p];
    u64 live = all & r->run_slots, target = 0;
    for (int i = 0; i < r->nrun; i++) {
        int cnt = popc(live & r->run[i]);
        if (cnt) target |= (~0ULL >> (64 - cnt)) << (highbit(r->run[i]) - cnt + 1);
    }
    for (int p = 0; p < np; p++)
        key[p] = (s->hands[p] & r->nomerge_mask) | _pdep_u64(_pext_u64(s->hands[p], live), target);
}
#endif

static void canonical(const S *s, u64 *key) {
    const Rules *r = s->r;
    int np = r->np;
    if (!r->canon_ok) { for (int p = 0; p < np; p++) key[p] = s->hands[p]; return; }
#ifdef HAVE_BMI2_PATH
    if (use_bmi2) { canonical_bmi2(s, key); return; }
#endif
    u64 all = 0;
    for (int p = 0; p < np; p++) { key[p] = s->hands[p] & r->nomerge_mask; all |= s->hands[p]; }
    for (int su = 0; su < NSUIT; su++) {
        for (int k = 0; k < r->nclass; k++) {
            /* squeezed within cards of equal points (a contiguous run of the suit's order):
             * a card goes to the slot as far below the run's top as live cards are above it */
            u64 slots = r->suit_mask[su] & r->class_mask[k] & ~r->nomerge_mask;
            u64 x = all & slots;
            if (!x) continue;
            int top = highbit(slots);
            for (int p = 0; p < np; p++) {
                u64 h = s->hands[p] & slots;
                while (h) {
                    int c = lowbit(h);
                    h &= h - 1;
                    key[p] |= 1ULL << (top - popc(x & above(c)));
                }
            }
        }
    }
}

static int ab(S *s, int alpha, int beta, int *rel);

static inline void rel_max(int *a, const int *b) { for (int i = 0; i < NSUIT; i++) a[i] = b[i] > a[i] ? b[i] : a[i]; }

/* The table slots of the top rel[su] cards of each suit: the highest occupied slots of the
 * canonical hands (the same slots in every position with the same suit lengths). */
static u64 rel_slots(const Rules *r, const int *rel, u64 occupied) {
    u64 m = r->nomerge_mask;
    for (int su = 0; su < NSUIT; su++) {
        u64 slots = r->suit_mask[su] & ~r->nomerge_mask & occupied;
        if (rel[su] <= 0 || !slots) continue;
        m |= rel[su] >= popc(slots) ? slots : slots & ~((1ULL << kth_high(slots, rel[su])) - 1);
    }
    return m;
}

static void slots_rel(const Rules *r, u64 m, int *rel) {
    for (int su = 0; su < NSUIT; su++) rel[su] = popc(m & r->suit_mask[su] & ~r->nomerge_mask);
}

/* the last trick: one card each */
static int last_trick_rel(const S *s, int *rel) {
    const Rules *r = s->r;
    int np = r->np;
    int cards[MAXP];
    u64 live = 0;
    for (int i = 0; i < np; i++) { cards[i] = lowbit(s->hands[r->mod_np[s->leader + i]]); live |= 1ULL << cards[i]; }
    int led = ((r->multi_lead_mask >> cards[0]) & 1) ? r->lead_choices[0] : r->isuit[cards[0]];
    int bi = winner_of(r, s->first, cards, led);
    if (r->special && ((r->multi_lead_mask >> cards[0]) & 1)) {
        /* special tricks: the named suit matters; the leader names the best for its side */
        int side = s->maxside[s->leader];
        for (int j = 1; j < r->n_lead_choices; j++) {
            int b2 = winner_of(r, s->first, cards, r->lead_choices[j]);
            if (s->maxside[r->mod_np[s->leader + b2]] == side) { bi = b2; break; }
        }
    }
    int pts = r->trick_base;
    for (int i = 0; i < np; i++) pts += r->points[cards[i]];
    int w = cards[bi], su = r->isuit[w];
    if (popc(live & r->suit_mask[su]) > 1 && !((r->nomerge_mask >> w) & 1))
        rel[su] = popc(live & r->suit_mask[su] & ~r->nomerge_mask & above(w)) + 1;
    return s->maxside[r->mod_np[s->leader + bi]] ? pts : 0;
}

static int horizon_value(const S *s) {
    const Rules *r = s->r;
    int pts = 0, side = 0, all = 0;
    for (int p = 0; p < r->np; p++) {
        u64 h = s->hands[p];
        int pw = 0;
        while (h) { int c = lowbit(h); h &= h - 1; pts += r->points[c]; pw += r->hpower[c]; }
        all += pw;
        if (s->maxside[p]) side += pw;
    }
    return pts * (2 * side + 1) / (2 * all + 2);
}

/* The last two tricks, where every hand holds two cards (no points, no special tricks, no
 * restricted cards; end2): the question "does side G take a trick?" answered by a plain search
 * of the first trick's choices, each line's second trick played out, without the table or any
 * bound.  The cards an answer rests on are kept as a mask of the live cards closed downwards in
 * each suit (a card relevant, so is every live card above it in its suit), as ab() keeps them:
 * a trick won by a card with another card of its suit on it makes that card relevant (as
 * last_trick_rel and rel_back do); a choice that gives the mover what it wants (a cut) keeps
 * its own cards, otherwise the union of every choice's (every card is a choice of its own: no
 * merged runs).  Two things ab() does not do: a line where G takes the first trick rests on
 * that trick alone (the second cannot take it away), and of the choices that cut, the one
 * resting on the fewest cards is kept (every choice is searched: the subtrees are tiny). */
/* The cards a trick's result rests on: won by w with another card of its suit on it (trick:
 * the trick's cards), w and every live card above it in its suit; otherwise none. */
static KF_ALWAYS_INLINE u64 e2_won(const E2 *e, u64 trick, int w) {
    const Rules *r = e->r;
    u64 su = r->suit_mask[r->isuit[w]], ws = trick & su;
    return (ws & (ws - 1)) && !((r->nomerge_mask >> w) & 1) ? e->live & su & ~((1ULL << w) - 1) : 0;
}

static int e2_leaf(const E2 *e, int wi, int wc, u64 t1, u64 t2, u64 *R) {
    const Rules *r = e->r;
    u64 m = e2_won(e, t1, wc);
    if ((e->gm >> wc) & 1) { *R = m; return 1; }
    int np = e->np;
    int bc = lowbit(t2 & e->h[wi]);
    int led2 = ((r->multi_lead_mask >> bc) & 1) ? r->lead_choices[0] : r->isuit[bc];
    const short *st2 = r->strength[led2];
    int bv = st2[bc];
    for (int i = 1; i < np; i++) {
        int k = wi + i < np ? wi + i : wi + i - np;
        int d = lowbit(t2 & e->h[k]);
        if (st2[d] > bv) { bv = st2[d]; bc = d; }
    }
    *R = m | e2_won(e, t2, bc);
    return (e->gm >> bc) & 1;
}

/* The first trick's k-th player to choose; led: what was led (for k > 0); wv, wi, wc:
 * the strongest card so far (strength, place, card); t1: the trick's cards so far, t2: the
 * cards their players keep for the second trick.  1: G takes a trick. */
static int e2_node(const E2 *e, int k, int led, int wv, int wi, int wc, u64 t1, u64 t2, u64 *R) {
    const Rules *r = e->r;
    u64 h = e->h[k];
    int gmove = (e->gm & h) != 0;
    u64 legal = legal_mask(r, h, k, led);
    u64 acc = 0, cutR = 0;
    int cut = 0;
    while (legal) {
        int c = highbit(legal);
        u64 b = 1ULL << c;
        legal ^= b;
        int multi = k == 0 && ((r->multi_lead_mask >> c) & 1);
        int nl = multi ? r->n_lead_choices : 1;
        for (int j = 0; j < nl; j++) {
            int nled = k ? led : multi ? r->lead_choices[j] : r->isuit[c];
            int v = r->strength[nled][c];
            int nwv = wv, nwi = wi, nwc = wc;
            if (k == 0 || v > wv) { nwv = v; nwi = k; nwc = c; }
            u64 cr;
            int ok = k + 1 < e->np && k + 1 < MAXP ? e2_node(e, k + 1, nled, nwv, nwi, nwc, t1 | b, t2 | (h & ~b), &cr)
                                                    : e2_leaf(e, nwi, nwc, t1 | b, t2 | (h & ~b), &cr);
            if (ok == gmove) {
                if (!cut || popc(cr) < popc(cutR)) { cut = 1; cutR = cr; if (!cr) goto done; }
            } else if (!cut) acc |= cr;
        }
    }
done:
    if (cut) { *R = cutR; return gmove; }
    *R = acc;
    return !gmove;
}

/* Does side g (1: the maximising side) take a trick of the two? */
static int e2_ask(E2 *e, const S *s, int g, u64 *R) {
    const Rules *r = s->r;
    e->gm = 0;
    for (int p = 0; p < r->np; p++) if (s->maxside[p] == g) e->gm |= s->hands[p];
    return e2_node(e, 0, 0, 0, 0, 0, 0, 0, R);
}

static int end2(S *s, int alpha, int beta, int *rel) {
    const Rules *r = s->r;
    E2 e;
    e.r = r; e.np = r->np; e.live = 0;
    for (int k = 0; k < e.np; k++) { e.h[k] = s->hands[r->mod_np[s->leader + k]]; e.live |= e.h[k]; }
    /* the maximising side's tricks: at least nhi is >= beta, at most nlo is <= alpha */
    int tb = r->trick_base, nhi = (beta + tb - 1) / tb, nlo = alpha >= 0 ? alpha / tb : -1;
    int v;
    u64 R;
    if (nhi == nlo + 1) {
        /* one question decides: does the maximising side take nhi tricks (the other side
         * none when nhi is 1, at most one when 2)? */
        int ok = e2_ask(&e, s, nhi == 1, &R);
        v = (nhi == 1) == ok ? nhi * tb : nlo * tb;
    } else {
        /* a wider window: both questions (their cards together) */
        u64 R2 = 0;
        int t = e2_ask(&e, s, 1, &R);
        if (t && !e2_ask(&e, s, 0, &R2)) t = 2;
        R |= R2;
        v = t * tb;
    }
    for (int su = 0; su < NSUIT; su++) rel[su] = popc(R & r->suit_mask[su] & ~r->nomerge_mask);
    return v;
}

/* -- A checking build (CFLAGS=-DDEBUGV [-DVLEFT=n]): every trick-start result with at most
 * VLEFT cards per hand is compared with a plain alpha-beta search (no table, no bounds, no
 * merged cards) and a wrong one printed, with what produced it (REASON: 1 sure tricks, 2 quick
 * tricks, 3 a table entry, printed with the position it was made in; 4 table bounds met; 5 a
 * search; 6 later tricks; 7 end2).  Slow; for work on the shortcuts. */
#ifdef DEBUGV
#ifndef VLEFT
#define VLEFT 4
#endif
static int reason;
static Ent *hit_entry;

static int plain_ab(S *s, int alpha, int beta) {
    const Rules *r = s->r;
    int np = r->np;
    if (s->tn == 0 && popc(s->hands[s->leader]) == 0) return 0;
    int seat = r->mod_np[s->leader + s->tn];
    u64 legal = legal_mask(r, s->hands[seat], s->tn, s->led);
    int ismax = s->maxside[seat];
    int best = ismax ? -1000 : 1000;
    while (legal) {
        int c = lowbit(legal);
        legal &= legal - 1;
        int multi = s->tn == 0 && ((r->multi_lead_mask >> c) & 1);
        int call = s->tn == 0 && c == r->call_card;
        for (int j = 0; j < (multi ? r->n_lead_choices : call ? 2 : 1); j++) {
            int saved_led = s->led;
            s->hands[seat] ^= 1ULL << c;
            s->tcard[s->tn] = c;
            if (s->tn == 0) s->led = multi ? r->lead_choices[j] : j ? CALLED : r->isuit[c];
            s->tn++;
            int v;
            if (s->tn == np) {
                int wi = trick_winner_idx(s);
                int w = s->maxside[r->mod_np[s->leader + wi]] ? trick_value(s) : 0;
                int saved_leader = s->leader, saved_cards[MAXP];
                memcpy(saved_cards, s->tcard, sizeof saved_cards);
                s->leader = r->mod_np[s->leader + wi];
                s->tn = 0;
                v = w + plain_ab(s, alpha - w, beta - w);
                s->leader = saved_leader;
                memcpy(s->tcard, saved_cards, sizeof saved_cards);
                s->tn = np;
            } else {
                v = plain_ab(s, alpha, beta);
            }
            s->tn--;
            s->led = saved_led;
            s->hands[seat] ^= 1ULL << c;
            if (ismax) { if (v > best) best = v; if (best > alpha) alpha = best; }
            else { if (v < best) best = v; if (best < beta) beta = best; }
            if (alpha >= beta) return best;
        }
    }
    return best;
}

static void print_hands(const Rules *r, const u64 *hands) {
    for (int p = 0; p < r->np; p++) {
        u64 h = hands[p];
        printf(" [");
        while (h) { int c = lowbit(h); h &= h - 1; printf("%d ", r->card_of[c]); }
        printf("]");
    }
    printf("\n");
}

static int ab_trick_start_impl(S *s, int alpha, int beta, int *rel);
static int ab_trick_start(S *s, int alpha, int beta, int *rel) {
    int v = ab_trick_start_impl(s, alpha, beta, rel);
    int left = popc(s->hands[s->leader]);
    if (s->aborted || left > VLEFT || left < 2) return v;
    S t = *s;
    int exact = plain_ab(&t, -1000, 1000);
    if (v >= beta ? exact >= v : (v <= alpha ? exact <= v : exact == v)) return v;
    printf("WRONG reason %d left %d leader %d window (%d, %d) value %d exact %d rel %d %d %d %d %d hands",
           reason, left, s->leader, alpha, beta, v, exact, rel[0], rel[1], rel[2], rel[3], rel[4]);
    print_hands(s->r, s->hands);
    if (reason == 3) {
        printf("  entry [%d, %d] relmask %llx made in", hit_entry->lo, hit_entry->hi,
               (unsigned long long)hit_entry->relmask);
        print_hands(s->r, hit_entry->src);
    }
    return v;
}
#define REASON(x) reason = (x)
#define DBG(x) x
#define ab_trick_start ab_trick_start_impl
#else
#define REASON(x)
#define DBG(x)
#endif

static int ab_trick_start(S *s, int alpha, int beta, int *rel) {
    const Rules *r = s->r;
    int np = r->np;
    for (int i = 0; i < NSUIT; i++) rel[i] = 0;
    REASON(0);
    int left = popc(s->hands[s->leader]);
    if (left == 0) return 0;
    if (left == 1) return last_trick_rel(s, rel);
    if (r->horizon && left <= r->horizon) return horizon_value(s);
    int maxv = left * r->trick_base;
    if (r->has_points) {
        for (int p = 0; p < np; p++) { u64 h = s->hands[p]; while (h) { int c = lowbit(h); h &= h - 1; maxv += r->points[c]; } }
    }
    if (alpha >= maxv) return maxv;
    if (beta <= 0) return 0;
    /* the table's chain for this leader and these suit lengths (Rules.zcard), fetched from
     * memory while the bounds below are worked out */
    u64 lensig = s->zhands + r->zlead[s->leader];
    Table *tt = s->tt;
    uint32_t bidx = chain_of(tt, lensig);
    Head *tt_heads = tt->heads;
    Ent *pool = tt->pool;
    uint32_t tt_gen = tt->gen;
    KF_PREFETCH(&tt_heads[bidx]);
    if (!r->has_points && !r->special) {
        int sure[2], depth[2], need[2];
        need[1] = (beta + r->trick_base - 1) / r->trick_base;
        need[0] = (maxv - alpha + r->trick_base - 1) / r->trick_base;
        sure_tricks(s, sure, depth, need);
        REASON(1);
        if (sure[1] * r->trick_base >= beta) { rel[r->top_suit] = depth[1]; return sure[1] * r->trick_base; }
        if (maxv - sure[0] * r->trick_base <= alpha) { rel[r->top_suit] = depth[0]; return maxv - sure[0] * r->trick_base; }
        /* quick tricks only give the side on lead a cut: not counted where that side is
         * expected to fail (an ALL node), but with 2 cards (there they are cheap and the
         * expectation is wrong most often) */
        int qrel[NSUIT];
        int q = left > 2 && s->maxside[s->leader] != s->expect ? 0
                : quick_tricks(s, qrel, s->maxside[s->leader] ? need[1] : need[0]) * r->trick_base;
        if (q > 0) {
            int cut = 0;
            if (s->maxside[s->leader]) { if (q >= beta) cut = 1; }
            else if (maxv - q <= alpha) cut = 1;
            if (cut) { REASON(2);
                for (int su = 0; su < NSUIT; su++) rel[su] = qrel[su];
                return s->maxside[s->leader] ? q : maxv - q;
            }
        }
        /* the side on lead needs every trick left and surely loses one */
        if (s->maxside[s->leader] ? maxv - r->trick_base <= alpha : r->trick_base >= beta) {
            if (later_tricks(s, rel)) { REASON(6); return s->maxside[s->leader] ? maxv - r->trick_base : r->trick_base; }
        }
    }
    u64 key[MAXP];
    canonical(s, key);
    uint32_t head = tt_heads[bidx].gen == tt_gen ? tt_heads[bidx].head : 0;
    int lo = 0, hi = maxv;
    u64 used = 0;              /* the relevant slots of the entries whose bounds were used */
    uint32_t prev = 0;
    for (uint32_t i = head; i; prev = i, i = pool[i].next) {
        Ent *e = &pool[i];
        if (e->lensig != lensig || !entry_matches(e, key, np)) continue;
        if (e->lo >= beta || e->hi <= alpha) { REASON(3); DBG(hit_entry = e;)
            int v = e->lo >= beta ? e->lo : e->hi;
            slots_rel(r, e->relmask, rel);
            if (prev) {               /* move to the front: entries that cut are found first */
                pool[prev].next = e->next;
                e->next = tt_heads[bidx].head;
                tt_heads[bidx].head = i;
            }
            return v;
        }
        /* a bound inside the window narrows it (and the result then rests on this entry's
         * cards too); one outside it says nothing the search needs */
        int useful = 0;
        if (e->lo > alpha && e->lo > lo) { lo = e->lo; useful = 1; }
        if (e->hi < beta && e->hi < hi) { hi = e->hi; useful = 1; }
        if (useful) used |= e->relmask;
    }
    if (lo == hi) { REASON(4); slots_rel(r, used, rel); return lo; }
    if (lo > alpha) alpha = lo;
    if (hi < beta) beta = hi;
    int a0 = alpha, b0 = beta;
    int v;
    if (left == 2 && !r->has_points && !r->special && !r->restricted_mask) { s->nodes++; v = end2(s, alpha, beta, rel); REASON(7); }
    else { v = ab(s, alpha, beta, rel); REASON(5); }
    if (s->aborted) return v;
    int nlo = lo, nhi = hi;
    if (v <= a0) { if (v < nhi) nhi = v; }
    else if (v >= b0) { if (v > nlo) nlo = v; }
    else { nlo = nhi = v; }
    u64 occupied = 0;
    for (int p = 0; p < np; p++) occupied |= key[p];
    u64 relmask = r->special ? ~0ULL : rel_slots(r, rel, occupied) | used;
    slots_rel(r, relmask, rel);
    /* store: update the entry with the same relevant cards, else chain a new one (the
     * chains may have doubled during the search) */
    Ent *e = NULL;
    bidx = chain_of(tt, lensig);
    head = tt_heads[bidx].gen == tt_gen ? tt_heads[bidx].head : 0;
    for (uint32_t i = head; i && !e; i = pool[i].next) {
        if (pool[i].lensig == lensig && pool[i].relmask == relmask && entry_matches(&pool[i], key, np)) e = &pool[i];
    }
    if (e) {
        if (nlo > e->lo) e->lo = (int16_t)nlo;
        if (nhi < e->hi) e->hi = (int16_t)nhi;
    } else {
        if (tt->n + 1 >= POOL_SIZE) return v;     /* full: this solve stores no more */
        uint32_t idx = ++tt->n;
        e = &pool[idx];
        for (int p = 0; p < MAXP; p++) e->k[p] = p < np ? (key[p] & relmask) : 0;
        e->relmask = relmask; e->lensig = lensig;
        e->lo = (int16_t)nlo; e->hi = (int16_t)nhi;
        e->next = head;
        tt_heads[bidx].head = idx; tt_heads[bidx].gen = tt_gen;
        if (idx >= tt->grow_at) grow_chains(tt);
    }
    DBG(memcpy(e->src, s->hands, sizeof e->src);)
    return v;
}

#ifdef DEBUGV
#undef ab_trick_start
#endif
/* The trick's frame when its k-th player is to play: what the players still to play can put
 * on it (trick_prepare) and the strongest cards on it so far (trick_so_far).  (Always inlined:
 * with order_moves_of as a second caller GCC called it out of ab(), 2-4% slower.) */
static KF_ALWAYS_INLINE void trick_prepare(const S *s, Trick *t) {
    const Rules *r = s->r;
    const short *stl = r->strength[s->led];
    int np = r->np;
    int sv[2] = {-1, -1}, sc[2] = {-1, -1};
    t->sufv[np][0] = t->sufv[np][1] = -1;
    t->sufc[np][0] = t->sufc[np][1] = -1;
    for (int k = np - 1; k >= s->tn; k--) {
        int p = r->mod_np[s->leader + k];
        int x = strongest_card(r, legal_mask(r, s->hands[p], 1, s->led), stl);
        t->strong[k] = x;
        if (x >= 0) {
            int side = s->maxside[p];
            if (stl[x] >= sv[side]) { sv[side] = stl[x]; sc[side] = x; }
        }
        t->sufv[k][0] = (short)sv[0]; t->sufv[k][1] = (short)sv[1];
        t->sufc[k][0] = (signed char)sc[0]; t->sufc[k][1] = (signed char)sc[1];
    }
}

/* Card i of the trick (the i-th played, by seat) into the frame's strongest cards so far. */
static inline void trick_add(Trick *t, int i, int side, int c, int v) {
    if (i == 0) {
        t->pv[1][side] = (short)v; t->pc[1][side] = (signed char)c;
        t->pv[1][!side] = -1; t->pc[1][!side] = -1;
        t->wv[1] = (short)v; t->wi[1] = 0;
        return;
    }
    t->pv[i + 1][0] = t->pv[i][0]; t->pv[i + 1][1] = t->pv[i][1];
    t->pc[i + 1][0] = t->pc[i][0]; t->pc[i + 1][1] = t->pc[i][1];
    if (v > t->pv[i][side]) { t->pv[i + 1][side] = (short)v; t->pc[i + 1][side] = (signed char)c; }
    if (v > t->wv[i]) { t->wv[i + 1] = (short)v; t->wi[i + 1] = (signed char)i; }
    else { t->wv[i + 1] = t->wv[i]; t->wi[i + 1] = t->wi[i]; }
}

/* The trick's cards so far into its frame (where the search has not kept it up: a trick in
 * progress at the root, the playout). */
static void trick_so_far(const S *s, Trick *t) {
    const Rules *r = s->r;
    for (int i = 0; i < s->tn; i++) {
        int c = s->tcard[i];
        trick_add(t, i, s->maxside[r->mod_np[s->leader + i]], c, r->strength[s->led][c]);
    }
}

/* order_moves' arguments worked out from the position alone (outside the search), as ab()
 * reads them off the trick's frame */
static void order_moves_of(const S *s, int seat, Move *mv, int n) {
    const Rules *r = s->r;
    if (s->tn == 0) { order_moves(s, seat, mv, n, -1, 0, 0, 3000); return; }
    Trick t;
    trick_prepare(s, &t);
    trick_so_far(s, &t);
    order_moves(s, seat, mv, n, t.sufv[s->tn + 1][!s->maxside[seat]], t.wv[s->tn], r->mod_np[s->leader + t.wi[s->tn]],
                free_base(s, seat, &t));
}

/* A result's relevant cards at the trick start after a trick (rel) brought back to the
 * trick's own reference, where its cards (tmask) are live again; wi: the trick's winner. */
static KF_ALWAYS_INLINE void rel_back(const S *s, u64 tmask, int wi, int *rel) {
    const Rules *r = s->r;
    u64 live = r->all_mask & ~s->gone;
    for (int su = 0; su < NSUIT; su++) {
        if (rel[su] > 0) {
            /* the child's rel[su]-th card, and the trick's cards of the suit above it */
            u64 x = live & ~tmask & r->suit_mask[su] & ~r->nomerge_mask;
            u64 t = tmask & r->suit_mask[su] & ~r->nomerge_mask;
            if (!t) continue;
            if (rel[su] > popc(x)) rel[su] = popc(live & r->suit_mask[su] & ~r->nomerge_mask);
            else rel[su] += popc(t & above(kth_high(x, rel[su])));
        }
    }
    /* the winner's rank, where another card of its suit is on the trick */
    int wc = s->tcard[wi], su = r->isuit[wc];
    if (popc(tmask & r->suit_mask[su]) > 1 && !((r->nomerge_mask >> wc) & 1)) {
        int rr = popc(live & r->suit_mask[su] & ~r->nomerge_mask & above(wc)) + 1;
        if (rr > rel[su]) rel[su] = rr;
    }
}

/* Play mv (card and led) for the player to act, recurse, take it back.  rel: the relevant
 * cards of the result, counted from the top of each suit among the cards live at the start of
 * the current trick. */
static inline int child(S *s, int seat, Trick *t, const Move *m, int alpha, int beta, int *rel) {
    const Rules *r = s->r;
    int np = r->np;
    int c = m->card;
    u64 b = 1ULL << c;
    int saved_led = s->led;
    int tn = s->tn;
    s->hands[seat] ^= b;
    s->zhands -= r->zcard[seat][c];
    s->tcard[tn] = c;
    if (tn == 0) s->led = m->led;
    int cv = r->strength[s->led][c];
    s->tn = tn + 1;
    int v;
    if (tn + 1 == np) {
        int wi = r->special ? trick_winner_idx(s) : cv > t->wv[tn] ? tn : t->wi[tn];
        int w = s->maxside[r->mod_np[s->leader + wi]] ? trick_value(s) : 0;
        int saved_leader = s->leader;
        int saved_cards[MAXP];
        u64 tmask = 0;
        for (int i = 0; i < np; i++) tmask |= 1ULL << s->tcard[i];
        memcpy(saved_cards, s->tcard, sizeof(saved_cards));
        int saved_first = s->first;
        s->leader = r->mod_np[s->leader + wi];
        s->tn = 0;
        s->first = 0;
        s->gone |= tmask;
        v = w + ab_trick_start(s, alpha - w, beta - w, rel);
        s->gone &= ~tmask;
        s->first = saved_first;
        s->leader = saved_leader;
        memcpy(s->tcard, saved_cards, sizeof(saved_cards));
        s->tn = np;
        rel_back(s, tmask, wi, rel);     /* back to this trick's reference */
    } else {
        trick_add(t, tn, s->maxside[seat], c, cv);
        v = ab(s, alpha, beta, rel);
    }
    s->tn--;
    s->led = saved_led;
    s->hands[seat] ^= b;
    s->zhands += r->zcard[seat][c];
    return v;
}

/* Enhanced transposition cutoff at the trick's last player: the trick start after choice m
 * (the trick's winner on lead, the hands without the trick's cards) looked up in the table
 * without being searched; 1 where an entry, with the trick's value, already gives the cut
 * (*val: the bound; rel: the entry's relevant cards, back in this trick's reference, and the
 * winner's rank). */
static int etc_probe(S *s, int seat, Trick *t, const Move *m, int alpha, int beta, int ismax, int *val, int *rel) {
    const Rules *r = s->r;
    int np = r->np, tn = s->tn;
    int c = m->card;
    int wi = r->strength[s->led][c] > t->wv[tn] ? tn : t->wi[tn];
    int nl = r->mod_np[s->leader + wi];
    u64 lensig = s->zhands - r->zcard[seat][c] + r->zlead[nl];
    Table *tt = s->tt;
    const Head *hd = &tt->heads[chain_of(tt, lensig)];
    if (hd->gen != tt->gen || !hd->head) return 0;
    s->tcard[tn] = c;
    int w = s->maxside[nl] ? trick_value(s) : 0;
    int target = ismax ? beta - w : alpha - w;
    u64 b = 1ULL << c, key[MAXP];
    int have_key = 0;
    const Ent *pool = tt->pool;
    for (uint32_t i = hd->head; i; i = pool[i].next) {
        const Ent *e = &pool[i];
        if (e->lensig != lensig || (ismax ? e->lo < target : e->hi > target)) continue;
        if (!have_key) {         /* the key only where an entry's bound would cut */
            s->hands[seat] ^= b;
            canonical(s, key);
            s->hands[seat] ^= b;
            have_key = 1;
        }
        if (!entry_matches(e, key, np)) continue;
        *val = w + (ismax ? e->lo : e->hi);
        slots_rel(r, e->relmask, rel);
        u64 tmask = 0;
        for (int k = 0; k < np; k++) tmask |= 1ULL << s->tcard[k];
        rel_back(s, tmask, wi, rel);
        return 1;
    }
    return 0;
}

/* The choice of a free card that takes any trick (Rules.free_wins_mask) by the player at seat,
 * not the trick's last, bounded without a search: its side w takes the trick, and the other
 * side's sure tricks after it bound the rest.  The other side's players still to play put a
 * card on it outside the top suit where they may, else their lowest legal card (a choice they
 * have); then, as in sure_tricks, with the free card gone (no other held), a player's k
 * strongest cards of the top suit take at least k minus w's cards above the k-th (w's players'
 * cards put on the trick only make that more: fewer of w's cards above).  1 where it refutes
 * the choice (*val: the bound; rel: the top suit down to the card the count rests on).  w's own
 * sure tricks after the trick too: -0.06% nodes; with split runs as in sure_tricks -0.06%. */
static int free_trick_bound(const S *s, int seat, int card, int led, int alpha, int beta, int *rel, int *val) {
    const Rules *r = s->r;
    int np = r->np, tb = r->trick_base, ts = r->top_suit, w = s->maxside[seat];
    int maxv = popc(s->hands[seat]) * tb;
    int need = w ? (maxv - alpha + tb - 1) / tb : (beta + tb - 1) / tb;   /* the other side's */
    if (need < 1 || need > maxv / tb - 1) return 0;
    u64 tm = r->suit_mask[ts], ours = 0, fr = 0;
    int cand = 0;
    for (int p = 0; p < np; p++) {
        u64 h = s->hands[p];
        fr |= h;
        if (s->maxside[p] == w) ours |= h;
        else if (popc(h & tm) >= need) cand |= 1 << p;
    }
    if (!cand || ((fr & ~(1ULL << card)) & r->free_mask)) return 0;
    ours &= tm & ~(1ULL << card);
    int best = -1;
    for (int k = 0; k < np; k++) {
        int p = r->mod_np[s->leader + k];
        if (!((cand >> p) & 1)) continue;
        u64 h = s->hands[p] & tm;
        if (k > s->tn) {        /* still to play to the trick: its lowest where it must play the top suit */
            u64 l = legal_mask(r, s->hands[p], 1, led);
            if (!(l & ~tm)) h &= ~(1ULL << lowbit(l));
        }
        for (int i = need, n = popc(h); i <= n; i++) {
            int c = kth_high(h, i);
            if (c < best) break;
            if (i - popc(ours & above(c)) >= need) { best = c; break; }
        }
    }
    if (best < 0 || ((r->nomerge_mask >> best) & 1)) return 0;
    for (int i = 0; i < NSUIT; i++) rel[i] = 0;
    rel[ts] = popc(r->all_mask & ~s->gone & ~r->nomerge_mask & tm & above(best)) + 1;
    *val = w ? maxv - need * tb : need * tb;
    return 1;
}

static int ab(S *s, int alpha, int beta, int *rel) {
    const Rules *r = s->r;
    s->nodes++;
    if (s->limit && s->nodes > s->limit) s->aborted = 1;
    if (s->aborted) { for (int i = 0; i < NSUIT; i++) rel[i] = 0; return alpha; }
    int tn = s->tn;
    int seat = r->mod_np[s->leader + tn];
    Trick *t = &s->trick[popc(s->hands[s->leader]) + (tn > 0)];
    /* the players still to play hold what they held when the trick was led: their strongest
     * cards are worked out once per trick */
    if (tn == 1) trick_prepare(s, t);
    if (tn > 0 && !r->has_points && !r->special) {
        /* The trick is the side's whatever the others play: its strongest card still to come
         * (or on the table) beats every card an opponent still to play may put on it.  A
         * bound of one trick for that side; relevant: the cards down to that card. */
        int side = s->maxside[seat];
        int our = t->pv[tn][side], opp = t->pv[tn][!side];
        int our_to_come = t->sufv[tn][side] > our, opp_to_come = t->sufv[tn][!side] > opp;
        if (our_to_come) our = t->sufv[tn][side];
        if (opp_to_come) opp = t->sufv[tn][!side];
        if (our != opp) {
            /* the side whose card it is takes the trick: one trick for it (a card on the
             * trick before an equal one to come) */
            int wins = our > opp ? side : !side;
            int card = our > opp ? (our_to_come ? t->sufc[tn][side] : t->pc[tn][side])
                                 : (opp_to_come ? t->sufc[tn][!side] : t->pc[tn][!side]);
            int maxv = popc(s->hands[seat]) * r->trick_base;
            int v = wins ? r->trick_base : maxv - r->trick_base;
            if (wins ? v >= beta : v <= alpha) {
                for (int i = 0; i < NSUIT; i++) rel[i] = 0;
                if (!((r->nomerge_mask >> card) & 1)) {
                    int su = r->isuit[card];
                    rel[su] = popc(r->all_mask & ~s->gone & ~r->nomerge_mask & r->suit_mask[su] & above(card)) + 1;
                }
                return v;
            }
        }
    }
    u64 legal = legal_mask(r, s->hands[seat], s->tn, s->led);
    Move mv[NCARD * 2];
    int n;
    int left = popc(s->hands[seat]);
    /* killers: the leader's, and the third hand's high in the tree only (set below) */
    int killing = left < 16 && (tn == 0 || (tn == 2 && left >= KILL3_LEFT));
    int kc = killing ? s->killer[left][tn] : -1;
    if (tn) n = gen_follow(s, seat, legal, mv, t->sufv[tn + 1][!s->maxside[seat]], t->wv[tn], r->mod_np[s->leader + t->wi[tn]], t);
    else {
        n = gen_moves(s, seat, legal, mv);
        if (n > 1) order_moves(s, seat, mv, n, -1, 0, 0, 3000);
    }
    if (kc >= 0) {
        for (int i = 1; i < n; i++) if (mv[i].card == kc && (tn || mv[i].led == s->killer_led[left][0])) {
            Move m = mv[i]; memmove(&mv[1], &mv[0], i * sizeof(Move)); mv[0] = m; break;
        }
    }
    int ismax = s->maxside[seat];
    int expect = s->expect;
    int best = ismax ? -1 : 1 << 30;
    for (int i = 0; i < NSUIT; i++) rel[i] = 0;
    int crel[NSUIT];
    if (tn == r->np - 1 && left >= ETC_LEFT && !r->special && ismax == expect) {
        /* Enhanced transposition cutoff: a choice whose next trick start the table already
         * cuts, before any is searched (with 6 cards or more left after the trick: fewer cost
         * more than they save; the first choice too: its child's own lookup would find the cut
         * only after counting sure and quick tricks), where the mover is expected to take the
         * cut (elsewhere the table is not expected to hold one) */
        for (int i = 0; i < n; i++) {
            int v;
            if (etc_probe(s, seat, t, &mv[i], alpha, beta, ismax, &v, rel)) return v;
        }
    }
    /* Small cards (as DDS does): once a card below the lowest relevant card of its suit has
     * been searched, another such card of the suit (with the same points) gives the same
     * value: the cards that decided it are the same.  floor[su]: the lowest card relevant to
     * that choice's result (cards below it are skipped), -1 until a small card is searched. */
    int floor_bit[NSUIT], floor_pts[NSUIT];
    for (int i = 0; i < NSUIT; i++) floor_bit[i] = -1;
    u64 live = r->all_mask & ~s->gone & ~r->nomerge_mask;
    int skip_ok = !r->special;
    for (int i = 0; i < n; i++) {
        int c = mv[i].card, su = r->isuit[c];
        if (c < floor_bit[su] && r->points[c] == floor_pts[su] && !((r->nomerge_mask >> c) & 1)) continue;
        int v;
        /* a free card that takes any trick, refuted by the other side's sure tricks after it
         * without a search (free_trick_bound: -1.9% nodes on full Meitora deals) */
        if (!(((r->free_wins_mask >> c) & 1) && tn < r->np - 1 && free_trick_bound(s, seat, c, mv[i].led, alpha, beta, crel, &v))) {
            v = child(s, seat, t, &mv[i], alpha, beta, crel);
            if (s->aborted) return v;
        }
        if (ismax) {
            if (v > best) { best = v; if (best > alpha) alpha = best; }
        } else {
            if (v < best) { best = v; if (best < beta) beta = best; }
        }
        if (alpha >= beta) {
            /* a cut: the bound rests on this choice alone (its cards, not the others') */
            memcpy(rel, crel, sizeof(crel));
            /* the killer: a lead that cut after the first choice did not (one that cut where the
             * first choice did leaves the killer alone: it may be a sibling's, waiting for its
             * holder's next lead; -2.6% nodes on full Meitora deals, -5% on bridge positions) */
            /* the third hand's the same way, with 7 cards or more (-1.5% nodes on full Meitora
             * deals, -5.5% on bridge positions, Kakeya 8 left -2.2%; at every depth Kakeya +1..2%,
             * the second and fourth hands +0.4..3%) */
            if (i > 0 && killing) { s->killer[left][tn] = (signed char)c; s->killer_led[left][tn] = (signed char)mv[i].led; }
            break;
        }
        rel_max(rel, crel);
        /* the choice failed: the mover is now expected to fail, each later choice to be
         * refuted (at an expected cut node that has failed once, the node mostly fails) */
        s->expect = !ismax;
        if (skip_ok && floor_bit[su] < 0 && !((r->nomerge_mask >> c) & 1)) {
            /* the lowest card of the suit relevant to this choice's own result (bit 64: none
             * is; -1: every card is): a smaller card gives the same value, by the same cards
             * (the union of the choices so far, as before, skipped fewer: -1.5% nodes) */
            u64 x = live & r->suit_mask[su];
            int low;
            if (crel[su] == 0) low = 64;       /* no card of the suit mattered */
            else if (crel[su] >= popc(x)) low = -1;     /* every card of the suit mattered */
            else low = kth_high(x, crel[su]);
            if (low >= 0 && c < low) { floor_bit[su] = low; floor_pts[su] = r->points[c]; }
        }
    }
    s->expect = expect;
    /* No cut: every choice was refuted, merged runs included.  A run stood for its cards
     * because they are adjacent: where its top card is relevant, so are the cards down to
     * its lowest (elsewhere the run's other cards may be far from it).  Cards below every
     * relevant card are interchangeable and need nothing. */
    if (alpha < beta) {
        for (int i = 0; i < n; i++) {
            int c = mv[i].card, lowc = mv[i].low, su = r->isuit[c];
            if (lowc == c) continue;
            u64 ls = live & r->suit_mask[su];
            if (popc(ls & above(c)) + 1 <= rel[su]) {
                int need = popc(ls & above(lowc)) + 1;
                if (need > rel[su]) rel[su] = need;
            }
        }
    }
    return best;
}

/* A quick estimate of the value: the position played out with each player's first choice in
 * the search's own order (no search, no table).  On full Meitora deals it is exact in a third
 * of the deals and one trick low or high in another half; more often low than high. */
static int playout_estimate(const S *s0) {
    S s = *s0;
    const Rules *r = s.r;
    int np = r->np, v = 0;
    for (;;) {
        if (s.tn == 0 && !s.hands[s.leader]) break;
        int seat = r->mod_np[s.leader + s.tn];
        u64 legal = legal_mask(r, s.hands[seat], s.tn, s.led);
        Move mv[NCARD * 2];
        int n = gen_moves(&s, seat, legal, mv);
        if (n > 1) order_moves_of(&s, seat, mv, n);
        int c = mv[0].card;
        s.hands[seat] ^= 1ULL << c;
        s.tcard[s.tn] = c;
        if (s.tn == 0) s.led = mv[0].led;
        s.tn++;
        if (s.tn == np) {
            int wi = trick_winner_idx(&s);
            if (s.maxside[r->mod_np[s.leader + wi]]) v += trick_value(&s);
            for (int i = 0; i < np; i++) s.gone |= 1ULL << s.tcard[i];
            s.leader = r->mod_np[s.leader + wi];
            s.tn = 0;
            s.first = 0;
        }
    }
    return v;
}

/* The first probe's guess: the caller's, else the playout's value plus a trick (a probe just
 * above the value costs about as little as one at it, one below costs a probe more: on full
 * Meitora deals this starts at the value or one above it in two deals of three). */
static int first_guess(const S *s, int guess, int hi) {
    if (guess >= 0) return guess;
    int g = playout_estimate(s) + s->r->trick_base;
    return g > hi ? hi : g;
}

/* The exact value by null-window searches (MTD(f): probe at the guess, move towards the value;
 * the table keeps the bounds found between probes).  guess < 0: start from first_guess.  Each
 * probe's expected result (S.expect): below the first guess (one above the playout), then the
 * other way from the last probe's. */
static int search_exact(S *s, int lo, int hi, int guess, int *out_hi) {
    int g = first_guess(s, guess, hi);
    s->expect = 0;
    while (lo < hi) {
        int beta = probe_beta(g, lo, hi);
        int rel[NSUIT];
        int v = (s->tn == 0) ? ab_trick_start(s, beta - 1, beta, rel) : ab(s, beta - 1, beta, rel);
        if (s->aborted) break;
        probe_done(s, v, beta, &lo, &hi, &g);
    }
    *out_hi = hi;
    return lo;
}

/* The value after the choice m of the player to move (solve_moves), by null-window searches
 * through child from the guess g, as search_exact; lo and hi: the bounds found. */
static void search_choice(S *s, int seat, Trick *t, const Move *m, int *lo, int *hi, int g) {
    s->expect = 0;
    while (*lo < *hi) {
        int beta = probe_beta(g, *lo, *hi);
        int rel[NSUIT];
        int v = child(s, seat, t, m, beta - 1, beta, rel);
        if (s->aborted) break;
        probe_done(s, v, beta, lo, hi, &g);
    }
}


#ifndef CSOLVER_FAST_PASS
/* -- The same core again, compiled for CPUs with BMI1, BMI2 and LZCNT (where pdep and pext are
 * fast: use_bmi2): a card's highest and lowest bits in one cycle instead of several, the
 * squeezed table key in place.  A solve runs the one core or the other whole (CORE()). */
#if defined(HAVE_BMI2_PATH) && defined(__GNUC__) && !defined(__clang__) && !defined(DEBUGV)
#define FAST_CORE 1
#define CSOLVER_FAST_PASS 1
#pragma GCC push_options
#pragma GCC target("popcnt,bmi,bmi2,lzcnt")
#define ab ab_fast
#define ab_trick_start ab_trick_start_fast
#define above above_fast
#define add_move add_move_fast
#define canonical canonical_fast
#define child child_fast
#define first_guess first_guess_fast
#define gen_moves gen_moves_fast
#define gen_moves_loop gen_moves_loop_fast
#define run_lows run_lows_fast
#define highbit highbit_fast
#define gen_follow gen_follow_fast
#define follow_score follow_score_fast
#define sort_moves sort_moves_fast
#define kth_high kth_high_fast
#define horizon_value horizon_value_fast
#define last_trick_rel last_trick_rel_fast
#define legal_mask legal_mask_fast
#define lowbit lowbit_fast
#define order_moves order_moves_fast
#define order_moves_of order_moves_of_fast
#define playout_estimate playout_estimate_fast
#define popc popc_fast
#define quick_tricks quick_tricks_fast
#define quick_tricks_of quick_tricks_of_fast
#define later_tricks later_tricks_fast
#define rel_max rel_max_fast
#define rel_slots rel_slots_fast
#define search_exact search_exact_fast
#define slots_rel slots_rel_fast
#define special_winner special_winner_fast
#define strongest_card strongest_card_fast
#define trick_so_far trick_so_far_fast
#define sure_tricks sure_tricks_fast
#define trick_add trick_add_fast
#define trick_prepare trick_prepare_fast
#define trick_value trick_value_fast
#define trick_winner_idx trick_winner_idx_fast
#define winner_of winner_of_fast
#define canonical_bmi2 canonical_bmi2_fast
#define search_choice search_choice_fast
#define etc_probe etc_probe_fast
#define rel_back rel_back_fast
#define free_trick_bound free_trick_bound_fast
#define free_base free_base_fast
#define end2 end2_fast
#define e2_ask e2_ask_fast
#define e2_node e2_node_fast
#define e2_leaf e2_leaf_fast
#define e2_won e2_won_fast
#include "_csolver.c"
#undef ab
#undef ab_trick_start
#undef above
#undef add_move
#undef canonical
#undef child
#undef first_guess
#undef gen_moves
#undef gen_moves_loop
#undef run_lows
#undef highbit
#undef gen_follow
#undef follow_score
#undef sort_moves
#undef kth_high
#undef horizon_value
#undef last_trick_rel
#undef legal_mask
#undef lowbit
#undef order_moves
#undef order_moves_of
#undef playout_estimate
#undef popc
#undef quick_tricks
#undef quick_tricks_of
#undef later_tricks
#undef rel_max
#undef rel_slots
#undef search_exact
#undef slots_rel
#undef special_winner
#undef strongest_card
#undef trick_so_far
#undef sure_tricks
#undef trick_add
#undef trick_prepare
#undef trick_value
#undef trick_winner_idx
#undef winner_of
#undef canonical_bmi2
#undef search_choice
#undef etc_probe
#undef rel_back
#undef free_trick_bound
#undef free_base
#undef end2
#undef e2_ask
#undef e2_node
#undef e2_leaf
#undef e2_won
#pragma GCC pop_options
#undef CSOLVER_FAST_PASS
#define CORE(f) (use_bmi2 ? f##_fast : f)
#else
#define CORE(f) f
#endif

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
        /* a point onto the side's trick outweighs which card it is (until now a defender's
         * partner kept its points back: a sign slip); tuned on the same positions, checked on
         * Kakeya's with 6 and 13 left and Napoleon's with 8 */
        r->fw.schmear = 50; r->fw.capture = 10; r->fw.shed = 10;
    } else {
        /* master and multi (a joker lead) retuned in the seventh session on the geometric mean
         * of the nodes of 400 Meitora deals (not the bench's 200) */
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

static PyMethodDef methods[] = {
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
    use_bmi2 = __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("bmi") && lzcnt && !getenv("KIRIFUDA_SOLVER_NO_BMI2")
               && !(__builtin_cpu_is("amd") && (__builtin_cpu_is("amdfam15h") || __builtin_cpu_is("amdfam17h")));
#endif
    return PyModule_Create(&module);
}
#endif /* CSOLVER_FAST_PASS */
