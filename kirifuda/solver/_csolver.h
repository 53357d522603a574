/* The solver's shared declarations: its limits, the compiled rules (Rules), the transposition
 * table and the search state, included by both builds of the search (_csolver.c, the portable
 * one with the Python glue, and _csolver_bmi2.c); _csolver.c describes the algorithm. */
#ifndef KIRIFUDA_CSOLVER_H
#define KIRIFUDA_CSOLVER_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../_bitops.h"
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(KIRIFUDA_PORTABLE)
#include <immintrin.h>
#include <cpuid.h>
#define HAVE_BMI2_PATH 1
#if defined(__GNUC__) && !defined(__clang__)
/* GCC builds the search a second time for BMI1, BMI2 and LZCNT (_csolver_bmi2.c) */
#define FAST_CORE 1
#endif
/* BMI2's pext/pdep squeeze a hand in two instructions; on the AMD families before Zen 3 they
 * are microcoded and slow, so there the plain loop is used (set once, at import).  Where set,
 * solves run the core compiled for BMI1, BMI2 and LZCNT (FAST_CORE). */
__attribute__((visibility("hidden"))) extern int kf_use_bmi2;   /* set by PyInit__csolver (_csolver.c) */
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

/* The BMI2 build's entry points (_csolver_bmi2.c), used where kf_use_bmi2 is set; shared
 * between the extension's compilation units only. */
#ifdef FAST_CORE
#define KF_INTERNAL __attribute__((visibility("hidden")))
KF_INTERNAL int first_guess_bmi2(const S *s, int guess, int hi);
KF_INTERNAL int search_exact_bmi2(S *s, int lo, int hi, int guess, int *out_hi);
KF_INTERNAL void search_choice_bmi2(S *s, int seat, Trick *t, const Move *m, int *lo, int *hi, int g);
#endif

#endif /* KIRIFUDA_CSOLVER_H */
