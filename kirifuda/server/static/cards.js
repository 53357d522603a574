// Cards drawn as SVG.  A card code is rank then suit ("TH", "AS") or "JK"; anything else is a
// face-down card.  Each suit has its class (s S, s H, s D, s C): two colours, or four with the
// four-colour deck setting.  Words (the joker's name) come from the catalogue through t().
"use strict";
const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK_TEXT = { T: "10" };
const CARD_RE = /^([2-9TJQKA][SHDC]|JK)$/;

function isCard(x) { return typeof x === "string" && CARD_RE.test(x); }

function cardText(code, lang) {
  if (!isCard(code)) return t("face_down");
  if (code === "JK") return t("joker");
  const r = RANK_TEXT[code[0]] || code[0], s = SUIT_SYMBOL[code[1]];
  return lang === "ja" ? s + r : r + s;
}

function cardSVG(code) {
  if (!isCard(code)) {
    return `<svg class="svgcard" viewBox="0 0 60 84" role="img" aria-label="${t("face_down")}"><rect x="1" y="1" width="58" height="82" rx="6" class="back"/><rect x="6" y="6" width="48" height="72" rx="3" class="back-inner"/></svg>`;
  }
  if (code === "JK") {
    return `<svg class="svgcard" viewBox="0 0 60 84" aria-hidden="true"><rect x="1" y="1" width="58" height="82" rx="6" class="face"/><text x="5" y="17" class="jk">JK</text><text x="30" y="55" class="pip jkpip" text-anchor="middle">★</text><text x="55" y="79" class="jk" text-anchor="end">JK</text></svg>`;
  }
  const r = RANK_TEXT[code[0]] || code[0], s = SUIT_SYMBOL[code[1]];
  return `<svg class="svgcard s${code[1]}" viewBox="0 0 60 84" aria-hidden="true"><rect x="1" y="1" width="58" height="82" rx="6" class="face"/>` +
    `<text x="5" y="19" class="idx">${r}</text><text x="5" y="34" class="idx">${s}</text>` +
    `<text x="31" y="60" class="pip" text-anchor="middle">${s}</text></svg>`;
}
