"""The words of the clubs' part of the browser page (``static/clubs.js``) and of rated tables'
refusals, in Japanese and English, registered into the one catalogue (:mod:`.messages` imports
this module)."""

from __future__ import annotations

from .. import i18n

__all__ = ["CLUB_WORDS"]

CLUB_WORDS: dict[str, tuple[str, str]] = {
    "web.clubs.title": ("クラブ", "Clubs"),
    "web.clubs.rated": ("レート戦", "Rated"),
    "web.clubs.club_table": ("クラブの卓", "Club table"),
    "web.clubs.preset": ("ルールのプリセット", "Rules preset"),
    "web.clubs.preset_none": ("選ばない (下で決める)", "none (set the rules below)"),
    "web.clubs.preset_doc": ("自分のクラブのプリセットが先に並びます", "Your clubs' presets come first"),
    "web.clubs.preset_applied": ("プリセット「{name}」を選びました", "Preset “{name}” chosen"),
    "web.clubs.standard_rules": ("標準ルール", "Standard rules"),
    "web.clubs.standard": ("{game} の標準ルール", "{game}, standard rules"),
    "web.clubs.table_of": ("クラブの卓", "Club's table"),
    "web.clubs.no_club": ("クラブなし", "no club"),
    "web.clubs.rated_table": ("レート戦にする", "Rated table"),
    "web.clubs.rated_doc": (
        "人間の席にはクラブの会員がサインインして座ります。終局でレーティングが更新され、途中で離れた人の負けになります。ヒントは使えません",
        "Human seats are for the club's signed-in members. The ratings change when the match ends; "
        "a player who leaves loses. No hints",
    ),
    "web.clubs.rated_sign_in": (
        "クラブの卓やレート戦は、サインインしてクラブに入ると作れます",
        "Sign in and join a club to open club tables and rated tables",
    ),
    "web.clubs.signed_in_as": ("{name} としてサインイン中", "Signed in as {name}"),
    "web.clubs.account_doc": (
        "アカウントは任意です。招待リンクだけでも遊べます",
        "An account is optional: invitation links work without one",
    ),
    "web.clubs.account_name": ("アカウント名", "Account name"),
    "web.clubs.password": ("パスワード", "Password"),
    "web.clubs.sign_in": ("サインイン", "Sign in"),
    "web.clubs.sign_up": ("アカウントを作る", "Create an account"),
    "web.clubs.sign_out": ("サインアウト", "Sign out"),
    "web.clubs.passkey_sign_in": ("パスキーでサインイン", "Sign in with a passkey"),
    "web.clubs.passkey_add": ("パスキーを追加", "Add a passkey"),
    "web.clubs.passkey_added": ("パスキーを追加しました", "Passkey added"),
    "web.clubs.passkey_failed": ("パスキーを使えませんでした", "The passkey did not work"),
    "web.clubs.login_failed": ("名前かパスワードが違います", "Wrong name or password"),
    "web.clubs.name_taken": ("その名前は使われています", "That name is taken"),
    "web.clubs.bad_account": (
        "名前は1〜32文字 (: と / なし)、パスワードは8文字以上です",
        "A name has 1–32 characters (no : or /), a password at least 8",
    ),
    "web.clubs.login_limited": (
        "サインインの失敗が続きました。数分待ってください",
        "Too many failed sign-ins: wait a few minutes",
    ),
    "web.clubs.none": ("まだどのクラブにも入っていません", "You are not in a club yet"),
    "web.clubs.open_tables": ("クラブの卓 (対局中・待ち)", "The club's open tables"),
    "web.clubs.no_open_tables": ("開いている卓はありません", "No open tables"),
    "web.clubs.free_seats": ("空き席 {n}", "{n} free seats"),
    "web.clubs.presets": ("クラブのプリセット", "The club's presets"),
    "web.clubs.no_presets": ("プリセットはまだありません", "No presets yet"),
    "web.clubs.my_matches": ("自分の対局", "My matches"),
    "web.clubs.no_matches": ("クラブに保存された対局はまだありません", "No club matches yet"),
    "web.clubs.review_deal": ("第{n}回の検討", "Review deal {n}"),
    "web.clubs.new_club": ("新しいクラブ", "A new club"),
    "web.clubs.club_name": ("クラブの名前", "Club name"),
    "web.clubs.create_club": ("クラブを作る", "Create the club"),
    "web.clubs.club_created": (
        "クラブ「{name}」を作りました。管理者はあなたです",
        "Club “{name}” created: you are its administrator",
    ),
    "web.clubs.club_taken": ("「{name}」という名前のクラブはすでにあります", "There is already a club named “{name}”"),
    "web.clubs.bad_club_name": ("クラブの名前は1〜80文字です", "A club's name has 1–80 characters"),
    "web.clubs.signed_out": (
        "サインインしてください (サインインの期限が切れたか、取り消されました)",
        "Sign in first (your sign-in expired or was revoked)",
    ),
    "web.clubs.not_admin": ("クラブの管理者だけができます", "Only the club's administrator may do this"),
    "web.clubs.club_gone": ("このクラブはもうありません", "This club no longer exists"),
    "web.clubs.offline": ("サーバーにつながりません", "The server cannot be reached"),
    "web.clubs.members": ("会員", "Members"),
    "web.clubs.admin": ("管理者", "administrator"),
    "web.clubs.add_member": ("会員に加える", "Add as a member"),
    "web.clubs.member_added": ("{name} を会員に加えました", "{name} is now a member"),
    "web.clubs.no_account": ("「{name}」というアカウントはありません", "There is no account named “{name}”"),
    "web.clubs.already_member": ("{name} はすでに会員です", "{name} is already a member"),
    "web.clubs.bad_member_name": ("アカウント名は1〜32文字です", "An account name has 1–32 characters"),
    "web.clubs.remove": ("外す", "Remove"),
    "web.clubs.remove_member": ("{name} を会員から外す", "Remove {name} from the club"),
    "web.clubs.member_removed": ("{name} を会員から外しました", "{name} is no longer a member"),
    "web.clubs.admin_stays": ("管理者は会員から外せません", "The administrator stays a member"),
    "web.clubs.not_member": ("{name} は会員ではありません", "{name} is not a member"),
    "web.clubs.preset_name": ("プリセットの名前", "Preset name"),
    "web.clubs.save_preset": ("今のゲームとルールをプリセットに保存", "Save the game and rules as a preset"),
    "web.clubs.save_preset_doc": (
        "上で選んでいるゲーム ({game}) とルールを、このクラブのプリセットにします。同じ名前なら置き換えます",
        "The game chosen above ({game}) and its rules become a preset of this club; the same name replaces it",
    ),
    "web.clubs.preset_name_bad": (
        "プリセットの名前は1〜80文字で、/ は使えません",
        "A preset's name has 1–80 characters, without /",
    ),
    "web.clubs.bad_preset": (
        "このプリセットは保存できません: 名前は1〜80文字、ルールはこのゲームで使えるものにしてください",
        "This preset cannot be saved: its name has 1–80 characters and its rules must suit the game",
    ),
    "web.clubs.preset_saved": ("プリセット「{name}」({game}) を保存しました", "Preset “{name}” ({game}) saved"),
    "web.clubs.delete": ("削除", "Delete"),
    "web.clubs.delete_preset": ("プリセット「{name}」を削除", "Delete preset “{name}”"),
    "web.clubs.preset_deleted": ("プリセット「{name}」を削除しました", "Preset “{name}” deleted"),
    "web.clubs.no_preset": ("プリセット「{name}」はもうありません", "There is no preset “{name}” any more"),
    "web.clubs.leaderboard": ("ランキング", "Leaderboard"),
    "web.clubs.rating_doc": (
        "ゲームごと、レート戦だけから。レーティングは控えめな推定値 μ − 3σ で、ボットはレベルごとに並びます",
        "Per game, from rated matches only. The rating is the cautious estimate μ − 3σ; bots are listed by level",
    ),
    "web.clubs.rank": ("順位", "Rank"),
    "web.clubs.player": ("名前", "Name"),
    "web.clubs.rating": ("レーティング", "Rating"),
    "web.clubs.played": ("対局数", "Matches"),
    "web.clubs.no_ratings": (
        "レート戦はまだありません。レート戦が終わるとランキングができます",
        "No rated matches yet: the leaderboard fills as rated matches end",
    ),
    "web.clubs.standings_csv": ("{game} の順位表 (CSV)", "{game} standings (CSV)"),
    "web.clubs.recent": ("クラブの最近の対局", "The club's recent matches"),
    "web.clubs.no_club_matches": ("このクラブの対局はまだありません", "This club has no matches yet"),
    "web.clubs.export": ("書き出し", "Export"),
    "web.clubs.export_zip": ("クラブの全対局の記録 (zip)", "All the club's match records (zip)"),
    "web.err.rated_sign_in": (
        "レート戦の席には、クラブの会員がサインインして座ります。サインインしてからもう一度開いてください",
        "A rated table's seats are for the club's signed-in members: sign in, then open the link again",
    ),
    "web.err.rated_member": (
        "この卓のクラブの会員ではありません: レート戦の席には座れません",
        "You are not a member of this table's club: you cannot sit at its rated table",
    ),
    "web.err.rated_taken": ("この席はほかのアカウントの席です", "This seat is held by another account"),
    "web.err.rated_twice": ("この卓ではすでに別の席に座っています", "You already sit at another seat of this table"),
    "web.err.rated_abandoned": (
        "このレート戦を途中で離れたため、席はボットが最後まで打ちます (負け扱い)。観戦はできます",
        "You left this rated match: a bot finishes your seat and the match counts as your loss. You may watch",
    ),
}

i18n.add_terms(messages=CLUB_WORDS)
