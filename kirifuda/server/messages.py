"""The browser client's words, in Japanese and English, registered into the one catalogue.

Every string the page shows comes from here (or from the games' own terms already in
:mod:`kirifuda.i18n`): :func:`catalogue` gives the whole catalogue of one language, which the
server sends to the page (``GET /api/i18n``).  Keys are dotted (``web.turn.bidding``); ``{name}``
marks a value filled in by the page.  A key lacking a language fails ``tests/web/test_catalogue``.
"""

from __future__ import annotations

from .. import i18n

__all__ = ["WEB_MESSAGES", "catalogue", "missing_languages"]

WEB_MESSAGES: dict[str, tuple[str, str]] = {
    # -- the lobby ---------------------------------------------------------------------------
    "web.lobby": ("ロビー", "Lobby"),
    "web.game": ("ゲーム", "Game"),
    "web.players": ("{n}人", "{n} players"),
    "web.options": ("ローカルルール", "Local rules"),
    "web.default": ("既定", "default"),
    "web.seats": ("席", "Seats"),
    "web.seat": ("席{n}", "Seat {n}"),
    "web.human": ("人間", "Human"),
    "web.bot": ("ボット", "Bot"),
    "web.name": ("名前", "Name"),
    "web.timer": ("持ち時間", "Turn timer"),
    "web.off": ("なし", "off"),
    "web.sec": ("{n}秒", "{n} s"),
    "web.create": ("卓を作る", "Create the table"),
    "web.created": (
        "卓ができました。各席の招待リンクを送ってください。このページのホスト用リンクで、いつでもリンクを出し直せます。",
        "The table is ready. Send each friend their seat's link. The host link below shows them again at any time.",
    ),
    "web.invite": ("招待リンク", "Invitation link"),
    "web.copy": ("コピー", "Copy"),
    "web.copied": ("コピーしました", "Copied"),
    "web.play_here": ("この席で遊ぶ", "Play this seat"),
    "web.watch": ("観戦", "Watch"),
    "web.tables": ("卓の一覧", "Tables"),
    "web.no_tables": ("卓はまだありません", "No tables yet"),
    "web.your_seat": ("自分の席へ", "Back to your seat"),
    "web.host_page": ("ホスト画面", "Host page"),
    "web.tutorial_link": ("{game}をチュートリアルで覚える", "Learn {game}: a guided first deal"),
    "web.tutorials_all": ("チュートリアルの一覧", "All tutorials"),
    "web.open_record": ("棋譜を開く", "Open a record"),
    "web.upload": ("棋譜ファイル (JSON) を選ぶ", "Choose a record file (JSON)"),
    "web.none": ("なし", "none"),
    "web.yes": ("はい", "yes"),
    "web.no": ("いいえ", "no"),
    "web.unlimited": ("指定なし (既定)", "not set (default)"),
    "web.not_set": ("指定なし", "not set"),
    "web.player_default": ("プレイヤー{n}", "Player {n}"),
    "web.bot_default": ("ボット{n}", "Bot {n}"),
    "web.bots.heuristic": ("ふつう", "normal"),
    "web.bots.random": ("ランダム", "random"),
    "web.bots.search": ("強い (探索)", "strong (search)"),
    "web.bots.search:easy": ("やさしい (探索)", "easy (search)"),
    "web.bots.search:strong": ("最強 (探索・遅い)", "strongest (search, slow)"),
    # -- settings ----------------------------------------------------------------------------
    "web.settings": ("設定", "Settings"),
    "web.language": ("言語", "Language"),
    "web.text_size": ("文字の大きさ", "Text size"),
    "web.four_colour": ("4色のスート (♠黒 ♥赤 ♦青 ♣緑)", "Four-colour suits (♠ black ♥ red ♦ blue ♣ green)"),
    "web.motion": ("カードの動き", "Card motion"),
    "web.sound": (
        "効果音 (自分の番・場が取られた・回の終わり・持ち時間の警告)",
        "Sound (your turn, a trick taken, a deal's end, the turn clock running out)",
    ),
    "web.sound_toggle": ("効果音", "Sound"),
    "web.sound_on": ("効果音: オン (押すと消音)", "Sound on (press to mute)"),
    "web.sound_off": ("効果音: オフ (押すと鳴らす)", "Sound off (press to turn on)"),
    # -- the host ----------------------------------------------------------------------------
    "web.host": ("ホスト", "Host"),
    "web.host_link": ("ホスト用リンク (自分だけで保管)", "Host link (keep it to yourself)"),
    "web.host_title": ("卓の管理", "Manage the table"),
    "web.host_help": (
        "招待リンクをなくした人には「新しいリンク」で出し直せます (古いリンクは使えなくなります)。来られない人の席はボットに替えられます。",
        'Someone lost their link? "New link" issues another (the old one stops working). A seat whose player cannot come can be handed to a bot.',
    ),
    "web.new_link": ("新しいリンク", "New link"),
    "web.to_bot": ("ボットに替える", "Hand to a bot"),
    "web.to_bot_confirm": (
        "{who} の席をボットに替えますか？ この席のリンクは使えなくなります。",
        "Hand {who}'s seat to a bot? That seat's link stops working.",
    ),
    "web.link_issued": (
        "{who} の新しいリンクを出しました。古いリンクは使えません。",
        "A new link for {who} is ready; the old one no longer works.",
    ),
    "web.seat_to_bot": ("{who} の席はボットが打ちます", "A bot now plays {who}'s seat"),
    "web.host_denied": ("ホスト用リンクが正しくありません", "This host link is not valid for this table"),
    "web.replaced": (
        "この席の招待リンクは出し直されました。観戦に切り替えます。",
        "This seat's link was replaced by the host: you are now watching.",
    ),
    # -- the table ---------------------------------------------------------------------------
    "web.you": ("あなた", "you"),
    "web.spectator": ("観戦中", "Watching"),
    "web.spectators": ("観戦 {n}人", "{n} watching"),
    "web.connected": ("接続中", "connected"),
    "web.disconnected": ("切断", "disconnected"),
    "web.standin": ("ボットが代打ち中", "a bot plays for them"),
    "web.your_turn": ("あなたの番です", "Your turn"),
    "web.match_over": ("試合終了", "The match is over"),
    "web.turn.bidding": ("{who} が宣言する番です", "{who} to bid"),
    "web.turn.discard": ("{who} が札を捨てる番です", "{who} to discard"),
    "web.turn.play": ("{who} が札を出す番です", "{who} to play"),
    "web.turn.adjutant": ("{who} が副官を指名する番です", "{who} to name the adjutant"),
    "web.turn.redeclare": ("{who} が再宣言を決める番です", "{who} to re-declare or not"),
    "web.turn.approve": ("{who} が再宣言に答える番です", "{who} to approve or reject"),
    "web.turn.trump": ("{who} が切りを決める番です", "{who} to choose the trump"),
    "web.turn.leader": ("{who} が最初に出す人を決める番です", "{who} to choose who leads"),
    "web.turn.other": ("{who} の番です", "{who} to act"),
    "web.deal_n": ("第{n}回", "Deal {n}"),
    "web.deal_of": ("第{n}回 / 全{of}回", "Deal {n} of {of}"),
    "web.clock": ("残り {n} 秒", "{n} s left"),
    "web.clock_you": ("あと {n} 秒でボットが代わりに打ちます", "{n} s, then a bot plays for you"),
    "web.bot_played_for_you": ("時間切れ: ボットがあなたの代わりに打ちました", "Time ran out: a bot played for you"),
    "web.bot_played_for": ("時間切れ: ボットが {who} の代わりに打ちました", "Time ran out: a bot played for {who}"),
    "web.dropped": (
        "{who} の接続が切れました: あと {n} 秒でボットが代打ちします",
        "{who} dropped: a bot plays in {n} s",
    ),
    "web.offline": (
        "サーバーにつながっていません。再接続しています… (操作はできません)",
        "Not connected to the server. Reconnecting… (input is blocked)",
    ),
    "web.back_online": ("再接続しました", "Connected again"),
    "web.not_found": ("その卓はありません", "No such table"),
    "web.leader_mark": ("リード", "leads"),
    "web.tricks_won": ("{n}トリック", "tricks: {n}"),
    "web.face_cards_n": ("絵札 {n}枚", "{n} face cards"),
    "web.cards": ("{n}枚", "{n} cards"),
    "web.trick": ("場", "Trick"),
    "web.tricks_count": ("この回の場 ({n})", "The deal's tricks ({n})"),
    "web.trick_n": ("第{n}トリック", "Trick {n}"),
    "web.no_trick": ("まだ場はありません", "No trick yet"),
    "web.last_trick": ("直前の場", "Last trick"),
    "web.trick_won_by": ("{who} が取りました", "{who} takes the trick"),
    "web.played": ("{who}: {card}", "{who}: {card}"),
    "web.sheet": ("得点表", "Score sheet"),
    "web.rules": ("ルール", "Rules"),
    "web.details": ("詳細 (表示の全データ)", "Details (every field of the view)"),
    "web.details_deal": ("この回の全データ", "Every fact of this deal"),
    "web.hand_unseen": ("あなたの手札 {n}枚 (まだ見られません)", "Your {n} cards (not to be looked at yet)"),
    "web.last_deal": ("前の回の結果", "Last deal"),
    "web.deal_result": ("第{n}回の結果", "Result of deal {n}"),
    "web.winner_is": ("勝者: {who}", "Winner: {who}"),
    "web.winners_are": ("勝者: {who}", "Winners: {who}"),
    "web.download": ("棋譜をダウンロード", "Download the record"),
    "web.replay": ("再生", "Replay"),
    "web.total": ("合計", "Total"),
    "web.deal": ("回", "Deal"),
    "web.outcome": ("結果", "Outcome"),
    "web.score": ("得点", "Score"),
    "web.hands_up": ("手札 (公開)", "Hands face up"),
    "web.rest": ("残り札", "Undealt"),
    "web.error": ("エラー", "Error"),
    "web.close": ("閉じる", "Close"),
    "web.cancel": ("やめる", "Cancel"),
    "web.ok": ("決定", "OK"),
    "web.choose": ("選んでください", "Choose"),
    "web.select_n": ("{n}枚選んでください ({k}枚選択中)", "Select {n} cards ({k} selected)"),
    "web.continue": ("続ける", "Continue"),
    "web.team_of": ("{a}・{b}", "{a} & {b}"),
    "web.and": ("・", " & "),
    "web.hand_label": ("あなたの手札", "Your hand"),
    "web.controls_label": ("操作", "Your choices"),
    "web.table_label": ("卓", "The table"),
    "web.bubble_pass": ("パス", "pass"),
    # roles
    "web.role.declarer": ("宣言者", "declarer"),
    "web.role.partner": ("宣言者の味方", "declarer's partner"),
    "web.role.adjutant": ("副官", "adjutant"),
    "web.role.allies": ("連合軍", "allied army"),
    "web.role.dealing_pair": ("配り手の組", "dealing pair"),
    "web.role.leading_pair": ("親の組", "leading pair"),
    "web.role.sitting_out": ("休み", "sitting out"),
    "web.role.leader": ("最初に出す人", "first lead"),
    "web.role.dealer": ("親", "dealer"),
    "web.role.toriban": ("取り番", "last to play (取り番)"),
    "web.role.starter": ("打ち出し", "starts the trick"),
    "web.role.high_bidder": ("最高宣言", "high bid"),
    # headline fields
    "web.field.contract": ("コントラクト", "Contract"),
    "web.field.trump": ("切り札", "Trump"),
    "web.field.indicator": ("起き絵", "Indicator"),
    "web.field.adjutant_card": ("副官の札", "Adjutant's card"),
    "web.field.joker_request": ("ジョーカーの請求", "Joker asks"),
    "web.field.rensho": ("れんしょ", "Rensho"),
    "web.field.agari": ("アガリ", "Agari"),
    "web.field.negri": ("ネグリ", "Negri"),
    "web.field.discard": ("捨て札", "Discard"),
    "web.field.proposal": ("再宣言の提案", "Proposed re-declaration"),
    "web.field.no_trump": ("切り札なし", "no trump"),
    # phase hints
    # the high bidder
    "web.stand_or_raise": (
        "あなたが最高宣言 {bid} を持っています: そのまま (パス) か、上げるか",
        "You hold {bid}: stand or raise",
    ),
    "web.stand": ("{bid} のまま (パス)", "Stand on {bid} (pass)"),
    # confirmations
    "web.confirm_title": ("確認", "Please confirm"),
    "web.confirm_discard": (
        "{cards} を伏せて捨てます。取り消せません。",
        "Discard {cards} face down? This cannot be undone.",
    ),
    "web.confirm_adjutant": (
        "{card} を副官の札に指名します。取り消せません。",
        "Name {card} as the adjutant's card? This cannot be undone.",
    ),
    "web.confirm_approve": (
        "提案された宣言を承認します。全員が承認すれば、それが新しい宣言になります。取り消せません。",
        "Approve the proposed declaration? If everyone approves, it replaces the one in force. This cannot be undone.",
    ),
    "web.confirm_reject": (
        "提案された宣言を拒否します。今の宣言のままで打ちます。取り消せません。",
        "Reject the proposed declaration? The declaration in force stands. This cannot be undone.",
    ),
    "web.confirm_action": ("「{label}」に決めます。取り消せません。", 'Choose "{label}"? This cannot be undone.'),
    "web.claim": ("オープン (残り全部を取ると宣言)…", "Claim every remaining trick (オープン)…"),
    "web.claim_title": ("オープンしますか？", "Claim every remaining trick?"),
    "web.claim_explain": (
        "あなたが残りの場を (今の場も含めて) 全部取れると宣言します。ほかの3人がどう出しても取れるかどうかを、全員の手札で確かめます。",
        "You claim that you will take every remaining trick, this one included, whatever the other three play; it is checked against every hand.",
    ),
    "web.claim_cost.chombo": (
        "取れない場が一つでもあればチョンボ: 相手チームに5点が入り、この回は終わります。",
        "If any trick could still be lost, the claim is a chombo: the other team scores 5 and the deal ends.",
    ),
    "web.claim_cost.refuse": (
        "確かでなければ、オープンは断られて続きを打ちます (罰はありません)。",
        "If it is not certain, the claim is refused and play goes on (no penalty).",
    ),
    "web.claim_do": ("オープンする", "Claim"),
    # results and the match
    "web.result_title": ("第{n}回の結果", "Result of deal {n}"),
    "web.match_winner": ("{who} の勝ち", "{who} wins the match"),
    "web.match_winners": ("{who} の勝ち", "{who} win the match"),
    "web.match_draw": ("引き分け", "A draw"),
    "web.final_score": ("最終得点", "Final score"),
    "web.outcome.played": ("終了", "played"),
    "web.outcome.redeal": ("配り直し", "redeal"),
    "web.outcome.chombo": ("チョンボ", "chombo"),
    "web.outcome.in-progress": ("進行中", "in progress"),
    # the replay viewer
    "web.step": ("手", "step"),
    "web.dealt": ("配り", "dealt"),
    "web.prev": ("前", "Prev"),
    "web.next": ("次", "Next"),
    "web.first": ("最初", "First"),
    "web.last": ("最後", "Last"),
    "web.jump_deal": ("回へ移動", "Go to deal"),
    "web.jump_trick": ("トリックへ移動", "Go to trick"),
    "web.hands_face_up": ("全員の手札を表に", "Every hand face up"),
    "web.as_seat_saw": ("{who} から見た卓", "As {who} saw it"),
    "web.step_of": ("{i} / {n}", "{i} of {n}"),
    # refusals, by the protocol's code
    "web.err.malformed": ("送られた内容を読めませんでした", "The message could not be read"),
    "web.err.unauthenticated": (
        "この招待リンクはこの卓では使えません: 観戦します",
        "This invitation link is not valid for this table: you are watching",
    ),
    "web.err.spectator": ("観戦中は打てません", "Spectators cannot play"),
    "web.err.stale": ("卓が先に進みました: もう一度選んでください", "The table moved on: choose again"),
    "web.err.not_your_turn": ("あなたの番ではありません", "It is not your turn"),
    "web.err.illegal": ("その手はできません", "Not allowed"),
    "web.err.over": ("試合は終わっています", "The match is over"),
    # actions
    "web.nt": ("トラ", "NT"),
    "web.act.pass": ("パス", "pass"),
    "web.act.broken": ("ブロークン", "broken (weak hand)"),
    "web.act.discard": ("捨てる {cards}", "discard {cards}"),
    "web.act.adjutant": ("副官 {card}", "adjutant {card}"),
    "web.act.redeclare_none": ("再宣言なし", "keep the declaration"),
    "web.act.redeclare": ("再宣言 {bid}", "re-declare {bid}"),
    "web.act.approve": ("承認", "approve"),
    "web.act.reject": ("拒否", "reject"),
    "web.act.trump_keep": ("切りはそのまま", "keep the trump"),
    "web.act.trump": ("切り {suit}", "trump {suit}"),
    "web.act.leader": ("{who} が最初に出す", "{who} leads"),
    "web.act.claim": ("オープン", "claim (open)"),
    "web.act.request": ("{card} (請求 {req})", "{card} (asks {req})"),
    "web.act.call_joker": ("{card} (ジョーカー請求)", "{card} (calls the joker)"),
    "web.req.any": ("何でも", "anything"),
    "web.joker": ("ジョーカー", "Joker"),
    "web.face_down": ("伏せ札", "face-down card"),
    # -- the coach: hints at your turn, the review of a finished deal -----------------------
    "web.coach.hint_button": ("ヒント", "Hint"),
    "web.coach.thinking": ("考えています…", "Thinking…"),
    "web.coach.suggest": ("おすすめ: {action}", "Suggested: {action}"),
    "web.coach.yours": (
        "選ぶのはあなたです: ヒントは何も出しません",
        "The choice is yours: the hint plays nothing for you",
    ),
    "web.coach.close": ("ヒントを閉じる", "Close the hint"),
    "web.coach.alt_best": ("{pct}% で最善", "best in {pct}%"),
    "web.coach.alt_makes": ("{pct}% で成立", "makes in {pct}%"),
    "web.coach.alt_score": ("平均 {score}", "{score} on average"),
    "web.coach.failed": ("ヒントを出せませんでした", "No hint could be given"),
    "web.coach.allow_hints": ("ヒントを使える", "Allow hints"),
    "web.coach.allow_hints_doc": (
        "自分の番に、強いボットならどうするかと、その理由を見られます",
        "At their turn a player may ask what the strong bot would do, and why",
    ),
    "web.coach.review_button": ("検討", "Review"),
    "web.coach.review_title": ("第{n}回の検討", "Review of deal {n}"),
    "web.coach.reviewing": ("検討しています… (数秒かかります)", "Reviewing… (this takes a few seconds)"),
    "web.coach.costly": ("損をした手", "Costly decisions"),
    "web.coach.none_costly": ("損をした手はありません", "No costly decision"),
    "web.coach.col_trick": ("トリック", "Trick"),
    "web.coach.col_card": ("選んだ手", "Chosen"),
    "web.coach.col_best": ("最善", "Best"),
    "web.coach.col_loss": ("損", "Loss"),
    "web.coach.choice": ("宣言など", "bid or choice"),
    "web.coach.estimated": ("推定", "estimated"),
    "web.coach.amount": ("{amount}{unit}", "{amount} {unit}"),
    "web.coach.seat_estimated": (
        "{who} の推定の損: {amount}{unit} ({where})",
        "{who} lost about {amount} {unit} (estimated): {where}",
    ),
    "web.coach.full_text": ("検討の全文", "The whole review"),
    "web.coach.marks_button": ("一手ずつの検討", "Card-by-card review"),
    "web.coach.marks_title": (
        "一手ずつの検討 (全員の手札を見た最善との差)",
        "Card by card (against best play with every hand open)",
    ),
    "web.coach.replay_marks": ("この回を再生して一手ずつ検討", "Replay this deal, card by card"),
    "web.coach.mark_ok": ("最善の手", "best play"),
    "web.coach.mark_loss": ("{amount}{unit}の損 (最善: {best})", "cost {amount} {unit} (best: {best})"),
    "web.coach.review_failed": ("検討できませんでした", "The review could not be made"),
}
"""The page's words: key → (Japanese, English)."""

i18n.add_terms(messages=WEB_MESSAGES)
from . import clubwords  # noqa: E402,F401  (the clubs' words: static/clubs.js)


def catalogue(lang: str) -> dict[str, str]:
    """Every message of the shared catalogue in ``lang`` (``ja`` or ``en``), by key."""
    if lang not in i18n.LANGS:
        raise ValueError(f"unknown language {lang!r}; the languages are {', '.join(i18n.LANGS)}")
    index = 0 if lang == "ja" else 1
    return {key: pair[index] for key, pair in i18n._MESSAGES.items()}


def missing_languages() -> list[str]:
    """Keys of the catalogue whose text is empty in some language (none, when complete)."""
    return sorted(
        key
        for key, pair in i18n._MESSAGES.items()
        if len(pair) != len(i18n.LANGS) or not all(isinstance(x, str) and x.strip() for x in pair)
    )
