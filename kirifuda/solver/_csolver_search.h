/* The search (the core): the alpha-beta search over a position (S), its bounds, move ordering
 * and table (_csolver.c describes the algorithm).  Built twice, as two compilation units: in
 * _csolver.c, portable, and in _csolver_bmi2.c, for x86-64 CPUs with BMI1, BMI2 and LZCNT
 * (CSOLVER_FAST_PASS: pdep for the k-th highest card).  Every function is static: each build
 * has its own copy, and a solve runs the one or the other whole (CORE() in _csolver.c). */
#ifndef KIRIFUDA_CSOLVER_SEARCH_H
#define KIRIFUDA_CSOLVER_SEARCH_H
#include "_csolver.h"
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
    if (kf_use_bmi2) { canonical_bmi2(s, key); return; }
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


static int ab_trick_start(S *s, int alpha, int beta, int *rel) {
    const Rules *r = s->r;
    int np = r->np;
    for (int i = 0; i < NSUIT; i++) rel[i] = 0;
   
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
            if (cut) {
                for (int su = 0; su < NSUIT; su++) rel[su] = qrel[su];
                return s->maxside[s->leader] ? q : maxv - q;
            }
        }
        /* the side on lead needs every trick left and surely loses one */
        if (s->maxside[s->leader] ? maxv - r->trick_base <= alpha : r->trick_base >= beta) {
            if (later_tricks(s, rel)) { return s->maxside[s->leader] ? maxv - r->trick_base : r->trick_base; }
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
        if (e->lo >= beta || e->hi <= alpha) {
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
    if (lo == hi) { slots_rel(r, used, rel); return lo; }
    if (lo > alpha) alpha = lo;
    if (hi < beta) beta = hi;
    int a0 = alpha, b0 = beta;
    int v;
    if (left == 2 && !r->has_points && !r->special && !r->restricted_mask) { s->nodes++; v = end2(s, alpha, beta, rel); }
    else { v = ab(s, alpha, beta, rel); }
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
    return v;
}

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

#endif /* KIRIFUDA_CSOLVER_SEARCH_H */
