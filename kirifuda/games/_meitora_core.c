/* The hot path of the Meitora engine, in C: the legal card plays of the seat to act and the
 * checked play of a card (trick resolution included).
 *
 * It is the base type of kirifuda.games.meitora.MeitoraState and holds the fields the hot path
 * touches; every rule outside the play of a card (bidding, the negri, claims, scoring, views)
 * stays in Python, which reaches these fields as ordinary attributes.  The same logic exists
 * in pure Python (meitora._PlayCore) as the fallback where no C compiler was found at install
 * time, and the test suite checks that both agree action by action.
 *
 * Cards are ids 0..52 (suit * 13 + rank - 2; the joker 52); a hand is a 64-bit mask.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include "../_bitops.h"

#define JOKER 52
#define JK_BIT (1ULL << JOKER)
#define NO_SUIT 4

/* constants handed over by configure() */
static PyObject *PLAY_TYPE = NULL;   /* kirifuda.actions.Play */
static PyObject *PHASE_PLAY = NULL;  /* Phase.PLAY */
static PyObject *CLAIM = NULL;       /* the Claim() instance */
static PyObject *PLAYS[53];          /* Play(card) by id; NULL outside the deck */
static PyObject *JOKER_LEADS[5];     /* Play(JK, request) for S H D C any */
static PyObject *PHASE_BIDDING = NULL, *PASS = NULL;
static PyObject *PHASE_DISCARD = NULL;
static PyObject *BIDS[25];           /* every bid, weakest first */
static PyObject *BIDDING_ACTIONS[2][26]; /* [weak hand][highest bid + 1] -> legal bidding actions */
static PyObject *DISCARDS[53];       /* Discard((card,)) by id; NULL outside the deck */
static uint64_t HONOUR_MASK, QUEEN_MASK;
static int STRENGTH[5][5][53];       /* [strain][led][card] */
static uint64_t SUIT_MASK[5][5];     /* [strain][effective suit] */
static int EFF[5][53];               /* [strain][card] -> effective suit */
static int TRUMP_LEAD[5];            /* [strain] -> what a joker lead asks under joker_lead=trump */
static int DECK[41];                 /* the card ids of the Meitora deck */
static int deck_ready = 0;
static int configured = 0;

/* Bumped whenever the core's interface or behaviour changes: meitora.py refuses a core built
   from another version (a stale build) and falls back to its pure-Python core. */
#define CORE_API 2

static PyObject *s_card, *s_id, *s_request, *s_call_joker, *s_score_played, *s_compute_legal,
    *s_apply_slow, *s_end_bidding;

typedef struct {
    PyObject_HEAD
    uint64_t hands[4];
    int trick_seat[4];
    int trick_card[4];
    int trick_len;
    int led;
    int leader;
    int strain;
    int high;              /* index of the highest bid in BIDS, or -1 */
    int bid_turns;
    int negri;             /* the negri's card id, or -1 */
    long long play_mask;
    char claim_always;
    char joker_request;
    PyObject *to_act;      /* int or None */
    PyObject *phase;
    PyObject *legal;       /* cached tuple of legal actions, or None */
    PyObject *log;         /* list of (seat, action) */
    PyObject *tricks;      /* list of (leader, (c0, c1, c2, c3), winner) */
    PyObject *team_tricks; /* list of two ints */
    PyObject *last;        /* the trick just completed, or None */
    PyObject *request;     /* the joker lead's request, or None */
    PyObject *declarer;    /* the highest bidder so far, or None */
} Core;

static int weak_hand(uint64_t hand) {
    uint64_t h = hand & HONOUR_MASK;
    return h == 0 || ((h & (h - 1)) == 0 && (h & QUEEN_MASK) != 0);
}

static int append_log(Core *self, int seat, PyObject *action) {
    PyObject *entry = Py_BuildValue("(iO)", seat, action);
    if (entry == NULL) return -1;
    int rc = PyList_Append(self->log, entry);
    Py_DECREF(entry);
    return rc;
}

static int request_suit(PyObject *req) {
    if (!PyUnicode_Check(req)) return -1;
    if (PyUnicode_CompareWithASCIIString(req, "S") == 0) return 0;
    if (PyUnicode_CompareWithASCIIString(req, "H") == 0) return 1;
    if (PyUnicode_CompareWithASCIIString(req, "D") == 0) return 2;
    if (PyUnicode_CompareWithASCIIString(req, "C") == 0) return 3;
    if (PyUnicode_CompareWithASCIIString(req, "any") == 0) return NO_SUIT;
    return -1;
}

static uint64_t legal_mask(Core *self, int seat) {
    uint64_t hand = self->hands[seat];
    if ((hand & JK_BIT) && kf_popcount(hand) == 2) return JK_BIT;  /* trick 9 */
    if (self->trick_len == 0 || self->led == NO_SUIT) return hand;
    uint64_t follow = hand & SUIT_MASK[self->strain][self->led];
    return follow ? (follow | (hand & JK_BIT)) : hand;
}

static int seat_of(PyObject *obj) {
    if (obj == NULL || !PyLong_Check(obj)) return -1;
    long v = PyLong_AsLong(obj);
    return (v >= 0 && v < 4) ? (int)v : -1;
}

static void set_obj(PyObject **slot, PyObject *value) {
    Py_INCREF(value);
    Py_XSETREF(*slot, value);
}

/* Play card ``cid`` for ``seat`` (already checked); ``req`` is borrowed. 0 ok, -1 error. */
static int do_play(Core *self, int seat, int cid, PyObject *req, int req_suit, PyObject *action) {
    set_obj(&self->legal, Py_None);
    self->play_mask = -1;
    if (action != NULL && append_log(self, seat, action) < 0) return -1;
    self->hands[seat] ^= (1ULL << cid);
    if (self->trick_len == 0) {
        set_obj(&self->last, Py_None);
        if (cid == JOKER) {
            self->led = (req == Py_None) ? TRUMP_LEAD[self->strain] : req_suit;
            set_obj(&self->request, req);
        } else {
            self->led = EFF[self->strain][cid];
            set_obj(&self->request, Py_None);
        }
    }
    self->trick_seat[self->trick_len] = seat;
    self->trick_card[self->trick_len] = cid;
    self->trick_len++;
    if (self->trick_len < 4) {
        PyObject *next = PyLong_FromLong((seat + 1) % 4);
        if (next == NULL) return -1;
        Py_XSETREF(self->to_act, next);
        return 0;
    }
    const int *strength = STRENGTH[self->strain][self->led];
    int best_seat = self->trick_seat[0], best = strength[self->trick_card[0]];
    for (int k = 1; k < 4; k++) {
        int v = strength[self->trick_card[k]];
        if (v > best) { best = v; best_seat = self->trick_seat[k]; }
    }
    PyObject *done = Py_BuildValue("(i(iiii)i)", self->leader, self->trick_card[0], self->trick_card[1],
                                   self->trick_card[2], self->trick_card[3], best_seat);
    if (done == NULL) return -1;
    if (PyList_Append(self->tricks, done) < 0) { Py_DECREF(done); return -1; }
    Py_XSETREF(self->last, done);
    PyObject *count = PyList_GetItem(self->team_tricks, best_seat & 1);
    if (count == NULL) return -1;
    PyObject *plus = PyLong_FromLong(PyLong_AsLong(count) + 1);
    if (plus == NULL || PyList_SetItem(self->team_tricks, best_seat & 1, plus) < 0) return -1;
    self->trick_len = 0;
    if (PyList_GET_SIZE(self->tricks) == 10) {
        PyObject *r = PyObject_CallMethodNoArgs((PyObject *)self, s_score_played);
        if (r == NULL) return -1;
        Py_DECREF(r);
        return 0;
    }
    self->leader = best_seat;
    PyObject *next = PyLong_FromLong(best_seat);
    if (next == NULL) return -1;
    Py_XSETREF(self->to_act, next);
    return 0;
}

static PyObject *Core_legal_actions(Core *self, PyObject *Py_UNUSED(ignored)) {
    /* the same actions, in the same order, as _MeitoraRules._compute_legal */
    if (self->legal != NULL && self->legal != Py_None) {
        Py_INCREF(self->legal);
        return self->legal;
    }
    int seat = seat_of(self->to_act);
    if (configured && self->phase == PHASE_PLAY && self->claim_always && seat >= 0) {
        uint64_t m = legal_mask(self, seat);
        self->play_mask = (long long)m;
        /* a joker lead names its request: five actions in place of one */
        int leads = (m & JK_BIT) && self->trick_len == 0 && self->joker_request;
        uint64_t plain = leads ? (m & ~JK_BIT) : m;
        Py_ssize_t n = kf_popcount(plain) + (leads ? 5 : 0) + 1;
        PyObject *t = PyTuple_New(n);
        if (t == NULL) return NULL;
        Py_ssize_t k = 0;
        while (plain) {
            int i = kf_ctz(plain);
            plain &= plain - 1;
            Py_INCREF(PLAYS[i]);
            PyTuple_SET_ITEM(t, k++, PLAYS[i]);
        }
        if (leads) {
            for (int r = 0; r < 5; r++) {
                Py_INCREF(JOKER_LEADS[r]);
                PyTuple_SET_ITEM(t, k++, JOKER_LEADS[r]);
            }
        }
        Py_INCREF(CLAIM);
        PyTuple_SET_ITEM(t, k, CLAIM);
        set_obj(&self->legal, t);
        return t;
    }
    if (configured && self->phase == PHASE_BIDDING && seat >= 0) {
        PyObject *t = BIDDING_ACTIONS[weak_hand(self->hands[seat])][self->high + 1];
        set_obj(&self->legal, t);
        Py_INCREF(t);
        return t;
    }
    if (configured && self->phase == PHASE_DISCARD && seat >= 0) {
        uint64_t m = self->hands[seat];
        PyObject *t = PyTuple_New(kf_popcount(m));
        if (t == NULL) return NULL;
        Py_ssize_t k = 0;
        while (m) {
            int i = kf_ctz(m);
            m &= m - 1;
            Py_INCREF(DISCARDS[i]);
            PyTuple_SET_ITEM(t, k++, DISCARDS[i]);
        }
        set_obj(&self->legal, t);
        return t;
    }
    PyObject *t = PyObject_CallMethodNoArgs((PyObject *)self, s_compute_legal);
    if (t == NULL) return NULL;
    set_obj(&self->legal, t);
    return t;
}

static PyObject *Core_apply(Core *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"action", "seat", NULL};
    PyObject *action, *seat = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:apply", kwlist, &action, &seat)) return NULL;
    int to_act = seat_of(self->to_act);
    if (configured && (PyObject *)Py_TYPE(action) == PLAY_TYPE && self->phase == PHASE_PLAY && to_act >= 0
            && (seat == Py_None || seat_of(seat) == to_act)) {
        PyObject *call = PyObject_GetAttr(action, s_call_joker);
        if (call == NULL) return NULL;
        int calls = PyObject_IsTrue(call);
        Py_DECREF(call);
        if (calls == 0) {
            uint64_t mask = self->play_mask >= 0 ? (uint64_t)self->play_mask : legal_mask(self, to_act);
            PyObject *card = PyObject_GetAttr(action, s_card);
            if (card == NULL) return NULL;
            PyObject *idobj = PyObject_GetAttr(card, s_id);
            Py_DECREF(card);
            if (idobj == NULL) return NULL;
            long cid = PyLong_AsLong(idobj);
            Py_DECREF(idobj);
            if (cid >= 0 && cid <= JOKER && ((mask >> cid) & 1)) {
                PyObject *req = PyObject_GetAttr(action, s_request);
                if (req == NULL) return NULL;
                int ok, req_suit = NO_SUIT;
                if (cid == JOKER && self->trick_len == 0 && self->joker_request) {
                    req_suit = req == Py_None ? -1 : request_suit(req);
                    ok = req_suit >= 0;
                } else {
                    ok = req == Py_None;
                }
                if (ok) {
                    int rc = do_play(self, to_act, (int)cid, req, req_suit, action);
                    Py_DECREF(req);
                    if (rc < 0) return NULL;
                    Py_RETURN_NONE;
                }
                Py_DECREF(req);
            }
        }
    }
    if (configured && to_act >= 0 && (seat == Py_None || seat_of(seat) == to_act)) {
        if (self->phase == PHASE_BIDDING) {
            int position = -2;  /* -1: a pass */
            if (action == PASS) position = -1;
            else for (int k = 0; k < 25; k++) if (action == BIDS[k]) { position = k; break; }
            if (position == -1 || position > self->high) {
                if (append_log(self, to_act, action) < 0) return NULL;
                set_obj(&self->legal, Py_None);
                self->play_mask = -1;
                if (position >= 0) {
                    self->high = position;
                    set_obj(&self->declarer, self->to_act);
                }
                self->bid_turns++;
                if (self->bid_turns < 4) {
                    PyObject *next = PyLong_FromLong((to_act + 1) % 4);
                    if (next == NULL) return NULL;
                    Py_XSETREF(self->to_act, next);
                    Py_RETURN_NONE;
                }
                return PyObject_CallMethodNoArgs((PyObject *)self, s_end_bidding);
            }
        } else if (self->phase == PHASE_DISCARD) {
            for (int cid = 0; cid < 53; cid++) {
                if (DISCARDS[cid] != NULL && action == DISCARDS[cid]) {
                    if (!((self->hands[to_act] >> cid) & 1)) break;
                    if (append_log(self, to_act, action) < 0) return NULL;
                    set_obj(&self->legal, Py_None);
                    self->play_mask = -1;
                    self->hands[to_act] &= ~(1ULL << cid);
                    self->negri = cid;
                    set_obj(&self->phase, PHASE_PLAY);
                    self->leader = to_act;
                    Py_RETURN_NONE;
                }
            }
        }
    }
    return PyObject_CallMethodObjArgs((PyObject *)self, s_apply_slow, action, seat, NULL);
}

static PyObject *Core_play(Core *self, PyObject *args) {
    /* _play(seat, cid, request): carry out a checked play (the slow path's way in) */
    int seat, cid;
    PyObject *req;
    if (!PyArg_ParseTuple(args, "iiO:_play", &seat, &cid, &req)) return NULL;
    if (seat < 0 || seat > 3 || cid < 0 || cid > JOKER) {
        PyErr_SetString(PyExc_ValueError, "_play: no such seat or card");
        return NULL;
    }
    int req_suit = req == Py_None ? NO_SUIT : request_suit(req);
    if (req_suit < 0) {
        PyErr_SetString(PyExc_ValueError, "_play: a request is S, H, D, C or any");
        return NULL;
    }
    if (do_play(self, seat, cid, req, req_suit, NULL) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Core_legal_play_mask(Core *self, PyObject *arg) {
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    if (seat < 0 || seat > 3) {
        PyErr_SetString(PyExc_ValueError, "no such seat");
        return NULL;
    }
    return PyLong_FromUnsignedLongLong(legal_mask(self, (int)seat));
}

static PyObject *Core_set_hand(Core *self, PyObject *args) {
    int seat;
    unsigned long long mask;
    if (!PyArg_ParseTuple(args, "iK:_set_hand", &seat, &mask)) return NULL;
    if (seat < 0 || seat > 3) {
        PyErr_SetString(PyExc_ValueError, "no such seat");
        return NULL;
    }
    self->hands[seat] = mask;
    Py_RETURN_NONE;
}

/* _hands: a tuple of four masks; set from any sequence of four ints */
static PyObject *Core_get_hands(Core *self, void *closure) {
    return Py_BuildValue("(KKKK)", self->hands[0], self->hands[1], self->hands[2], self->hands[3]);
}

static int Core_set_hands(Core *self, PyObject *value, void *closure) {
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "_hands cannot be deleted");
        return -1;
    }
    PyObject *seq = PySequence_Fast(value, "_hands must be a sequence of four masks");
    if (seq == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 4) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "_hands must hold four masks");
        return -1;
    }
    uint64_t tmp[4];
    for (int k = 0; k < 4; k++) {
        tmp[k] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, k));
        if (PyErr_Occurred()) { Py_DECREF(seq); return -1; }
    }
    Py_DECREF(seq);
    memcpy(self->hands, tmp, sizeof tmp);
    return 0;
}

/* _trick: a list of (seat, card id) in the order played */
static PyObject *Core_get_trick(Core *self, void *closure) {
    PyObject *out = PyList_New(self->trick_len);
    if (out == NULL) return NULL;
    for (int k = 0; k < self->trick_len; k++) {
        PyObject *pair = Py_BuildValue("(ii)", self->trick_seat[k], self->trick_card[k]);
        if (pair == NULL) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, k, pair);
    }
    return out;
}

static int Core_set_trick(Core *self, PyObject *value, void *closure) {
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "_trick cannot be deleted");
        return -1;
    }
    PyObject *seq = PySequence_Fast(value, "_trick must be a sequence of (seat, card) pairs");
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > 4) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a trick holds at most four cards");
        return -1;
    }
    int seats[4], cards[4];
    for (Py_ssize_t k = 0; k < n; k++) {
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, k), "ii", &seats[k], &cards[k])) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    for (Py_ssize_t k = 0; k < n; k++) {
        self->trick_seat[k] = seats[k];
        self->trick_card[k] = cards[k];
    }
    self->trick_len = (int)n;
    return 0;
}

static PyObject *Core_get_to_act(Core *self, void *closure) {
    PyObject *v = self->to_act ? self->to_act : Py_None;
    Py_INCREF(v);
    return v;
}

static int Core_traverse(Core *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->to_act);
    Py_VISIT(self->phase);
    Py_VISIT(self->legal);
    Py_VISIT(self->log);
    Py_VISIT(self->tricks);
    Py_VISIT(self->team_tricks);
    Py_VISIT(self->last);
    Py_VISIT(self->request);
    Py_VISIT(self->declarer);
    return 0;
}

static int Core_clear(Core *self) {
    Py_CLEAR(self->to_act);
    Py_CLEAR(self->phase);
    Py_CLEAR(self->legal);
    Py_CLEAR(self->log);
    Py_CLEAR(self->tricks);
    Py_CLEAR(self->team_tricks);
    Py_CLEAR(self->last);
    Py_CLEAR(self->request);
    Py_CLEAR(self->declarer);
    return 0;
}

static void Core_dealloc(Core *self) {
    PyObject_GC_UnTrack(self);
    Core_clear(self);
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyObject *Core_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    Core *self = (Core *)type->tp_alloc(type, 0);
    if (self == NULL) return NULL;
    self->led = NO_SUIT;
    self->strain = 4;
    self->play_mask = -1;
    self->claim_always = 1;
    self->joker_request = 1;
    self->high = -1;
    self->negri = -1;
    PyObject **slots[] = {&self->to_act, &self->phase, &self->legal, &self->last, &self->request,
                          &self->declarer};
    for (size_t k = 0; k < sizeof slots / sizeof slots[0]; k++) {
        Py_INCREF(Py_None);
        *slots[k] = Py_None;
    }
    self->log = PyList_New(0);
    self->tricks = PyList_New(0);
    self->team_tricks = Py_BuildValue("[ii]", 0, 0);
    if (self->log == NULL || self->tricks == NULL || self->team_tricks == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static PyMemberDef Core_members[] = {
    {"_phase", T_OBJECT, offsetof(Core, phase), 0, NULL},
    {"_to_act", T_OBJECT, offsetof(Core, to_act), 0, NULL},
    {"_legal", T_OBJECT, offsetof(Core, legal), 0, NULL},
    {"_log", T_OBJECT, offsetof(Core, log), 0, NULL},
    {"_tricks", T_OBJECT, offsetof(Core, tricks), 0, NULL},
    {"_team_tricks", T_OBJECT, offsetof(Core, team_tricks), 0, NULL},
    {"_last", T_OBJECT, offsetof(Core, last), 0, NULL},
    {"_request", T_OBJECT, offsetof(Core, request), 0, NULL},
    {"_declarer", T_OBJECT, offsetof(Core, declarer), 0, NULL},
    {"_high", T_INT, offsetof(Core, high), 0, NULL},
    {"_bid_turns", T_INT, offsetof(Core, bid_turns), 0, NULL},
    {"_negri", T_INT, offsetof(Core, negri), 0, NULL},
    {"_led", T_INT, offsetof(Core, led), 0, NULL},
    {"_leader", T_INT, offsetof(Core, leader), 0, NULL},
    {"_strain", T_INT, offsetof(Core, strain), 0, NULL},
    {"_play_mask", T_LONGLONG, offsetof(Core, play_mask), 0, NULL},
    {"_claim_always", T_BOOL, offsetof(Core, claim_always), 0, NULL},
    {"_joker_request", T_BOOL, offsetof(Core, joker_request), 0, NULL},
    {NULL},
};

static PyGetSetDef Core_getset[] = {
    {"_hands", (getter)Core_get_hands, (setter)Core_set_hands, "the four hands as card masks", NULL},
    {"_trick", (getter)Core_get_trick, (setter)Core_set_trick, "the trick being played", NULL},
    {"to_act", (getter)Core_get_to_act, NULL, "the seat to act, or None", NULL},
    {NULL},
};

static PyMethodDef Core_methods[] = {
    {"legal_actions", (PyCFunction)Core_legal_actions, METH_NOARGS,
     "The legal actions of the seat to act, in a stable order (cached)."},
    {"apply", (PyCFunction)(void (*)(void))Core_apply, METH_VARARGS | METH_KEYWORDS,
     "Check the action, then carry it out; a refused action leaves the state unchanged."},
    {"_play", (PyCFunction)Core_play, METH_VARARGS, "Carry out a checked card play."},
    {"_legal_play_mask", (PyCFunction)Core_legal_play_mask, METH_O, "The legal-card mask of a seat."},
    {"_set_hand", (PyCFunction)Core_set_hand, METH_VARARGS, "Set one seat's hand mask."},
    {NULL},
};

static PyType_Slot Core_slots[] = {
    {Py_tp_doc, "The hot path of a Meitora state (C)."},
    {Py_tp_new, Core_new},
    {Py_tp_dealloc, Core_dealloc},
    {Py_tp_traverse, Core_traverse},
    {Py_tp_clear, Core_clear},
    {Py_tp_members, Core_members},
    {Py_tp_getset, Core_getset},
    {Py_tp_methods, Core_methods},
    {0, NULL},
};

static PyType_Spec Core_spec = {
    .name = "kirifuda.games._meitora_core.PlayCore",
    .basicsize = sizeof(Core),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = Core_slots,
};

static int fill_ints(PyObject *seq, int *out, Py_ssize_t n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items", what, n);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        out[k] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
        if (PyErr_Occurred()) { Py_DECREF(fast); return -1; }
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *configure(PyObject *module, PyObject *args) {
    /* configure(Play, Phase.PLAY, CLAIM, plays[53], joker_leads[5], strength[5][5][53],
                 suit_masks[5][5], eff[5][53], trump_lead[5], deck[41],
                 Phase.BIDDING, Phase.DISCARD, PASS, bids[25], bidding_actions[2][26], discards[53],
                 honour_mask, queen_mask) */
    PyObject *play_type, *phase_play, *claim, *plays, *leads, *strength, *masks, *eff, *trump_lead, *deck;
    PyObject *phase_bidding, *phase_discard, *pass, *bids, *bidding, *discards;
    unsigned long long honours, queens;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOKK:configure", &play_type, &phase_play, &claim, &plays,
                          &leads, &strength, &masks, &eff, &trump_lead, &deck, &phase_bidding,
                          &phase_discard, &pass, &bids, &bidding, &discards, &honours, &queens))
        return NULL;
    HONOUR_MASK = honours;
    QUEEN_MASK = queens;
    for (int k = 0; k < 25; k++) {
        PyObject *b = PySequence_GetItem(bids, k);
        if (b == NULL) return NULL;
        Py_XSETREF(BIDS[k], b);
    }
    for (int w = 0; w < 2; w++) {
        PyObject *row = PySequence_GetItem(bidding, w);
        if (row == NULL) return NULL;
        for (int h = 0; h < 26; h++) {
            PyObject *t = PySequence_GetItem(row, h);
            if (t == NULL || !PyTuple_Check(t)) {
                Py_XDECREF(t);
                Py_DECREF(row);
                PyErr_SetString(PyExc_ValueError, "bidding actions must be tuples");
                return NULL;
            }
            Py_XSETREF(BIDDING_ACTIONS[w][h], t);
        }
        Py_DECREF(row);
    }
    for (int i = 0; i < 53; i++) {
        PyObject *d = PySequence_GetItem(discards, i);
        if (d == NULL) return NULL;
        if (d == Py_None) { Py_DECREF(d); d = NULL; }
        Py_XSETREF(DISCARDS[i], d);
    }
    set_obj(&PHASE_BIDDING, phase_bidding);
    set_obj(&PHASE_DISCARD, phase_discard);
    set_obj(&PASS, pass);
    if (fill_ints(deck, DECK, 41, "deck") < 0) return NULL;
    deck_ready = 1;
    for (int r = 0; r < 5; r++) {
        PyObject *lead = PySequence_GetItem(leads, r);
        if (lead == NULL) return NULL;
        Py_XSETREF(JOKER_LEADS[r], lead);
    }
    PyObject *fast = PySequence_Fast(plays, "plays");
    if (fast == NULL) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != 53) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "plays: expected 53 items");
        return NULL;
    }
    for (int i = 0; i < 53; i++) {
        PyObject *p = PySequence_Fast_GET_ITEM(fast, i);
        Py_XDECREF(PLAYS[i]);
        PLAYS[i] = p == Py_None ? NULL : p;
        Py_XINCREF(PLAYS[i]);
    }
    Py_DECREF(fast);
    for (int s = 0; s < 5; s++) {
        PyObject *by_led = PySequence_GetItem(strength, s);
        if (by_led == NULL) return NULL;
        for (int l = 0; l < 5; l++) {
            PyObject *row = PySequence_GetItem(by_led, l);
            if (row == NULL || fill_ints(row, STRENGTH[s][l], 53, "strength") < 0) {
                Py_XDECREF(row);
                Py_DECREF(by_led);
                return NULL;
            }
            Py_DECREF(row);
        }
        Py_DECREF(by_led);
        PyObject *mrow = PySequence_GetItem(masks, s);
        if (mrow == NULL) return NULL;
        for (int l = 0; l < 5; l++) {
            PyObject *m = PySequence_GetItem(mrow, l);
            if (m == NULL) { Py_DECREF(mrow); return NULL; }
            SUIT_MASK[s][l] = PyLong_AsUnsignedLongLong(m);
            Py_DECREF(m);
            if (PyErr_Occurred()) { Py_DECREF(mrow); return NULL; }
        }
        Py_DECREF(mrow);
        PyObject *erow = PySequence_GetItem(eff, s);
        if (erow == NULL || fill_ints(erow, EFF[s], 53, "eff") < 0) { Py_XDECREF(erow); return NULL; }
        Py_DECREF(erow);
    }
    if (fill_ints(trump_lead, TRUMP_LEAD, 5, "trump_lead") < 0) return NULL;
    set_obj(&PLAY_TYPE, play_type);
    set_obj(&PHASE_PLAY, phase_play);
    set_obj(&CLAIM, claim);
    configured = 1;
    Py_RETURN_NONE;
}

static PyObject *deal_masks(PyObject *module, PyObject *arg) {
    /* deal_masks(randomness: 40 * 8 bytes) -> (hand0, hand1, hand2, hand3, agari): a
       Fisher-Yates shuffle of the 41 cards driven by 64-bit words (little-endian). */
    if (!deck_ready) {
        PyErr_SetString(PyExc_RuntimeError, "the C core is not configured");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
    if (view.len < 40 * 8) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "deal_masks needs 320 bytes of randomness");
        return NULL;
    }
    const unsigned char *bytes = view.buf;
    int ids[41];
    memcpy(ids, DECK, sizeof ids);
    for (int i = 40; i > 0; i--) {
        uint64_t x = 0;
        for (int b = 7; b >= 0; b--) x = (x << 8) | bytes[(40 - i) * 8 + b];
        /* j = floor(x * (i + 1) / 2^64), in 64-bit halves (no 128-bit type in MSVC): exact,
         * since floor((a * 2^32 + b) / 2^64) = floor((a + floor(b / 2^32)) / 2^32) */
        uint64_t m = (uint64_t)(i + 1);
        int j = (int)(((x >> 32) * m + (((x & 0xFFFFFFFFULL) * m) >> 32)) >> 32);
        int t = ids[i]; ids[i] = ids[j]; ids[j] = t;
    }
    PyBuffer_Release(&view);
    uint64_t hands[4] = {0, 0, 0, 0};
    for (int k = 0; k < 40; k++) hands[k / 10] |= 1ULL << ids[k];
    return Py_BuildValue("(KKKKi)", hands[0], hands[1], hands[2], hands[3], ids[40]);
}

static PyMethodDef module_methods[] = {
    {"configure", configure, METH_VARARGS, "Hand the engine's tables and constants to the C core."},
    {"deal_masks", deal_masks, METH_O, "Shuffle and deal the 41 cards from 320 random bytes."},
    {NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "kirifuda.games._meitora_core",
    "The Meitora engine's hot path in C (see kirifuda.games.meitora).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__meitora_core(void) {
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL) return NULL;
    s_card = PyUnicode_InternFromString("card");
    s_id = PyUnicode_InternFromString("id");
    s_request = PyUnicode_InternFromString("request");
    s_call_joker = PyUnicode_InternFromString("call_joker");
    s_score_played = PyUnicode_InternFromString("_score_played");
    s_compute_legal = PyUnicode_InternFromString("_compute_legal");
    s_apply_slow = PyUnicode_InternFromString("_apply_slow");
    s_end_bidding = PyUnicode_InternFromString("_end_bidding");
    if (PyModule_AddIntConstant(m, "CORE_API", CORE_API) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    PyObject *type = PyType_FromSpec(&Core_spec);
    if (type == NULL || PyModule_AddObject(m, "PlayCore", type) < 0) {
        Py_XDECREF(type);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
