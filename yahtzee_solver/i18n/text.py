"""Translation data for the game: messages, box names and rules text in English, Chinese and Japanese.

Pure data, used through :mod:`yahtzee_solver.i18n`.  Every language has the
same message keys with the same ``{placeholders}`` (a test checks this).
English rule-set titles are ``RuleSet.title``; :data:`TITLES` translates them.
The rules text restates ``docs/rules.md``; the per-box descriptions are filled in
from the rule set's data (points, number of dice), so they cannot drift from
the scoring code.

Box names are those players use: Chinese 一点…六点, 一对, 两对, 三条, 四条, 葫芦, 小顺,
大顺, 快艇, 机会; Japanese ワンペア, ツーペア (Yatzy), エース…シックス and, for Yacht, チョイス,
フォーダイス, フルハウス, S・ストレート, L・ストレート, ヨット (the names of the
Japanese Yacht game), for Yahtzee スリーカード, フォーカード, ヤッツィー, チャンス.
"""

from __future__ import annotations

#: Box names by category key; ``(lang, rules name)`` entries override ``lang``.
#: English uses the rule set's canonical names (``CategorySpec.name``).
BOX_NAMES: dict[str | tuple[str, str], dict[str, str]] = {
    "zh": {
        "ones": "一点", "twos": "二点", "threes": "三点", "fours": "四点", "fives": "五点",
        "sixes": "六点", "three-of-a-kind": "三条", "four-of-a-kind": "四条",
        "full-house": "葫芦", "small-straight": "小顺", "large-straight": "大顺",
        "yahtzee": "快艇", "chance": "机会", "one-pair": "一对", "two-pairs": "两对",
    },
    "ja": {
        "ones": "エース", "twos": "デュース", "threes": "トレイ", "fours": "フォー",
        "fives": "ファイブ", "sixes": "シックス", "three-of-a-kind": "スリーカード",
        "four-of-a-kind": "フォーカード", "full-house": "フルハウス",
        "small-straight": "S・ストレート", "large-straight": "L・ストレート",
        "yahtzee": "ヤッツィー", "chance": "チャンス", "one-pair": "ワンペア", "two-pairs": "ツーペア",
    },
    ("ja", "yacht"): {"chance": "チョイス", "four-of-a-kind": "フォーダイス", "yahtzee": "ヨット"},
}

#: Rule-set titles in Chinese and Japanese (English: ``RuleSet.title``).
TITLES = {
    "zh": {
        "yahtzee": "快艇骰子（官方规则，强制百搭）",
        "yahtzee-free-joker": "快艇骰子（自由百搭，同 Verhoeff 最优解算器）",
        "yacht": "快艇（12 项）",
        "yahtzee-no-joker": "快艇骰子（有快艇奖励，无百搭）",
        "yahtzee-no-bonus": "快艇骰子（无快艇奖励，无百搭）",
        "yatzy": "北欧快艇骰子 Yatzy（15 项）",
    },
    "ja": {
        "yahtzee": "ヤッツィー（公式ルール・強制ジョーカー）",
        "yahtzee-free-joker": "ヤッツィー（自由ジョーカー・Verhoeff の最適ソルバー方式）",
        "yacht": "ヨット（12役）",
        "yahtzee-no-joker": "ヤッツィー（ヤッツィーボーナスあり・ジョーカーなし）",
        "yahtzee-no-bonus": "ヤッツィー（ヤッツィーボーナス・ジョーカーなし）",
        "yatzy": "北欧式ヤッツィー Yatzy（15役）",
    },
}

#: Answers that mean yes / no at a confirmation prompt (an empty answer is no).
#: Compared after NFKC normalisation and lower-casing (so ｙ/Ｙ count as y).
YES: dict[str, tuple[str, ...]] = {
    "en": ("y", "yes"),
    "zh": ("y", "yes", "是", "是的", "好", "好的", "对", "要", "确定"),
    "ja": ("y", "yes", "はい", "ハイ", "うん", "ええ", "する"),
}
NO: dict[str, tuple[str, ...]] = {
    "en": ("n", "no"),
    "zh": ("n", "no", "否", "不", "不是", "不要", "不用", "取消"),
    "ja": ("n", "no", "いいえ", "イイエ", "いや", "いえ", "しない"),
}

EN = {
    # -- the board --------------------------------------------------------------
    "box": "Box",
    "upper_subtotal": "Upper subtotal",
    "upper_bonus": "Upper bonus",
    "yahtzee_bonus": "{yahtzee} bonus",
    "total": "Total",
    "turn": "turn {round}/{turns}",
    "you": "You",
    "col.you": "You",
    "col.cpu": "CPU",
    "cpu": "CPU ({level})",
    "level.beginner": "beginner",
    "level.normal": "normal",
    "level.expert": "expert",
    "level.master": "master",
    "solo": "solo",
    "status.to_roll_you": "Your turn: type r to roll the dice.",
    "status.to_roll_cpu": "{player} is about to roll.",
    "status.roll": "{player}: roll {n} of {max}",
    "status.locked": "the dice are locked: score them (s <box>)",
    "dice": "Dice",
    "kept_legend": "[n] = kept",
    "joker.upper": "Joker: five {face}s with the {yahtzee} box filled must go in the open {box} box.",
    "joker.lower": "Joker: the {box} box is filled, so five {face}s go in any open lower box ({fixed}).",
    "joker.upper_zero": "Joker: the {box} box and every lower box are filled, so five {face}s go in an open upper box for 0.",
    "joker.free_fixed": "Joker: five {face}s may go in any open box; as the {box} box is filled, the fixed scores apply ({fixed}).",
    "joker.free": "Joker: five {face}s may go in any open box; {fixed_names} score 0 while the {box} box is open.",
    "fixed_item": "{box} {points}",
    "list_sep": ", ",
    "bonus_now": "{yahtzee} bonus: +{points} whichever box you choose.",
    "bonus_now_one": "{yahtzee} bonus: +{points} when you score it in {box}.",
    "commands_short": "r roll | k a c keep/release dice a and c | k 225 keep 2, 2, 5 | s <box> score\nh hint | ? rules | q save and quit | help all commands",
    "prompt": "> ",
    # -- why an action is illegal (keys of game.PROBLEMS) ----------------------------
    "problem.game_over": "the game is over",
    "problem.roll_first": "roll the dice first (r)",
    "problem.no_rolls_left": "no rolls left this turn: score the dice (s <box>)",
    "problem.all_held": "every die is kept: release some (k a b ...) to reroll, or score",
    "problem.locked": "the dice are locked after the third roll: score them (s <box>)",
    "problem.bad_hold": "invalid hold {held!r}",
    "problem.bad_box": "invalid box {box!r}",
    "problem.box_filled": "the {box} box is already filled",
    "problem.joker_upper": "joker: five {face}s must go in the {box} box while it is open",
    "problem.joker_lower": "joker: the {box} box is filled, so five {face}s go in an open lower box",
    "problem.joker_upper_zero": "joker: every lower box is filled, so five {face}s go in an open upper box (for 0)",
    # -- bad commands -------------------------------------------------------------------
    "err.unknown_command": "unknown command {cmd!r}: type help for the list",
    "err.keep_what": "say which dice: k a c keeps/releases dice a and c, k 225 keeps a 2, a 2 and a 5, k 6 keeps one 6, k - releases all",
    "err.bad_position": "invalid die {pos!r}: name dice by letter a-e (their position) or by face 1-6",
    "err.repeated_position": "die {pos} is given twice",
    "err.mixed_keep": "{text!r} mixes letters and digits: k a c keeps dice a and c (by position), k 56 keeps a 5 and a 6 (by face)",
    "err.bad_face": "invalid face {face!r}: faces are 1-6",
    "err.no_such_dice": "cannot keep {faces}: the dice show {dice}",
    "err.score_what": "say which box: s <name or number>, e.g. s fh or s 9",
    "err.unknown_box": "unknown box {box!r}: use a number 1-{n} or a name such as {example}",
    "err.no_args": "{cmd!r} takes no arguments",
    # -- confirmations ----------------------------------------------------------------------
    "confirm.zero": "Score 0 in {box}? {other} would score {points}.",
    "confirm.suffix": " [y/N] ",
    "confirm.again": "please answer y or n (q: no)",
    "confirm.cancelled": "Not scored.",
    "confirm.not_rolled": "Not rolled.",
    "confirm.new_game": "A saved game exists ({rules}, {opponent}, turn {round}/{turns}). Abandon it and start a new game?",
    "kept_saved": "The saved game is kept. Continue it with: yahtzee-solve play --resume",
    # -- what happened ----------------------------------------------------------------------------
    "ev.scored": "{player} scored {points} in {box}{joker}.",
    "ev.joker": " (Joker)",
    "ev.yahtzee_bonus": "{yahtzee} bonus +{points}!",
    "ev.upper_bonus": "Upper bonus +{points}!",
    "ev.cpu_rolls": "{player} rolls {dice} (roll {n} of {max}).",
    "ev.cpu_keeps": "{player} keeps {keep} and rerolls {reroll}.",
    "ev.cpu_keeps_none": "{player} rerolls all five dice.",
    "ev.kept": "You keep {keep}; r rerolls {reroll}.",
    "ev.kept_none": "Nothing kept; r rerolls all five dice.",
    "ev.undo_offer": "Not what you meant? u undoes it before your next roll (the game then counts as practice).",
    "ev.undone": "Score in {box} undone: the dice are back, score them again.",
    "err.no_undo": "nothing to undo: u undoes your last score in a solo game, before the next roll",
    "confirm.loss": "{what} loses {loss} expected points against the best ({best}). Do it anyway?",
    "confirm.loss_keep": "Rerolling with this keep",
    "confirm.loss_box": "Scoring in {box}",
    "history.title": "Turns so far:",
    "history.none": "No turn has been scored yet.",
    "history.line": "Turn {turn}, {player}: {rolls} -> {points} in {box}{extra}",
    "ev.kept_all": "All five dice kept: score them (s <box>), or release some.",
    "ev.first_you": "You go first.",
    "ev.first_cpu": "{player} goes first.",
    "ev.resumed": "Game resumed: {rules}, turn {round}/{turns}.",
    # -- hint ----------------------------------------------------------------------------------------
    "hint.title": "Hint (expected final score with best play from here):",
    "hint.roll": "Roll the dice (r). Expected final score from here: {ev}",
    "hint.keep": "keep {keep}, reroll {reroll}",
    "hint.stop": "score now in {box} ({points})",
    "hint.win_keep": "keep {keep}",
    "hint.reroll_all": "reroll all five",
    "hint.box": "{box}: {points}",
    "hint.best": "best",
    "hint.then": "then score:",
    "hint.cpu_turn": "no hint during the CPU's turn",
    "hint.win_title": "Chance of beating the {level} CPU (a draw counts half), beside the expected final score:",
    "hint.win_far": "(your chance of winning is shown once {n} or fewer of your boxes are open)",
    "hint.win_start": "Chance of beating the {level} CPU from here (a draw counts half): {p}",
    "hint.win_note": "(until the CPU has finished, this is your best response to the distribution of its final score as it stands now: a lower bound of your best chance)",
    "hint.win_exact": "(the CPU has finished with {score}: these chances are exact)",
    # -- rules and help --------------------------------------------------------------------------------
    "rules.pager": "-- page {page}/{pages} -- Enter: next page, q: back to the game ",
    "help": (
        "Commands (type them at the > prompt):\n"
        "  r              roll the dice (first roll: all five; then the dice not kept)\n"
        "  k a c d        keep or release the dice at positions a, c and d (the letters above the dice)\n"
        "  k 225          keep exactly a 2, a 2 and a 5 (release the others); k 6 keeps one 6\n"
        "  k -            release all dice\n"
        "  s <box>        score in a box: a number (1-{n}) or a name, e.g. {examples}\n"
        "  h              hint: the best keep or box with its expected final score\n"
        "  u              undo your last score (solo, before the next roll; the game then counts as practice)\n"
        "  history        the turns played so far, the CPU's included\n"
        "  ?              the rules, page by page\n"
        "  q              save and quit (continue later with: yahtzee-solve play --resume)\n"
        "  help           this list\n"
        "Box names: {aliases}"
    ),
    # -- quitting and the end --------------------------------------------------------------------------------
    "quit.saved": "Game saved. Continue with: yahtzee-solve play --resume",
    "quit.interrupted": "Interrupted. The game is saved; continue with: yahtzee-solve play --resume",
    "end.title": "Game over.",
    "end.solo": "Final score: {total}.",
    "end.win": "You win, {me} to {cpu}!",
    "end.loss": "{player} wins, {cpu} to {me}.",
    "end.draw": "A draw: {me} each.",
    "end.seed": "Seed {seed} (the same dice again: --seed {seed})",
    "end.record": "New record for {rules}, {opponent}: {score} (previous best {old})!",
    "end.stats": "{rules}, {opponent}: games {games}, best {best}, average {average}",
    "end.stats_cpu": "{rules}, {opponent}: games {games}, wins {wins}, losses {losses}, draws {draws}, best {best}, average {average}",
    "end.stats_cpu_forfeits": "{rules}, {opponent}: games {games} finished + {forfeits} forfeited, wins {wins}, losses {losses} (forfeits included), draws {draws}, best {best}, average {average}",
    "warn.records": "Warning: {detail}",
    "warn.save": "Warning: {detail}",
    "warn.history": "Warning: {detail}",
    "end.unrecorded": (
        "The result could not be recorded: {detail}\n"
        "The finished game is kept in {path} and will be recorded the next time you run "
        "yahtzee-solve play or yahtzee-solve records."
    ),
    "end.pending": "The finished game from last time ({rules}, {opponent}: {score}) is now in your records.",
    # -- the records command --------------------------------------------------------------------------------
    "rec.none": "No games recorded yet.",
    "rec.rules": "Rules",
    "rec.opponent": "Opponent",
    "rec.games": "Games",
    "rec.best": "Best",
    "rec.average": "Average",
    "rec.wins": "Wins",
    "rec.losses": "Losses",
    "rec.draws": "Draws",
    "rec.abandoned": "Abandoned",
    "rec.reset_confirm": "Delete all records in {path}?",
    "rec.reset_done": "Records deleted.",
    "rec.reset_none": "There are no records to delete.",
    "rec.reset_kept": "Nothing deleted.",
    "confirm.new_game_cpu": (
        "A saved game exists ({rules}, {opponent}, turn {round}/{turns}). Abandoning it counts as a loss. "
        "Start a new game?"
    ),
    "practice.seed": "Chosen seed: this game counts as practice (kept apart from your records).",
    "practice.hint": "Hint used: this game now counts as practice (kept apart from your records).",
    "practice.undo": "Score undone: this game now counts as practice (kept apart from your records).",
    "practice.confirm": "Costly choice checked (--confirm-loss): this game now counts as practice (kept apart from your records).",
    "practice.label": "{rules} (practice)",
    "end.practice": "A practice game: filed with your practice records.",
    "why.deleted": "was deleted",
    "why.refused": "failed verification",
    "settled.loss": "The saved game ({rules}, {opponent}) {why}: counted as a loss.",
    "settled.abandoned": "The saved game ({rules}, {opponent}) {why}: counted as abandoned.",
    "settled.already": "The saved game ({rules}, {opponent}) {why}: already counted, the records are unchanged.",
    "rec.practice_title": "Practice (chosen seed, hints or undo):",
    # -- the rules pages (docs/rules.md) ---------------------------------------------------------------------------
    "rules.turn": (
        "{title}\n\n"
        "{n} boxes, {n} turns. A turn: roll all five dice; then, up to two times, keep any dice "
        "and reroll the rest (three rolls at most). After any roll, but not before the first, "
        "score the dice in one open box; after the third roll you must score. Every box takes "
        "exactly one score, 0 if the dice do not fit.\n\n"
        "Against the CPU the turns alternate; the higher total wins, equal totals are a draw."
    ),
    "rules.upper_title": "Upper section",
    "rules.lower_title": "Lower section",
    "rules.bonus_title": "{yahtzee} bonus and Joker",
    "rules.line": "  {box}: {desc}",
    "rules.upper_bonus": "Upper bonus: +{bonus} once the upper boxes add up to {threshold} or more (three of each face make exactly {threshold}).",
    "rules.total": "Total = upper boxes + upper bonus + lower boxes{plus_bonus}.",
    "rules.plus_bonus": " + {yahtzee} bonuses",
    "rules.ybonus": "{yahtzee} bonus: +{bonus} for each further five alike scored while the {yahtzee} box holds 50; none while it holds 0.",
    "rules.joker_forced": (
        "Joker (forced): whenever five alike are scored and the {yahtzee} box is already filled (50 or 0):\n"
        "  1. if the upper box of that face is open, the roll must go there;\n"
        "  2. otherwise it may go in any open lower box ({fixed});\n"
        "  3. if that upper box and every lower box are filled, it goes in an open upper box for 0."
    ),
    "rules.joker_free": (
        "Joker (free): whenever five alike are scored and the {yahtzee} box is already filled, "
        "the roll may go in any open box; {fixed_names} score their fixed points ({fixed}) only "
        "if the upper box of that face is already filled (otherwise as usual, i.e. 0)."
    ),
    "rules.no_bonus": "{title}: no bonus for a second {yahtzee} and no Joker.",
    "desc.upper": "sum of the dice showing {face}",
    "desc.chance": "sum of all five dice",
    "desc.of_a_kind": "sum of all five dice if at least {n} show one face",
    "desc.five_counts": " (five alike counts)",
    "desc.full_house_fixed": "{points} for three of one face and two of another",
    "desc.full_house_sum": "sum of all five dice for three of one face and two of another",
    "desc.full_house_no5": " (five alike does not count)",
    "desc.full_house_joker": " (five alike only as a Joker)",
    "desc.straight": "{points} for {n} consecutive faces",
    "desc.straight_dup": " (a duplicate die is fine: 1-2-3-4-4)",
    "desc.five_alike": "{points} if all five dice show one face",
    "desc.n_alike": "{n} dice of one face: their sum, {n} x the face (the highest such face)",
    "desc.two_pairs": "two dice each of two different faces: the sum of those four dice (four alike is not two pairs)",
    "desc.straight_exact": "{points} for exactly {run}",
    "rules.no_joker": "No Joker: a later five alike may go in any open box and scores there only by that box's own pattern ({fixed_names}: 0).",
}

ZH = {
    "box": "项目",
    "upper_subtotal": "上半区小计",
    "upper_bonus": "上半区奖励",
    "yahtzee_bonus": "{yahtzee}奖励",
    "total": "总分",
    "turn": "第 {round}/{turns} 轮",
    "you": "你",
    "col.you": "你",
    "col.cpu": "电脑",
    "cpu": "电脑（{level}）",
    "level.beginner": "新手",
    "level.normal": "普通",
    "level.expert": "专家",
    "level.master": "大师",
    "solo": "单人",
    "status.to_roll_you": "轮到你了：输入 r 掷骰子。",
    "status.to_roll_cpu": "{player}准备掷骰子。",
    "status.roll": "{player}：第 {n}/{max} 次掷骰",
    "status.locked": "骰子已锁定：请记分（s <项目>）",
    "dice": "骰子",
    "kept_legend": "[n] = 保留",
    "joker.upper": "百搭：{yahtzee}栏已填，五个 {face} 必须记在空着的{box}栏。",
    "joker.lower": "百搭：{box}栏已填，五个 {face} 可记在下半区任一空栏（{fixed}）。",
    "joker.upper_zero": "百搭：{box}栏和下半区各栏都已填，五个 {face} 须记在上半区任一空栏，得 0 分。",
    "joker.free_fixed": "百搭：五个 {face} 可记在任一空栏；因{box}栏已填，按固定分计（{fixed}）。",
    "joker.free": "百搭：五个 {face} 可记在任一空栏；{box}栏还空着，{fixed_names}得 0 分。",
    "fixed_item": "{box} {points} 分",
    "list_sep": "、",
    "bonus_now": "{yahtzee}奖励：无论记在哪一栏都 +{points} 分。",
    "bonus_now_one": "{yahtzee}奖励：记在{box}时 +{points} 分。",
    "commands_short": "r 掷骰 | k a c 保留/放回骰子 a、c | k 225 保留 2、2、5 | s <项目> 记分\nh 提示 | ? 规则 | q 保存退出 | help 全部命令",
    "prompt": "> ",
    "problem.game_over": "游戏已结束",
    "problem.roll_first": "请先掷骰子（r）",
    "problem.no_rolls_left": "本轮已没有掷骰机会：请记分（s <项目>）",
    "problem.all_held": "所有骰子都已保留：先放回一些（k a b ...）再掷，或者记分",
    "problem.locked": "第三次掷骰后骰子已锁定：请记分（s <项目>）",
    "problem.bad_hold": "无效的保留 {held!r}",
    "problem.bad_box": "无效的项目 {box!r}",
    "problem.box_filled": "{box}栏已经填过了",
    "problem.joker_upper": "百搭：{box}栏空着时，五个 {face} 必须记在{box}栏",
    "problem.joker_lower": "百搭：{box}栏已填，五个 {face} 须记在下半区的空栏",
    "problem.joker_upper_zero": "百搭：下半区已填满，五个 {face} 须记在上半区的空栏（0 分）",
    "err.unknown_command": "未知命令 {cmd!r}：输入 help 查看命令列表",
    "err.keep_what": "请指明骰子：k a c 保留/放回骰子 a、c，k 225 保留一个 2、一个 2 和一个 5，k 6 保留一个 6，k - 全部放回",
    "err.bad_position": "无效的骰子 {pos!r}：位置用字母 a-e，点数用数字 1-6",
    "err.repeated_position": "骰子 {pos} 重复了",
    "err.mixed_keep": "{text!r} 混用了字母和数字：k a c 按位置保留骰子 a、c，k 56 按点数保留一个 5 和一个 6",
    "err.bad_face": "无效的点数 {face!r}：点数为 1-6",
    "err.no_such_dice": "无法保留 {faces}：骰子是 {dice}",
    "err.score_what": "请指明项目：s <名称或编号>，例如 s fh 或 s 9",
    "err.unknown_box": "未知项目 {box!r}：请用编号 1-{n} 或名称，例如 {example}",
    "err.no_args": "{cmd!r} 不需要参数",
    "confirm.zero": "在{box}记 0 分？{other}可得 {points} 分。",
    "confirm.suffix": " [是/否，y/N] ",
    "confirm.again": "请回答 是 或 否（y 或 n；q 表示否）",
    "confirm.cancelled": "未记分。",
    "confirm.not_rolled": "未掷骰。",
    "confirm.new_game": "有一局存档（{rules}，{opponent}，第 {round}/{turns} 轮）。放弃它并开始新游戏？",
    "kept_saved": "存档已保留。继续请用：yahtzee-solve play --resume",
    "ev.scored": "{player}在{box}记了 {points} 分{joker}。",
    "ev.joker": "（百搭）",
    "ev.yahtzee_bonus": "{yahtzee}奖励 +{points}！",
    "ev.upper_bonus": "上半区奖励 +{points}！",
    "ev.cpu_rolls": "{player}掷出 {dice}（第 {n}/{max} 次）。",
    "ev.cpu_keeps": "{player}保留 {keep}，重掷 {reroll}。",
    "ev.cpu_keeps_none": "{player}重掷全部五颗。",
    "ev.kept": "你保留 {keep}；r 将重掷 {reroll}。",
    "ev.kept_none": "没有保留骰子；r 将重掷全部五颗。",
    "ev.undo_offer": "记错了？下一次掷骰前输入 u 可撤销（本局随即算作练习）。",
    "ev.undone": "已撤销{box}的记分：骰子已恢复，请重新记分。",
    "err.no_undo": "没有可撤销的：u 只能在单人游戏中、下一次掷骰前撤销上一次记分",
    "confirm.loss": "{what}比最佳选择（{best}）少 {loss} 期望分。仍然要这样做吗？",
    "confirm.loss_keep": "按这样保留并重掷",
    "confirm.loss_box": "记在{box}",
    "history.title": "已进行的各轮：",
    "history.none": "还没有记过分。",
    "history.line": "第 {turn} 轮，{player}：{rolls} -> {box} {points} 分{extra}",
    "ev.kept_all": "五颗都已保留：请记分（s <项目>），或放回一些。",
    "ev.first_you": "你先手。",
    "ev.first_cpu": "{player}先手。",
    "ev.resumed": "继续游戏：{rules}，第 {round}/{turns} 轮。",
    "hint.title": "提示（此后最优打法的期望最终得分）：",
    "hint.roll": "请掷骰子（r）。当前期望最终得分：{ev}",
    "hint.keep": "保留 {keep}，重掷 {reroll}",
    "hint.stop": "现在记在{box}（{points} 分）",
    "hint.win_keep": "保留 {keep}",
    "hint.reroll_all": "全部重掷",
    "hint.box": "{box}：{points} 分",
    "hint.best": "最佳",
    "hint.then": "然后记分：",
    "hint.cpu_turn": "电脑回合中没有提示",
    "hint.win_title": "战胜电脑（{level}）的概率（平局算一半），以及期望最终得分：",
    "hint.win_far": "（你的空格剩 {n} 个或更少时显示获胜概率）",
    "hint.win_start": "从此处战胜电脑（{level}）的概率（平局算一半）：{p}",
    "hint.win_note": "（电脑结束游戏之前，这是针对其当前最终得分分布的最佳应对：是你最佳胜率的下限）",
    "hint.win_exact": "（电脑已结束，得分 {score}：这些概率是精确的）",
    "rules.pager": "-- 第 {page}/{pages} 页 -- 回车：下一页，q：返回游戏 ",
    "help": (
        "命令（在 > 提示符后输入）：\n"
        "  r              掷骰子（第一次掷全部五颗，之后掷未保留的骰子）\n"
        "  k a c d        保留或放回位置 a、c、d 的骰子（字母标在骰子上方）\n"
        "  k 225          只保留一个 2、一个 2 和一个 5（其余放回）；k 6 保留一个 6\n"
        "  k -            全部放回\n"
        "  s <项目>       记分：编号（1-{n}）或名称，例如 {examples}\n"
        "  h              提示：最佳保留或记分项目及期望最终得分\n"
        "  u              撤销上一次记分（单人游戏，下一次掷骰前；本局随即算作练习）\n"
        "  history        已进行的各轮（包括电脑的）\n"
        "  ?              分页查看规则\n"
        "  q              保存并退出（之后用 yahtzee-solve play --resume 继续）\n"
        "  help           本列表\n"
        "项目名称：{aliases}"
    ),
    "quit.saved": "游戏已保存。继续请用：yahtzee-solve play --resume",
    "quit.interrupted": "已中断。游戏已保存；继续请用：yahtzee-solve play --resume",
    "end.title": "游戏结束。",
    "end.solo": "最终得分：{total}。",
    "end.win": "你赢了，{me} 比 {cpu}！",
    "end.loss": "{player}赢了，{cpu} 比 {me}。",
    "end.draw": "平局：双方都是 {me} 分。",
    "end.seed": "种子 {seed}（用 --seed {seed} 可重玩同样的骰子）",
    "end.record": "{rules}，{opponent}新纪录：{score} 分（之前最高 {old}）！",
    "end.stats": "{rules}，{opponent}：{games} 局，最高 {best}，平均 {average}",
    "end.stats_cpu": "{rules}，{opponent}：{games} 局，{wins} 胜 {losses} 负 {draws} 平，最高 {best}，平均 {average}",
    "end.stats_cpu_forfeits": "{rules}，{opponent}：完成 {games} 局 + 弃局 {forfeits} 局，{wins} 胜 {losses} 负（含弃局）{draws} 平，最高 {best}，平均 {average}",
    "warn.records": "警告：{detail}",
    "warn.save": "警告：{detail}",
    "warn.history": "警告：{detail}",
    "end.unrecorded": (
        "无法记录本局结果：{detail}\n"
        "已结束的这局保留在 {path}，下次运行 yahtzee-solve play 或 yahtzee-solve records 时会记入。"
    ),
    "end.pending": "上次已结束的一局（{rules}，{opponent}：{score} 分）已记入记录。",
    "rec.none": "还没有游戏记录。",
    "rec.rules": "规则",
    "rec.opponent": "对手",
    "rec.games": "局数",
    "rec.best": "最高",
    "rec.average": "平均",
    "rec.wins": "胜",
    "rec.losses": "负",
    "rec.draws": "平",
    "rec.abandoned": "放弃",
    "rec.reset_confirm": "删除 {path} 中的全部记录？",
    "rec.reset_done": "记录已删除。",
    "rec.reset_none": "没有可删除的记录。",
    "rec.reset_kept": "未删除任何记录。",
    "confirm.new_game_cpu": "有一局存档（{rules}，{opponent}，第 {round}/{turns} 轮）。放弃它会记为一负。开始新游戏？",
    "practice.seed": "指定了种子：本局算作练习（与正式记录分开）。",
    "practice.hint": "使用了提示：本局现在算作练习（与正式记录分开）。",
    "practice.undo": "撤销了得分：本局现在算作练习（与正式记录分开）。",
    "practice.confirm": "检查了代价较大的选择（--confirm-loss）：本局现在算作练习（与正式记录分开）。",
    "practice.label": "{rules}（练习）",
    "end.practice": "练习局：已记入练习记录。",
    "why.deleted": "已被删除",
    "why.refused": "未通过校验",
    "settled.loss": "存档（{rules}，{opponent}）{why}：记为一负。",
    "settled.abandoned": "存档（{rules}，{opponent}）{why}：记为放弃。",
    "settled.already": "存档（{rules}，{opponent}）{why}：此前已计入，记录不变。",
    "rec.practice_title": "练习（指定种子、提示或撤销）：",
    "rules.turn": (
        "{title}\n\n"
        "共 {n} 个项目、{n} 轮。每轮先掷全部五颗骰子；之后最多两次，可保留任意骰子并重掷其余的"
        "（每轮最多掷三次）。任何一次掷骰后（第一次之前不行）都可以把骰子记在一个空栏里；"
        "第三次掷骰后必须记分。每栏只记一次，不符合要求就记 0 分。\n\n"
        "与电脑对战时双方轮流进行；总分高者获胜，总分相同为平局。"
    ),
    "rules.upper_title": "上半区",
    "rules.lower_title": "下半区",
    "rules.bonus_title": "{yahtzee}奖励与百搭",
    "rules.line": "  {box}：{desc}",
    "rules.upper_bonus": "上半区奖励：上半区合计达到 {threshold} 分或以上时 +{bonus} 分（每种点数各三颗正好 {threshold} 分）。",
    "rules.total": "总分 = 上半区 + 上半区奖励 + 下半区{plus_bonus}。",
    "rules.plus_bonus": " + {yahtzee}奖励",
    "rules.ybonus": "{yahtzee}奖励：{yahtzee}栏记为 50 分后，每再记一次五颗相同 +{bonus} 分；该栏记 0 分则没有奖励。",
    "rules.joker_forced": (
        "百搭（强制）：{yahtzee}栏已填（50 或 0 分）后再记五颗相同时：\n"
        "  1. 若该点数的上半区栏空着，必须记在那里；\n"
        "  2. 否则可记在下半区任一空栏（{fixed}）；\n"
        "  3. 若该上半区栏和下半区各栏都已填，须记在上半区任一空栏，得 0 分。"
    ),
    "rules.joker_free": (
        "百搭（自由）：{yahtzee}栏已填后再记五颗相同时，可记在任一空栏；"
        "只有当该点数的上半区栏已填时，{fixed_names}才得固定分（{fixed}），否则照常计分（即 0 分）。"
    ),
    "rules.no_bonus": "{title}：第二次{yahtzee}没有奖励，也没有百搭规则。",
    "desc.upper": "点数为 {face} 的骰子之和",
    "desc.chance": "五颗骰子之和",
    "desc.of_a_kind": "至少 {n} 颗点数相同时，五颗骰子之和",
    "desc.five_counts": "（五颗相同也算）",
    "desc.full_house_fixed": "三颗同点加两颗另一同点：{points} 分",
    "desc.full_house_sum": "三颗同点加两颗另一同点：五颗骰子之和",
    "desc.full_house_no5": "（五颗相同不算）",
    "desc.full_house_joker": "（五颗相同只能作为百搭）",
    "desc.straight": "{n} 个连续点数：{points} 分",
    "desc.straight_dup": "（允许有一颗重复：1-2-3-4-4）",
    "desc.five_alike": "五颗点数全部相同：{points} 分",
    "desc.n_alike": "至少 {n} 颗点数相同：这 {n} 颗骰子之和（取最大的点数）",
    "desc.two_pairs": "两种不同点数各两颗：这四颗骰子之和（四颗相同不算两对）",
    "desc.straight_exact": "正好 {run}：{points} 分",
    "rules.no_joker": "没有百搭：之后的五颗相同可记入任何空栏，但只按该栏自身的规则计分（{fixed_names}记 0 分）。",
}

JA = {
    "box": "役",
    "upper_subtotal": "上段小計",
    "upper_bonus": "上段ボーナス",
    "yahtzee_bonus": "{yahtzee}ボーナス",
    "total": "合計",
    "turn": "ターン {round}/{turns}",
    "you": "あなた",
    "col.you": "あなた",
    "col.cpu": "CPU",
    "cpu": "CPU（{level}）",
    "level.beginner": "初級",
    "level.normal": "中級",
    "level.expert": "上級",
    "level.master": "名人",
    "solo": "ひとり",
    "status.to_roll_you": "あなたの番です。r でサイコロを振ります。",
    "status.to_roll_cpu": "{player}がサイコロを振ります。",
    "status.roll": "{player}：{n}/{max} 投目",
    "status.locked": "サイコロは固定されました。役を選んでください（s <役>）",
    "dice": "サイコロ",
    "kept_legend": "[n] = キープ",
    "joker.upper": "ジョーカー：{yahtzee}の欄は記入済みです。5つの {face} は空いている{box}に入れなければなりません。",
    "joker.lower": "ジョーカー：{box}は記入済みなので、5つの {face} は下段の空いている役に入れられます（{fixed}）。",
    "joker.upper_zero": "ジョーカー：{box}と下段はすべて記入済みなので、5つの {face} は上段の空いている役に 0 点で入れます。",
    "joker.free_fixed": "ジョーカー：5つの {face} はどの空いている役にも入れられます。{box}が記入済みなので固定点です（{fixed}）。",
    "joker.free": "ジョーカー：5つの {face} はどの空いている役にも入れられます。{box}がまだ空いているので{fixed_names}は 0 点です。",
    "fixed_item": "{box} {points}点",
    "list_sep": "、",
    "bonus_now": "{yahtzee}ボーナス：どの役を選んでも +{points} 点。",
    "bonus_now_one": "{yahtzee}ボーナス：{box}に記入すると +{points} 点。",
    "commands_short": "r 振る | k a c a・cをキープ/解除 | k 225 2・2・5をキープ | s <役> 記入\nh ヒント | ? ルール | q 保存して終了 | help コマンド一覧",
    "prompt": "> ",
    "problem.game_over": "ゲームは終了しています",
    "problem.roll_first": "まずサイコロを振ってください（r）",
    "problem.no_rolls_left": "このターンはもう振れません。役を選んでください（s <役>）",
    "problem.all_held": "すべてキープ中です。振り直すには解除する（k a b ...）か、役を選んでください",
    "problem.locked": "3投目のあとサイコロは固定されます。役を選んでください（s <役>）",
    "problem.bad_hold": "無効なキープ {held!r}",
    "problem.bad_box": "無効な役 {box!r}",
    "problem.box_filled": "{box}はもう記入済みです",
    "problem.joker_upper": "ジョーカー：{box}が空いている間、5つの {face} は{box}に入れなければなりません",
    "problem.joker_lower": "ジョーカー：{box}は記入済みなので、5つの {face} は下段の空いている役に入れます",
    "problem.joker_upper_zero": "ジョーカー：下段はすべて記入済みなので、5つの {face} は上段の空いている役に入れます（0点）",
    "err.unknown_command": "不明なコマンド {cmd!r}：help で一覧を表示します",
    "err.keep_what": "サイコロを指定してください：k a c で a・c をキープ/解除、k 225 で 2 と 2 と 5 をキープ、k 6 で 6 を1個キープ、k - ですべて解除",
    "err.bad_position": "無効なサイコロ {pos!r}：位置は文字 a-e、目は数字 1-6 で指定します",
    "err.repeated_position": "{pos} が2回指定されています",
    "err.mixed_keep": "{text!r} は文字と数字が混ざっています：k a c は位置 a・c をキープ、k 56 は目の 5 と 6 をキープ",
    "err.bad_face": "無効な目 {face!r}：目は 1-6 です",
    "err.no_such_dice": "{faces} はキープできません：出目は {dice} です",
    "err.score_what": "役を指定してください：s <名前または番号>（例：s fh、s 9）",
    "err.unknown_box": "不明な役 {box!r}：番号 1-{n} か名前（例：{example}）を使ってください",
    "err.no_args": "{cmd!r} に引数は要りません",
    "confirm.zero": "{box}に 0 点を記入しますか？{other}なら {points} 点です。",
    "confirm.suffix": " [はい/いいえ、y/N] ",
    "confirm.again": "はい か いいえ（y か n）で答えてください（q はいいえ）",
    "confirm.cancelled": "記入しませんでした。",
    "confirm.not_rolled": "振りませんでした。",
    "confirm.new_game": "保存されたゲームがあります（{rules}、{opponent}、ターン {round}/{turns}）。破棄して新しいゲームを始めますか？",
    "kept_saved": "保存されたゲームは残してあります。続きは：yahtzee-solve play --resume",
    "ev.scored": "{player}は{box}に {points} 点を記入しました{joker}。",
    "ev.joker": "（ジョーカー）",
    "ev.yahtzee_bonus": "{yahtzee}ボーナス +{points}！",
    "ev.upper_bonus": "上段ボーナス +{points}！",
    "ev.cpu_rolls": "{player}の出目：{dice}（{n}/{max} 投目）。",
    "ev.cpu_keeps": "{player}は {keep} をキープして {reroll} を振り直します。",
    "ev.cpu_keeps_none": "{player}は5個すべて振り直します。",
    "ev.kept": "{keep} をキープ。r で {reroll} を振り直します。",
    "ev.kept_none": "キープなし。r で5個すべて振り直します。",
    "ev.undo_offer": "間違えましたか？次に振る前なら u で取り消せます（取り消すと練習扱い）。",
    "ev.undone": "{box}への記入を取り消しました。サイコロは元に戻りました。もう一度記入してください。",
    "err.no_undo": "取り消せるものがありません：u はひとり用で、次に振る前に直前の記入を取り消します",
    "confirm.loss": "{what}は最善（{best}）より期待値が {loss} 点低くなります。それでもよいですか？",
    "confirm.loss_keep": "このキープで振り直すと",
    "confirm.loss_box": "{box}に記入すると",
    "history.title": "これまでのターン：",
    "history.none": "まだ記入したターンはありません。",
    "history.line": "ターン {turn}、{player}：{rolls} -> {box} {points} 点{extra}",
    "ev.kept_all": "5個すべてキープ中：役に記入する（s <役>）か、解除してください。",
    "ev.first_you": "あなたが先攻です。",
    "ev.first_cpu": "{player}が先攻です。",
    "ev.resumed": "ゲームを再開しました：{rules}、ターン {round}/{turns}。",
    "hint.title": "ヒント（ここから最善手を続けた場合の最終得点の期待値）：",
    "hint.roll": "サイコロを振ってください（r）。ここからの最終得点の期待値：{ev}",
    "hint.keep": "{keep} をキープ、{reroll} を振り直す",
    "hint.stop": "今すぐ{box}に記入（{points} 点）",
    "hint.win_keep": "{keep} をキープ",
    "hint.reroll_all": "5個すべて振り直す",
    "hint.box": "{box}：{points}点",
    "hint.best": "最善",
    "hint.then": "記入先：",
    "hint.cpu_turn": "CPU の番ではヒントは出ません",
    "hint.win_title": "CPU（{level}）に勝つ確率（引き分けは半分）と最終得点の期待値：",
    "hint.win_far": "（空欄が {n} 個以下になると勝つ確率を表示します）",
    "hint.win_start": "ここから CPU（{level}）に勝つ確率（引き分けは半分）：{p}",
    "hint.win_note": "（CPU が終わるまでは、現時点の CPU の最終得点の分布に対する最善の応手です：最善の勝率の下限）",
    "hint.win_exact": "（CPU は {score} 点で終了しました：これらの確率は厳密です）",
    "rules.pager": "-- {page}/{pages} ページ -- Enter：次のページ、q：ゲームに戻る ",
    "help": (
        "コマンド（> のあとに入力）：\n"
        "  r              サイコロを振る（1投目は5個すべて、以降はキープしていないもの）\n"
        "  k a c d        位置 a・c・d のサイコロをキープ/解除（文字はサイコロの上）\n"
        "  k 225          2 と 2 と 5 だけをキープ（ほかは解除）。k 6 で 6 を1個キープ\n"
        "  k -            すべて解除\n"
        "  s <役>         役に記入：番号（1-{n}）または名前（例：{examples}）\n"
        "  h              ヒント：最善のキープまたは役と最終得点の期待値\n"
        "  u              直前の記入を取り消す（ひとり用、次に振る前まで。取り消すと練習扱い）\n"
        "  history        これまでのターン（CPU の分も）\n"
        "  ?              ルールをページごとに表示\n"
        "  q              保存して終了（続きは yahtzee-solve play --resume）\n"
        "  help           この一覧\n"
        "役の名前：{aliases}"
    ),
    "quit.saved": "ゲームを保存しました。続きは：yahtzee-solve play --resume",
    "quit.interrupted": "中断しました。ゲームは保存済みです。続きは：yahtzee-solve play --resume",
    "end.title": "ゲーム終了。",
    "end.solo": "最終得点：{total}。",
    "end.win": "あなたの勝ち！ {me} 対 {cpu}",
    "end.loss": "{player}の勝ち。{cpu} 対 {me}",
    "end.draw": "引き分け：どちらも {me} 点。",
    "end.seed": "シード {seed}（同じ出目で遊ぶには --seed {seed}）",
    "end.record": "{rules}、{opponent}の新記録：{score} 点（これまでの最高 {old}）！",
    "end.stats": "{rules}、{opponent}：{games} ゲーム、最高 {best}、平均 {average}",
    "end.stats_cpu": "{rules}、{opponent}：{games} ゲーム、{wins} 勝 {losses} 敗 {draws} 分、最高 {best}、平均 {average}",
    "end.stats_cpu_forfeits": "{rules}、{opponent}：終了 {games} ゲーム + 放棄 {forfeits} ゲーム、{wins} 勝 {losses} 敗（放棄を含む）{draws} 分、最高 {best}、平均 {average}",
    "warn.records": "警告：{detail}",
    "warn.save": "警告：{detail}",
    "warn.history": "警告：{detail}",
    "end.unrecorded": (
        "結果を記録できませんでした：{detail}\n"
        "終了したゲームは {path} に残してあり、次に yahtzee-solve play か yahtzee-solve records を"
        "実行したときに記録されます。"
    ),
    "end.pending": "前回終了したゲーム（{rules}、{opponent}：{score} 点）を記録しました。",
    "rec.none": "まだ記録がありません。",
    "rec.rules": "ルール",
    "rec.opponent": "相手",
    "rec.games": "回数",
    "rec.best": "最高",
    "rec.average": "平均",
    "rec.wins": "勝",
    "rec.losses": "負",
    "rec.draws": "分",
    "rec.abandoned": "放棄",
    "rec.reset_confirm": "{path} の記録をすべて削除しますか？",
    "rec.reset_done": "記録を削除しました。",
    "rec.reset_none": "削除する記録はありません。",
    "rec.reset_kept": "何も削除していません。",
    "confirm.new_game_cpu": "保存されたゲームがあります（{rules}、{opponent}、ターン {round}/{turns}）。破棄すると負けになります。新しいゲームを始めますか？",
    "practice.seed": "シード指定：このゲームは練習として記録します（通常の記録とは別）。",
    "practice.hint": "ヒントを使いました：このゲームは練習として記録します（通常の記録とは別）。",
    "practice.undo": "記入を取り消しました：このゲームは練習として記録します（通常の記録とは別）。",
    "practice.confirm": "損な選択を確認しました（--confirm-loss）：このゲームは練習として記録します（通常の記録とは別）。",
    "practice.label": "{rules}（練習）",
    "end.practice": "練習ゲーム：練習の記録に入れました。",
    "why.deleted": "が削除されました",
    "why.refused": "の検証に失敗しました",
    "settled.loss": "保存されたゲーム（{rules}、{opponent}）{why}：負けとして記録します。",
    "settled.abandoned": "保存されたゲーム（{rules}、{opponent}）{why}：放棄として記録します。",
    "settled.already": "保存されたゲーム（{rules}、{opponent}）{why}：すでに記録済みのため、記録は変わりません。",
    "rec.practice_title": "練習（シード指定・ヒント・取り消し）：",
    "rules.turn": (
        "{title}\n\n"
        "{n} 役、{n} ターン。各ターンはまず5個のサイコロをすべて振り、そのあと2回まで、"
        "好きなサイコロをキープして残りを振り直せます（1ターン最大3投）。どの投のあとでも"
        "（1投目の前は不可）空いている役を1つ選んで記入できます。3投目のあとは必ず記入します。"
        "各役には1回だけ記入し、条件を満たさなければ 0 点です。\n\n"
        "CPU との対戦では交互に手番が回り、合計の多いほうが勝ち、同点は引き分けです。"
    ),
    "rules.upper_title": "上段",
    "rules.lower_title": "下段",
    "rules.bonus_title": "{yahtzee}ボーナスとジョーカー",
    "rules.line": "  {box}：{desc}",
    "rules.upper_bonus": "上段ボーナス：上段の合計が {threshold} 点以上で +{bonus} 点（各目3個ずつでちょうど {threshold} 点）。",
    "rules.total": "合計 = 上段 + 上段ボーナス + 下段{plus_bonus}。",
    "rules.plus_bonus": " + {yahtzee}ボーナス",
    "rules.ybonus": "{yahtzee}ボーナス：{yahtzee}の欄が 50 点のとき、さらに5個そろいを記入するたびに +{bonus} 点。0 点のときはありません。",
    "rules.joker_forced": (
        "ジョーカー（強制）：{yahtzee}の欄が記入済み（50 点または 0 点）のときに5個そろいを記入する場合：\n"
        "  1. その目の上段の役が空いていれば、そこに入れなければなりません。\n"
        "  2. そうでなければ下段の空いている役に入れられます（{fixed}）。\n"
        "  3. その上段の役と下段がすべて記入済みなら、上段の空いている役に 0 点で入れます。"
    ),
    "rules.joker_free": (
        "ジョーカー（自由）：{yahtzee}の欄が記入済みのときに5個そろいを記入する場合、どの空いている役にも"
        "入れられます。{fixed_names}が固定点（{fixed}）になるのは、その目の上段の役が記入済みのときだけです"
        "（それ以外は通常どおり、つまり 0 点）。"
    ),
    "rules.no_bonus": "{title}：2回目の{yahtzee}のボーナスもジョーカーもありません。",
    "desc.upper": "{face} の目の合計",
    "desc.chance": "5個の目の合計",
    "desc.of_a_kind": "同じ目が {n} 個以上あれば5個の目の合計",
    "desc.five_counts": "（5個そろいも可）",
    "desc.full_house_fixed": "同じ目3個と別の同じ目2個で {points} 点",
    "desc.full_house_sum": "同じ目3個と別の同じ目2個で5個の目の合計",
    "desc.full_house_no5": "（5個そろいは不可）",
    "desc.full_house_joker": "（5個そろいはジョーカーのときのみ）",
    "desc.straight": "{n} つの連続した目で {points} 点",
    "desc.straight_dup": "（1個重複してもよい：1-2-3-4-4）",
    "desc.five_alike": "5個すべて同じ目で {points} 点",
    "desc.n_alike": "同じ目が {n} 個以上：その {n} 個の目の合計（最も大きい目）",
    "desc.two_pairs": "異なる2種類の目が2個ずつ：その4個の目の合計（同じ目4個はツーペアではない）",
    "desc.straight_exact": "ちょうど {run} で {points} 点",
    "rules.no_joker": "ジョーカーなし：2回目以降の5個そろいは空いている欄ならどこにでも記入できますが、その欄の役どおりにしか得点になりません（{fixed_names}は 0 点）。",
}

MESSAGES = {"en": EN, "zh": ZH, "ja": JA}

# -- game review (``yahtzee-solve review`` and the end-of-game summary of ``play``) ----------------
#: Review messages, merged into :data:`MESSAGES` (same keys and placeholders in every language).
REVIEW = {
    "en": {
        "review.game": "game {n} of the history ({date})",
        "review.header": "Review of {what}\n{title}, {opponent}, seed {seed}",
        "review.header_unseeded": "Review of {what}\n{title}, {opponent}",
        "review.cpu": "The CPU's decisions.",
        "review.score": "Final score {score}; optimal play expects {expected} from the empty card.",
        "review.score_so_far": "Score so far {score}; optimal play expects {expected} from the empty card.",
        "review.unfinished": "The game is not finished: {turns} turns reviewed.",
        "review.unfinished_one": "The game is not finished: {turns} turn reviewed.",
        "review.col_turn": "Turn",
        "review.col_dice": "Dice",
        "review.col_rolls": "Rolls left",
        "review.col_choice": "Choice",
        "review.col_best": "Best",
        "review.col_loss": "Loss",
        "review.keep": "keep {dice}",
        "review.stand": "score now",
        "review.total": "Total expected loss {total} points over {n} decisions: {mean} points a decision.",
        "review.bands": "Decisions by loss: 0: {b0}   under 1: {b1}   1 to 5: {b2}   5 or more: {b3}",
        "review.costliest": "Costliest decisions:",
        "review.costly_item": "turn {turn}, dice {dice}: {choice} instead of {best}, -{loss} points",
        "review.perfect": "No decision lost points: every choice was optimal.",
        "review.summary": "Your play this game: expected loss {total} points, {mean} a decision (good players stay under 0.2).",
        "review.none": "No decisions to review yet.",
        "review.history_saved": "Game saved to the history as number {n} (yahtzee-solve review {n}).",
        "review.history_problem": "Warning: the game history could not take this game ({detail}); it is recorded all the same.",
        "review.unavailable": "No review of this game: {detail}",
        "history.unreadable": "history file {path} is unreadable as a whole ({reason}); moved to {moved}, starting a new history",
        "history.damaged_one": "history file {path}: game {numbers} is damaged and skipped (game {first}: {reason}); the other games can be reviewed",
        "history.damaged_many": "history file {path}: games {numbers} are damaged and skipped (game {first}: {reason}); the other games can be reviewed",
    },
    "zh": {
        "review.game": "历史记录中的第 {n} 局（{date}）",
        "review.header": "复盘 {what}\n{title}，{opponent}，种子 {seed}",
        "review.header_unseeded": "复盘 {what}\n{title}，{opponent}",
        "review.cpu": "电脑的决策。",
        "review.score": "最终得分 {score}；最优策略从空白记分卡出发的期望得分为 {expected}。",
        "review.score_so_far": "目前得分 {score}；最优策略从空白记分卡出发的期望得分为 {expected}。",
        "review.unfinished": "这局还没有结束：已复盘 {turns} 轮。",
        "review.unfinished_one": "这局还没有结束：已复盘 {turns} 轮。",
        "review.col_turn": "轮",
        "review.col_dice": "骰子",
        "review.col_rolls": "剩余重掷",
        "review.col_choice": "选择",
        "review.col_best": "最佳",
        "review.col_loss": "损失",
        "review.keep": "保留 {dice}",
        "review.stand": "直接计分",
        "review.total": "期望损失共 {total} 分，{n} 个决策：平均每个决策 {mean} 分。",
        "review.bands": "按损失分布：0：{b0}   小于 1：{b1}   1 到 5：{b2}   5 及以上：{b3}",
        "review.costliest": "代价最大的决策：",
        "review.costly_item": "第 {turn} 轮，骰子 {dice}：选了 {choice}，最佳是 {best}，-{loss} 分",
        "review.perfect": "没有任何决策损失分数：每一步都是最优的。",
        "review.summary": "本局表现：期望损失 {total} 分，平均每个决策 {mean} 分（高手通常低于 0.2）。",
        "review.none": "还没有可以复盘的决策。",
        "review.history_saved": "本局已存入历史记录，编号 {n}（yahtzee-solve review {n}）。",
        "review.history_problem": "警告：历史记录无法保存本局（{detail}）；战绩照常记录。",
        "review.unavailable": "无法复盘本局：{detail}",
        "history.unreadable": "历史记录文件 {path} 整体无法读取（{reason}）；已移到 {moved}，重新开始记录历史",
        "history.damaged_one": "历史记录文件 {path}：第 {numbers} 局已损坏，已跳过（第 {first} 局：{reason}）；其他对局仍可复盘",
        "history.damaged_many": "历史记录文件 {path}：第 {numbers} 局已损坏，已跳过（第 {first} 局：{reason}）；其他对局仍可复盘",
    },
    "ja": {
        "review.game": "履歴のゲーム {n}（{date}）",
        "review.header": "{what}の振り返り\n{title}、{opponent}、シード {seed}",
        "review.header_unseeded": "{what}の振り返り\n{title}、{opponent}",
        "review.cpu": "CPU の判断です。",
        "review.score": "最終得点 {score}。最適戦略の白紙のスコアカードからの期待得点は {expected} です。",
        "review.score_so_far": "ここまでの得点 {score}。最適戦略の白紙のスコアカードからの期待得点は {expected} です。",
        "review.unfinished": "このゲームはまだ終わっていません：{turns} ターンを振り返りました。",
        "review.unfinished_one": "このゲームはまだ終わっていません：{turns} ターンを振り返りました。",
        "review.col_turn": "ターン",
        "review.col_dice": "サイコロ",
        "review.col_rolls": "残り振り直し",
        "review.col_choice": "選択",
        "review.col_best": "最善",
        "review.col_loss": "損失",
        "review.keep": "{dice} を残す",
        "review.stand": "すぐに記入",
        "review.total": "期待損失の合計 {total} 点、判断 {n} 回：1 回あたり {mean} 点。",
        "review.bands": "損失別の判断数：0：{b0}   1 未満：{b1}   1～5：{b2}   5 以上：{b3}",
        "review.costliest": "損失の大きかった判断：",
        "review.costly_item": "ターン {turn}、サイコロ {dice}：{choice}（最善は {best}）、-{loss} 点",
        "review.perfect": "点を失った判断はありません。すべて最善手でした。",
        "review.summary": "このゲームのプレー：期待損失 {total} 点、1 回あたり {mean} 点（上級者は 0.2 未満）。",
        "review.none": "振り返る判断がまだありません。",
        "review.history_saved": "このゲームを履歴の {n} 番に保存しました（yahtzee-solve review {n}）。",
        "review.history_problem": "警告：このゲームを履歴に保存できませんでした（{detail}）。記録には残ります。",
        "review.unavailable": "このゲームは振り返れません：{detail}",
        "history.unreadable": "履歴ファイル {path} は全体が読めません（{reason}）。{moved} に移し、新しい履歴を始めます",
        "history.damaged_one": "履歴ファイル {path}：ゲーム {numbers} は壊れているため飛ばしました（ゲーム {first}：{reason}）。ほかのゲームは振り返れます",
        "history.damaged_many": "履歴ファイル {path}：ゲーム {numbers} は壊れているため飛ばしました（ゲーム {first}：{reason}）。ほかのゲームは振り返れます",
    },
}
for _lang, _messages in REVIEW.items():
    MESSAGES[_lang].update(_messages)
