"""Interface language of the game: messages, box names, rules pages, and display widths.

:class:`Translator` looks up the messages of :mod:`yahtzee_solver.i18n.text`
(English, Chinese, Japanese) and renders the rules of a rule set page by page.
:func:`display_width` and :func:`pad` measure text in terminal cells: Chinese
and Japanese characters are two cells wide (``unicodedata.east_asian_width``
``W``/``F``), combining marks zero, so columns line up in any language.
:func:`wrap` breaks lines by terminal cells and never inside text glued with
no-break spaces (:data:`NBSP`), which print as ordinary spaces.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from ..errors import UsageError
from ..card_problems import CARD_PROBLEMS
from .text import BOX_NAMES, MESSAGES, NO, TITLES, YES
from ..rules import ALIASES, N_UPPER, RuleSet

# a card's impossible points: the English is the command line's (card_problems.CARD_PROBLEMS), one text for both
MESSAGES["en"].update({f"card.{k}": v for k, v in CARD_PROBLEMS.items()})

__all__ = ["LANGS", "NBSP", "PROBABILITY_ROUNDING", "Translator", "display_width", "format_probability", "pad", "wrap", "locale_lang"]

class JokerCase(Protocol):
    """What :meth:`Translator.joker` reads of a :class:`yahtzee_solver.game.JokerInfo` (a layer above)."""

    @property
    def case(self) -> str: ...
    @property
    def face(self) -> int: ...
    @property
    def category(self) -> int: ...


#: Interface languages (``--lang``).
LANGS = ("en", "zh", "ja")


def locale_lang(default: str | None = "en", environ: Mapping[str, str] | None = None) -> str | None:
    """The interface language the locale asks for: ``zh`` for ``zh_*``, ``ja`` for ``ja_*``, else ``default``.

    The first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set and not
    empty decides (POSIX order), e.g. ``LANG=ja_JP.UTF-8`` gives ``ja``.
    """
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            return code if code in LANGS else default
    return default


#: No-break space: :func:`wrap` keeps text joined by it on one line, then prints it as a space.
NBSP = "\u00a0"


#: The float64 rounding a computed probability can carry (a few units in the last place of 1: sums
#: of exact probabilities, or 1 - p - d/2).  A win, loss or chance within this of 0 or 1 is shown as
#: exactly 0 or 1 where the surface knows the outcome is certain (``win``, the review's chart).
PROBABILITY_ROUNDING = 8 * 2.0 ** -52


def format_probability(p: float) -> str:
    """A probability (0..1) as a percentage, the one format of every probability column.

    Exact 0 and 1 read ``'0 %'`` and ``'100 %'`` (anything else has decimals:
    ``'100.00 %'`` is short of 1); from 1 % up two decimals (``'4.63 %'``);
    below 1 % two significant digits (``'0.75 %'``, ``'0.0075 %'``), under
    0.001 % with a power of ten (``'7.5e-5 %'``).  At most 8 characters down
    to 1e-11, so the columns of ``dist`` fit 80 cells.
    """
    if p == 0.0:
        return "0 %"
    if p == 1.0:
        return "100 %"
    x = 100 * p
    if x >= 1:
        return f"{x:.2f} %"
    if x >= 1e-3:
        return f"{x:#.2g} %"
    mantissa, exponent = f"{x:.1e}".split("e")
    return f"{mantissa}e{int(exponent)} %"


def display_width(text: str) -> int:
    """Terminal cells taken by ``text``: 2 for wide (``W``/``F``) characters, 0 for combining marks."""
    w = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return w


def pad(text: str, width: int, align: str = "<") -> str:
    """``text`` padded with spaces to ``width`` terminal cells (``<`` left, ``>`` right, ``^`` centre)."""
    gap = max(0, width - display_width(text))
    if align == ">":
        return " " * gap + text
    if align == "^":
        return " " * (gap // 2) + text + " " * (gap - gap // 2)
    return text + " " * gap


_CJK = "\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef"
# A run glued by no-break spaces; each part is a run of non-CJK or of CJK characters.
_GLUED = rf"(?:[^\s{_CJK}]+|[{_CJK}]+)(?:\u00a0(?:[^\s{_CJK}]+|[{_CJK}]+))+"
_TOKEN = re.compile(_GLUED + r"|\s+|[A-Za-z0-9]*・?[\u30a1-\u30fa\u30fc-\u30ff][\u30a0-\u30ff]*|"
                    rf"[^\s{_CJK}]+|\S")
# Characters a line may not start with (closing punctuation, small kana): kept on the previous line.
_NO_START = set("，。、；：？！）」』】〉》・ー…,.;:?!)]}ぁぃぅぇぉっゃゅょァィゥェォッャュョ")


def wrap(text: str, width: int | None) -> str:
    """Wrap ``text`` to ``width`` terminal cells, line by line.

    Latin words and katakana words break at their ends; other Chinese and
    Japanese text may break between any two characters, but never before
    closing punctuation (the character before it moves down with it), and
    never inside a run glued with no-break spaces (:data:`NBSP`, printed as
    plain spaces).  A continued line keeps the indentation of its first line,
    plus that of a list marker (``1. ``, ``- ``) or a command column.
    ``width`` ``None`` (or under 20 cells) leaves the lines as they are.
    """
    if width is None or width < 20:
        return text.replace(NBSP, " ")
    out = []
    for line in text.split("\n"):
        if display_width(line) <= width:
            out.append(line)
            continue
        m = (re.match(r"\s*(?:\d+\.\s+|[-*]\s+)", line) or re.match(r"\s+\S.*?\s{2,}(?=\S)", line)
             or re.match(r"\s*", line))
        assert m is not None  # r"\s*" matches every line
        hang = " " * min(display_width(m.group(0)), width // 2)
        cur: list[str] = []
        for tok in _TOKEN.findall(line):
            used = sum(display_width(t) for t in cur)
            if used + display_width(tok) > width and not tok.isspace() and "".join(cur).strip():
                carry: list[str] = []
                if tok[0] in _NO_START:  # take the previous character down too
                    while cur and not cur[-1].isspace() and cur[-1][0] in _NO_START:
                        carry.insert(0, cur.pop())
                    if cur and not cur[-1].isspace():
                        carry.insert(0, cur.pop())
                if "".join(cur).strip():
                    out.append("".join(cur).rstrip())
                    cur = [hang] + carry
                else:
                    cur += carry
            if tok.isspace() and len(cur) == 1 and out and cur[0] == hang:
                continue
            cur.append(tok)
        out.append("".join(cur).rstrip())
    return "\n".join(out).replace(NBSP, " ")


def _norm(name: str) -> str:
    return re.sub(r"[\s_・.·\-]+", "", str(name).strip().lower())


class Translator:
    """Messages and names in one language.

    Parameters
    ----------
    lang : str
        ``en``, ``zh`` or ``ja``.

    Raises
    ------
    UsageError
        For another language (also a ``ValueError``).
    """

    def __init__(self, lang: str = "en"):
        if lang not in LANGS:
            raise UsageError(f"unknown language {lang!r} (choose from {', '.join(LANGS)})")
        self.lang = lang
        self._m = MESSAGES[lang]

    def __call__(self, key: str, **params: object) -> str:
        """The message ``key`` with ``params`` filled in (falls back to English)."""
        text: str = self._m.get(key, MESSAGES["en"][key])
        return text.format(**params) if params else text

    # -- names ---------------------------------------------------------------------------
    def box(self, rules: RuleSet, c: int) -> str:
        """Name of box ``c`` of ``rules`` in this language."""
        spec = rules.categories[c]
        if self.lang == "en":
            return spec.name
        names = BOX_NAMES.get((self.lang, rules.name), {})
        name: str = names.get(spec.key) or BOX_NAMES[self.lang].get(spec.key, spec.name)
        return name

    def box_index(self, rules: RuleSet, text: str) -> int | None:
        """Box of ``rules`` whose name in this language is ``text`` (spaces and ``・`` ignored), else ``None``."""
        want = _norm(text)
        if not want:
            return None
        for c in range(rules.n_categories):
            if _norm(self.box(rules, c)) == want:
                return c
        return None

    def level(self, level: str) -> str:
        """A CPU level's name."""
        return self(f"level.{level}")

    def opponent(self, opponent: str) -> str:
        """An opponent key of the records (``solo`` or a CPU level, :attr:`GameConfig.opponent_key
        <yahtzee_solver.game.GameConfig.opponent_key>`), or ``coach`` (a coach game of the history), in words."""
        if opponent == "coach":  # a coach game of the history
            return self("table.coach_game")
        return self("solo") if opponent == "solo" else self("cpu", level=self.level(opponent))

    def title(self, rules: RuleSet) -> str:
        """The rule set's title: :attr:`RuleSet.title` in English, its translation otherwise."""
        if self.lang == "en":
            return rules.title
        return TITLES.get(self.lang, {}).get(rules.name, rules.title)

    def record_line(self, record: Mapping[str, Any], vs_cpu: bool, **names: str) -> str:
        """The end-of-game line of a record (:meth:`Record.to_dict <yahtzee_solver.play.records.Record.to_dict>`).

        ``names`` gives ``rules`` and ``opponent`` in words.  Against the CPU the
        forfeits (unfinished games, counted as losses; README "What the records
        count") are named beside the finished games, so the results add up.
        """
        r = record
        average = "-" if r["average"] is None else f"{r['average']:.1f}"
        best = "-" if r["best"] is None else r["best"]
        if not vs_cpu:
            return self("end.stats", games=r["games"], best=best, average=average, **names)
        key = "end.stats_cpu_forfeits" if r.get("forfeits") else "end.stats_cpu"
        return self(key, games=r["games"], wins=r["wins"], losses=r["losses"], draws=r["draws"],
                    forfeits=r.get("forfeits", 0), best=best, average=average, **names)

    def yes_no(self, answer: str) -> bool | None:
        """``True``/``False`` for a yes/no answer (empty = no), ``None`` if it is neither.

        Accepts ``y``/``n`` and this language's words (是/否, はい/いいえ, ...),
        in full-width forms too (NFKC), with a trailing 。/./! ignored.
        """
        a = unicodedata.normalize("NFKC", answer).strip().lower().rstrip("。.!！")
        if not a or a in NO[self.lang] or a in NO["en"]:
            return False
        if a in YES[self.lang] or a in YES["en"]:
            return True
        return None

    def problem(self, key: str, params: Mapping[str, object], rules: RuleSet) -> str:
        """An illegal-action reason (:data:`yahtzee_solver.game.PROBLEMS`) in this language."""
        p = dict(params)
        box = p.get("box")
        if isinstance(box, str):
            try:
                p["box"] = self.box(rules, rules.category_index(box))
            except KeyError:
                pass
        return self(f"problem.{key}", **p)

    def history_problem(self, problem: object) -> str:
        """A warning about the game history in this language.

        ``problem`` is a :class:`yahtzee_solver.play.history.HistoryProblem` (its
        message ``history.<key>``; the technical reason inside stays as the file
        reader said it), or any other text, returned as it is.
        """
        key = getattr(problem, "key", None)
        if key is None:
            return str(problem)
        fields: Mapping[str, object] = getattr(problem, "fields", {})
        return self(f"history.{key}", **fields)

    def join(self, items: Iterable[str]) -> str:
        """Items joined with this language's list separator."""
        return self("list_sep").join(items)

    def fixed_points(self, rules: RuleSet) -> tuple[str, str]:
        """``("Full House 25, ...", "Full House, ...")``: the boxes with fixed Joker points and their points."""
        cs = [c for c, s in enumerate(rules.categories) if s.joker_points is not None]
        items = self.join(self("fixed_item", box=self.box(rules, c), points=rules.categories[c].joker_points)
                          for c in cs)
        return items, self.join(self.box(rules, c) for c in cs)

    def joker(self, info: JokerCase, rules: RuleSet) -> str:
        """Explanation of a :class:`yahtzee_solver.game.JokerInfo`."""
        fixed, names = self.fixed_points(rules)
        y = self.box(rules, rules.yahtzee_category)
        return self(f"joker.{info.case}", face=info.face, box=self.box(rules, info.category),
                    yahtzee=y, fixed=fixed, fixed_names=names)

    @staticmethod
    def alias(rules: RuleSet, c: int) -> str:
        """Shortest name typed for box ``c`` (``fh``, ``3k``; the box's slug if it has no alias)."""
        spec = rules.categories[c]
        names = [a for a, key in ALIASES.items() if key == spec.key]
        return min(names, key=len) if names else spec.slug

    def aliases(self, rules: RuleSet) -> str:
        """Numbers, names and short aliases of the boxes, for the help text (``1 Ones (1s), ...``).

        Each entry is glued with no-break spaces so :func:`wrap` never splits it.
        """
        parts = []
        for c in range(rules.n_categories):
            name = self.box(rules, c).replace(" ", NBSP)
            parts.append(f"{c + 1}{NBSP}{name}{NBSP}({self.alias(rules, c)})")
        return ", ".join(parts)

    def box_examples(self, rules: RuleSet) -> list[str]:
        """Example score commands, all valid in ``rules``: a local name (zh/ja),
        ``s fh``, an of-a-kind alias (``3k``; ``4k`` in Yacht) and, in English,
        the Chance box's own name (``chance``/``choice``)."""
        kinds = [s.kind for s in rules.categories]
        out = []
        if "full_house" in kinds:
            fh = kinds.index("full_house")
            if self.lang != "en":
                out.append(f"s {self.box(rules, fh)}")
            out.append(f"s {self.alias(rules, fh)}")
        if "of_a_kind" in kinds:
            out.append(f"s {self.alias(rules, kinds.index('of_a_kind'))}")
        if self.lang == "en" and "chance" in kinds:
            out.append(f"s {rules.categories[kinds.index('chance')].slug}")
        return out

    def help(self, rules: RuleSet) -> str:
        """The command list of the game for ``rules`` (its box numbers, names and examples)."""
        examples = self.join(e.replace(" ", NBSP) for e in self.box_examples(rules))
        return self("help", n=rules.n_categories, aliases=self.aliases(rules), examples=examples)

    # -- the rules, page by page -----------------------------------------------------------------
    def describe(self, rules: RuleSet, c: int) -> str:
        """How box ``c`` scores (docs/rules.md tables), from the rule set's data."""
        s = rules.categories[c]
        if s.kind == "upper":
            return self("desc.upper", face=s.face)
        if s.kind == "chance":
            return self("desc.chance")
        if s.kind == "of_a_kind":
            return self("desc.of_a_kind", n=s.n) + (self("desc.five_counts") if s.n < 5 else "")
        if s.kind == "n_alike":
            return self("desc.n_alike", n=s.n) + self("desc.five_counts")
        if s.kind == "two_pairs":
            return self("desc.two_pairs")
        if s.kind == "full_house":
            base = (self("desc.full_house_sum") if s.points is None
                    else self("desc.full_house_fixed", points=s.points))
            joker = rules.joker != "none" and s.joker_points is not None
            return base + self("desc.full_house_joker" if joker else "desc.full_house_no5")
        if s.kind == "straight" and s.face:
            run = "-".join(str(f) for f in range(s.face, s.face + s.n))
            return self("desc.straight_exact", points=s.points, run=run)
        if s.kind == "straight":
            return self("desc.straight", points=s.points, n=s.n) + (self("desc.straight_dup") if s.n == 4 else "")
        return self("desc.five_alike", points=s.points)

    def rules_pages(self, rules: RuleSet, help_text: str | None = None) -> list[str]:
        """The rules of ``rules`` as pages of text (turn, upper section, lower section, bonus/Joker[, commands])."""
        n = rules.n_categories
        title = self.title(rules)
        y = rules.yahtzee_category
        yname = self.box(rules, y) if y >= 0 else ""
        pages = [self("rules.turn", title=title, n=n)]
        upper = [self("rules.upper_title")]
        upper += [self("rules.line", box=self.box(rules, c), desc=self.describe(rules, c)) for c in range(N_UPPER)]
        upper += ["", self("rules.upper_bonus", bonus=rules.upper_bonus, threshold=rules.upper_threshold)]
        pages.append("\n".join(upper))
        lower = [self("rules.lower_title")]
        lower += [self("rules.line", box=self.box(rules, c), desc=self.describe(rules, c)) for c in range(N_UPPER, n)]
        plus = self("rules.plus_bonus", yahtzee=yname) if rules.yahtzee_bonus else ""
        lower += ["", self("rules.total", plus_bonus=plus)]
        pages.append("\n".join(lower))
        if rules.yahtzee_bonus or rules.joker != "none":
            bonus = [self("rules.bonus_title", yahtzee=yname)]
            if rules.yahtzee_bonus:
                bonus.append(self("rules.ybonus", yahtzee=yname, bonus=rules.yahtzee_bonus))
            fixed, names = self.fixed_points(rules)
            if rules.joker == "forced":
                bonus += ["", self("rules.joker_forced", yahtzee=yname, fixed=fixed)]
            elif rules.joker == "free":
                bonus += ["", self("rules.joker_free", yahtzee=yname, fixed=fixed, fixed_names=names)]
            else:
                bonus += ["", self("rules.no_joker", fixed_names=names)]
            pages.append("\n".join(bonus))
        else:
            pages[-1] += "\n\n" + self("rules.no_bonus", title=title, yahtzee=yname)
        if help_text:
            pages.append(help_text)
        return pages
