"""How the four longer Unsun records here were made: random plays on random deals, and the
expected replay computed by an independent reading of spec §4-§6 (no kirifuda code).

    python3 tests/records/unsun/generate_unsun_records.py tests/records/unsun
"""

import json
import random
import sys

RANKS = "23456789TJQKA"
DECK = [r + s for s in "SHDC" for r in RANKS]
SIZES = {3: (16, 4), 4: (12, 4), 5: (10, 2)}


def group(code, trump):
    s = code[1]
    return "trump" if s == trump else ("red" if s in "HD" else "black")


def winner(plays, trump):
    rank = RANKS.index
    trumps = [(rank(c[0]), s) for s, c in plays if group(c, trump) == "trump"]
    if trumps:
        return max(trumps)[1]
    *before, (ls, lc) = plays
    gb = {group(c, trump) for _, c in before}
    if group(lc, trump) in gb:
        contested, cands = group(lc, trump), plays
    else:
        (contested,) = gb
        cands = before
    best, bs = -1, None
    for s, c in cands:
        if group(c, trump) == contested and rank(c[0]) > best:
            best, bs = rank(c[0]), s
    return bs


def make(n, options, first, deals_played, partial, seed, names=None):
    rng = random.Random(seed)
    size, left = SIZES[n]
    reflip = options.get("reflip_face_card", False)
    rec_deals, exp_deals = [], []
    totals = [0] * n
    deals_won = [0] * n
    n_deals = options.get("deals", n)
    for k in range(deals_played):
        dealer = (first + k) % n
        while True:
            pack = DECK[:]
            rng.shuffle(pack)
            if not reflip or pack[0][0] not in "AKQJ":
                break
        indicator = pack[0]
        hands = [
            sorted(pack[1 + s * size : 1 + (s + 1) * size], key=lambda c: ("SHDC".index(c[1]), -RANKS.index(c[0])))
            for s in range(n)
        ]
        rest = [indicator] + pack[1 + n * size :]
        trump = indicator[1]
        holder = next((s for s in range(n) if "JC" in hands[s]), None)
        last = dealer if holder is None else holder
        start = (last + 1) % n
        held = [list(h) for h in hands]
        actions, tricks = [], []
        won = [0] * n
        n_tricks = size if k < deals_played - 1 or partial is None else partial[0]
        for _ in range(n_tricks):
            plays = []
            for i in range(n):
                s = (start + i) % n
                c = rng.choice(held[s])
                held[s].remove(c)
                plays.append((s, c))
                actions.append({"seat": s, "play": c})
            w = winner(plays, trump)
            tricks.append(
                {"leader": start, "cards": [c for _, c in plays], "winner": w, "last_player": (start - 1) % n}
            )
            won[w] += 1
            start = w
        finished_deal = n_tricks == size
        if not finished_deal:
            for i in range(partial[1]):
                s = (start + i) % n
                c = rng.choice(held[s])
                held[s].remove(c)
                actions.append({"seat": s, "play": c})
        rec_deals.append({"hands": hands, "rest": rest, "actions": actions})
        if finished_deal:
            top = max(won)
            winners = [s for s in range(n) if won[s] == top]
            for s in winners:
                deals_won[s] += 1
            totals = [a + b for a, b in zip(totals, won)]
        exp_deals.append(
            {
                "outcome": "played" if finished_deal else "in-progress",
                "tricks": tricks,
                "score": won if finished_deal else [0] * n,
                "trump": trump,
                "tricks_won": won,
                "dealer": dealer,
                "indicator": indicator,
                "winners": winners if finished_deal else None,
            }
        )
    finished = all(d["outcome"] == "played" for d in exp_deals) and len(exp_deals) == n_deals
    win = None
    if finished:
        top = max(totals)
        ws = [s for s in range(n) if totals[s] == top]
        win = ws[0] if len(ws) == 1 else ws
    rec = {"format": "kirifuda-record/1", "game": "unsun", "options": options}
    if names:
        rec["players"] = names
    rec["first"] = first
    rec["deals"] = rec_deals
    exp = {
        "game": "unsun",
        "deals": exp_deals,
        "totals": totals,
        "finished": finished,
        "winner": win,
        "deals_won": deals_won,
    }
    return rec, exp


def dump_record(rec):
    lines = ["{"]
    for k, v in rec.items():
        if k != "deals":
            lines.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},")
    lines.append('  "deals": [')
    for i, d in enumerate(rec["deals"]):
        lines.append("    {")
        lines.append('      "hands": [')
        lines += [
            f"        {json.dumps(h)}" + ("," if j < len(d["hands"]) - 1 else "") for j, h in enumerate(d["hands"])
        ]
        lines.append("      ],")
        lines.append(f'      "rest": {json.dumps(d["rest"])},')
        lines.append('      "actions": [')
        lines += [
            f"        {json.dumps(a)}" + ("," if j < len(d["actions"]) - 1 else "") for j, a in enumerate(d["actions"])
        ]
        lines.append("      ]")
        lines.append("    }" + ("," if i < len(rec["deals"]) - 1 else ""))
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def dump_expected(exp):
    lines = ["{", '  "game": "unsun",', '  "deals": [']
    for i, d in enumerate(exp["deals"]):
        lines.append("    {")
        lines.append(f'      "outcome": {json.dumps(d["outcome"])},')
        lines.append('      "tricks": [')
        lines += [
            f"        {json.dumps(t)}" + ("," if j < len(d["tricks"]) - 1 else "") for j, t in enumerate(d["tricks"])
        ]
        lines.append("      ],")
        keys = [k for k in d if k not in ("outcome", "tricks")]
        lines += [
            f"      {json.dumps(k)}: {json.dumps(d[k])}" + ("," if j < len(keys) - 1 else "")
            for j, k in enumerate(keys)
        ]
        lines.append("    }" + ("," if i < len(exp["deals"]) - 1 else ""))
    lines.append("  ],")
    keys = [k for k in exp if k not in ("game", "deals")]
    lines += [
        f"  {json.dumps(k)}: {json.dumps(exp[k])}" + ("," if j < len(keys) - 1 else "") for j, k in enumerate(keys)
    ]
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(out):
    specs = [
        ("five-one-deal-reflip", 5, {"players": 5, "deals": 1, "reflip_face_card": True}, 3, 1, None, 51),
        (
            "three-match-all-trumps-face-down",
            3,
            {"players": 3, "deals": 2, "all_trumps_face_down": True},
            1,
            2,
            None,
            52,
        ),
        ("four-match-in-progress", 4, {}, 2, 2, (3, 2), 53),
        # deal 2: ♣J left over, so its dealer (seat 4, the next seat after deal 1's dealer 3)
        # is the first last player and seat 0 starts
        ("five-match-clubs-jack-left-over-in-deal-2", 5, {"players": 5, "deals": 2}, 3, 2, None, 63),
    ]
    for name, n, opts, first, played, partial, seed in specs:
        rec, exp = make(n, opts, first, played, partial, seed)
        open(f"{out}/{name}.json", "w").write(dump_record(rec))
        open(f"{out}/{name}.expected.json", "w").write(dump_expected(exp))
        print(name, exp["totals"], exp["finished"], exp["winner"])


if __name__ == "__main__":
    main(sys.argv[1])
