"""The I/O-free game engine: turn flow, Joker, persistence, CPU helpers, random playouts."""

from __future__ import annotations

import json

import numpy as np
import pytest

from yahtzee_solver.errors import IllegalMoveError, SavedGameError, UsageError
from yahtzee_solver.game import (
    CPU,
    HUMAN,
    MAX_ROLLS,
    GameConfig,
    GameState,
    Hold,
    Roll,
    Score,
    cpu_actions,
    joker_info,
    new_game,
    positions_of,
)
from yahtzee_solver.strategy.levels import LEVELS, make_strategy
from yahtzee_solver.rules import RULESETS, get_rules
from yahtzee_solver.play.savegame import GameStore, state_from_dict
from yahtzee_solver.state import ScoreCard

YAHTZEE = get_rules("yahtzee")


def card_with(rules="yahtzee", **boxes) -> ScoreCard:
    bonus = boxes.pop("yahtzee_bonus", 0)
    mapping = {k.replace("_", "-"): v for k, v in boxes.items()}
    if bonus:
        mapping["yahtzee-bonus"] = bonus
    return ScoreCard.from_mapping(mapping, rules)


def position(card: ScoreCard, dice, rolls_used=1, seed=0) -> GameState:
    """A solitaire state at ``card``'s turn with ``dice`` showing."""
    st = new_game(card.rules, "none", "me", seed)
    st.cards = [card]
    st.round = bin(card.filled).count("1") + 1
    st.dice = tuple(dice)
    st.rolls_used = rolls_used
    return st


# -- turn flow -----------------------------------------------------------------------------
def test_seeded_games_roll_the_same_dice_and_other_seeds_differ():
    a, b, c = new_game(seed=42), new_game(seed=42), new_game(seed=43)
    rolls = []
    for g in (a, b, c):
        g.apply_action(Roll())
        rolls.append(g.dice)
    assert rolls[0] == rolls[1]
    assert rolls[0] != rolls[2]
    assert all(1 <= d <= 6 for d in rolls[0]) and len(rolls[0]) == 5


def test_before_the_first_roll_only_rolling_is_legal():
    g = new_game(seed=1)
    assert g.legal_actions() == [Roll()]
    assert g.problem(Score(0)) == ("roll_first", {})
    assert g.problem(Hold((True,) * 5)) == ("roll_first", {})
    with pytest.raises(IllegalMoveError, match="roll the dice first"):
        g.apply_action(Score(0))


def test_three_rolls_at_most_then_dice_are_locked():
    g = new_game(seed=2)
    for n in range(1, MAX_ROLLS + 1):
        ev = g.apply_action(Roll())
        assert ev.kind == "roll" and ev.roll == n == g.rolls_used
    assert g.problem(Roll()) == ("no_rolls_left", {})
    assert g.problem(Hold((False,) * 5)) == ("locked", {})
    legal = g.legal_actions()
    assert legal and all(isinstance(a, Score) for a in legal)
    assert len(legal) == YAHTZEE.n_categories


def test_held_dice_stay_and_the_others_are_rerolled():
    g = new_game(seed=3)
    g.apply_action(Roll())
    first = g.dice
    held = (True, False, True, False, False)
    g.apply_action(Hold(held))
    g.apply_action(Roll())
    assert g.dice[0] == first[0] and g.dice[2] == first[2]
    assert g.held == held


def test_reroll_with_every_die_kept_is_refused():
    g = new_game(seed=3)
    g.apply_action(Roll())
    g.apply_action(Hold((True,) * 5))
    assert g.problem(Roll()) == ("all_held", {})


def test_scoring_uses_box_points_and_passes_the_turn():
    g = new_game(seed=4)
    g.apply_action(Roll())
    dice = g.dice
    points, legal, bonus = g.card.box_points(dice)
    c = 12  # Chance
    ev = g.apply_action(Score(c))
    assert ev.kind == "score" and ev.points == points[c] == sum(dice)
    assert g.cards[0].boxes[c] == sum(dice)
    assert g.dice is None and g.rolls_used == 0 and g.round == 2
    assert g.problem(Score(c)) == ("roll_first", {})
    g.apply_action(Roll())
    assert g.problem(Score(c)) == ("box_filled", {"box": "chance"})


def test_bad_actions_are_reported():
    g = new_game(seed=4)
    g.apply_action(Roll())
    assert g.problem(Score(13))[0] == "bad_box"
    assert g.problem(Score(True))[0] == "bad_box"
    assert g.problem(Hold((True, False)))[0] == "bad_hold"
    assert g.problem("roll")[0] == "bad_box"


def test_turns_alternate_against_the_cpu():
    g = new_game("yacht", "normal", "cpu", seed=5)
    assert g.current == CPU and g.is_cpu_turn
    g.apply_action(Roll())
    g.apply_action(Score(0))
    assert g.current == HUMAN and g.round == 1
    g.apply_action(Roll())
    g.apply_action(Score(0))
    assert g.current == CPU and g.round == 2


def test_random_first_player_comes_from_the_seed():
    firsts = {new_game("yahtzee", "beginner", "random", seed=s).config.first for s in range(20)}
    assert firsts == {HUMAN, CPU}
    assert new_game("yahtzee", "beginner", "random", seed=7).config.first == \
        new_game("yahtzee", "beginner", "random", seed=7).config.first


def test_bad_game_settings():
    with pytest.raises(UsageError, match="opponent"):
        new_game(opponent="grandmaster")
    with pytest.raises(UsageError, match="first"):
        new_game(first="you")
    with pytest.raises(UsageError, match="seed"):
        new_game(seed=-1)
    with pytest.raises(UsageError, match="first"):
        GameConfig(YAHTZEE, "none", CPU, 0)


# -- zero confirmation --------------------------------------------------------------------------
def test_zero_warning_only_when_another_box_scores():
    g = position(ScoreCard.empty(), (1, 2, 3, 4, 6))
    assert g.zero_warning(11)        # Yahtzee 0 while Chance would score 16
    assert not g.zero_warning(12)
    only = card_with(chance=5, **{k: 0 for k in ("ones", "twos", "threes", "fours", "fives", "sixes",
                                                   "three-of-a-kind", "four-of-a-kind", "full-house",
                                                   "small-straight", "large-straight")})
    g = position(only, (1, 2, 3, 4, 6))
    assert not g.zero_warning(11)    # no open box scores: no confirmation


# -- the Joker --------------------------------------------------------------------------------------
def test_forced_joker_upper_box_must_take_five_alike():
    card = card_with(yahtzee=50)
    g = position(card, (3,) * 5)
    j = g.joker()
    assert j.case == "upper" and j.face == 3 and j.yahtzee_bonus == 100
    assert [a for a in g.legal_actions() if isinstance(a, Score)] == [Score(2)]
    assert g.problem(Score(8)) == ("joker_upper", {"face": 3, "box": "threes"})
    ev = g.apply_action(Score(2))
    assert ev.points == 15 and ev.yahtzee_bonus == 100 and ev.joker
    assert g.cards[0].yahtzee_bonus == 100 and g.cards[0].total == 50 + 15 + 100


def test_forced_joker_lower_boxes_score_fixed_points():
    card = card_with(yahtzee=0, threes=9)
    g = position(card, (3,) * 5)
    j = g.joker()
    assert j.case == "lower" and j.yahtzee_bonus == 0
    scores = [a.category for a in g.legal_actions() if isinstance(a, Score)]
    assert scores == [6, 7, 8, 9, 10, 12]
    assert g.problem(Score(0))[0] == "joker_lower"
    ev = g.apply_action(Score(10))
    assert ev.points == 40 and ev.yahtzee_bonus == 0


def test_forced_joker_upper_zero_when_lower_is_full():
    lower = {k: 0 for k in ("three-of-a-kind", "four-of-a-kind", "full-house", "small-straight",
                            "large-straight")}
    card = card_with(yahtzee=50, threes=9, chance=20, **lower)
    g = position(card, (3,) * 5)
    assert g.joker().case == "upper_zero"
    scores = [a.category for a in g.legal_actions() if isinstance(a, Score)]
    assert scores == [0, 1, 3, 4, 5]
    assert not g.zero_warning(0)     # every legal box scores 0
    ev = g.apply_action(Score(0))
    assert ev.points == 0 and ev.yahtzee_bonus == 100


def test_free_joker_cases():
    rules = get_rules("yahtzee-free-joker")
    g = position(card_with(rules, yahtzee=50), (4,) * 5)
    assert g.joker().case == "free"
    pts, legal, _ = g.preview()
    assert all(legal) is False and sum(legal) == 12 and pts[8] == 0
    g = position(card_with(rules, yahtzee=50, fours=16), (4,) * 5)
    assert g.joker().case == "free_fixed"
    pts, _, _ = g.preview()
    assert (pts[8], pts[9], pts[10]) == (25, 30, 40)


def test_no_joker_without_a_filled_yahtzee_box_or_in_yacht():
    assert joker_info(ScoreCard.empty(), (5,) * 5) is None
    assert joker_info(card_with("yacht", yahtzee=50), (5,) * 5) is None
    assert joker_info(card_with(yahtzee=50), (5, 5, 5, 5, 6)) is None


# -- persistence -------------------------------------------------------------------------------------
def _through_disk(g: GameState, tmp_path) -> GameState:
    """Save ``g`` with its ledger entry (recorded from the start) and restore it by replay."""
    store = GameStore(tmp_path / "game.json")
    store.begin(new_game(g.rules, g.config.opponent, "cpu" if g.config.first else "me", g.config.seed))
    store.save(g)
    opened = GameStore(tmp_path / "game.json").open()
    assert opened.status == "ok", opened.problem
    return opened.state


def test_restored_game_has_the_same_dice_and_the_same_future_dice(tmp_path):
    g = new_game("yahtzee", "beginner", "me", seed=11)
    g.apply_action(Roll())
    g.apply_action(Hold((True, True, False, False, False)))
    g.apply_action(Roll())
    h = _through_disk(g, tmp_path)
    assert (h.dice, h.held, h.rolls_used, h.current, h.round) == (g.dice, g.held, g.rolls_used, g.current, g.round)
    # Continue both the same way, CPU turns included: identical dice forever.
    sa = make_strategy("beginner", "yahtzee", rng=g.cpu_rng)
    sb = make_strategy("beginner", "yahtzee", rng=h.cpu_rng)
    for state, strat in ((g, sa), (h, sb)):
        while not state.is_terminal():
            for a in cpu_actions(state, strat):
                state.apply_action(a)
    assert [e.to_dict() for e in g.log] == [e.to_dict() for e in h.log]
    assert g.totals() == h.totals()


def test_quitting_never_gives_a_fresh_roll(tmp_path):
    g = new_game(seed=12)
    g.apply_action(Roll())
    before = g.dice
    h = _through_disk(g, tmp_path)
    assert h.dice == before and h.rolls_used == 1
    # Restoring the game before the roll rolls the same dice again.
    f = new_game(seed=12)
    store = GameStore(tmp_path / "f.json")
    store.begin(f)
    f.apply_action(Roll())
    again = GameStore(tmp_path / "f.json").open().state
    again.apply_action(Roll())
    assert again.dice == f.dice == before


@pytest.mark.parametrize(
    "damage, match",
    [
        (lambda d: d.update(format="something else"), "not a yahtzee_solver saved game"),
        (lambda d: d.update(version=99), "version"),
        (lambda d: d["config"].update(rules="poker"), "unknown rules"),
        (lambda d: d["config"].update(opponent="god"), "differ from the records"),
        (lambda d: d.update(rolls_used=5), "rolls used"),
        (lambda d: d.update(dice=[1, 2, 3, 4, 9]), "dice"),
        (lambda d: d.update(dice=None), "dice"),
        (lambda d: d.update(round=7), "boxes filled"),
        (lambda d: d.update(current=3), "player"),
        (lambda d: d["cards"][0].update(chance=999), "damaged"),
        (lambda d: d.update(game_id="0" * 32), "another game"),
        (lambda d: d.pop("log"), "damaged"),
        (lambda d: d.update(cards=[]), "cards"),
    ],
)
def test_damaged_saves_are_refused(damage, match, tmp_path):
    g = new_game("yahtzee", "expert", "me", seed=13)
    store = GameStore(tmp_path / "game.json")
    store.begin(g)
    g.apply_action(Roll())
    store.save(g)
    d = json.loads((tmp_path / "game.json").read_text())
    damage(d)
    with pytest.raises(SavedGameError, match=match):
        state_from_dict(d, store.entry)


def test_non_dict_save_is_refused(tmp_path):
    store = GameStore(tmp_path / "game.json")
    store.begin(new_game(seed=1))
    with pytest.raises(SavedGameError):
        state_from_dict([1, 2, 3], store.entry)


# -- CPU helpers ----------------------------------------------------------------------------------------
def test_positions_of_prefers_held_dice():
    assert positions_of((2, 5, 2, 5, 5), (5, 5)) == (False, True, False, True, False)
    assert positions_of((2, 5, 2, 5, 5), (5,), (False, False, False, False, True)) == (False,) * 4 + (True,)
    with pytest.raises(IllegalMoveError):
        positions_of((1, 2, 3, 4, 5), (6,))


@pytest.mark.parametrize("level", LEVELS)
def test_full_game_against_each_level_is_deterministic(level):
    def play(seed):
        g = new_game("yahtzee", level, "random", seed=seed)
        strat = make_strategy(level, "yahtzee", rng=g.cpu_rng, jit=False)
        while not g.is_terminal():
            for a in cpu_actions(g, strat):
                g.apply_action(a)
        return g

    a, b = play(21), play(21)
    assert a.totals() == b.totals() and [e.to_dict() for e in a.log] == [e.to_dict() for e in b.log]
    assert all(c.is_full for c in a.cards)
    w = a.winner()
    t = a.totals()
    assert w == (None if t[0] == t[1] else (HUMAN if t[0] > t[1] else CPU))


def test_winner_draw_and_errors():
    g = new_game("yacht", "normal", "me", seed=1)
    with pytest.raises(IllegalMoveError):
        g.winner()
    full = ScoreCard(g.rules, (3,) + (0,) * 5 + (20,) + (0,) * 5)
    g.cards = [full, full]
    assert g.is_terminal() and g.winner() is None and g.legal_actions() == []
    assert g.problem(Roll()) == ("game_over", {})


# -- random playouts ---------------------------------------------------------------------------------
def _random_turn(g: GameState, rng: np.random.Generator) -> None:
    """A cheap random player: roll, maybe hold/reroll, then a random legal box."""
    g.apply_action(Roll())
    while g.rolls_used < MAX_ROLLS and rng.random() < 0.6:
        before = g.dice
        held = tuple(bool(x) for x in rng.integers(0, 2, 5))
        if all(held):
            break
        g.apply_action(Hold(held))
        g.apply_action(Roll())
        assert all(g.dice[i] == before[i] for i in range(5) if held[i])
    boxes = [a for a in g.legal_actions() if isinstance(a, Score)]
    assert boxes, "a rolled turn always has a legal box"
    g.apply_action(boxes[int(rng.integers(len(boxes)))])


def test_random_playouts_keep_the_invariants():
    rng = np.random.default_rng(2024)
    names = list(RULESETS)
    n_games = 0
    for i in range(1500):
        rules = get_rules(names[i % len(names)])
        opponent = "none" if i % 2 else "beginner"
        g = new_game(rules, opponent, "random", seed=i)
        turns = [0] * g.config.n_players
        while not g.is_terminal():
            assert g.round == turns[g.current] + 1
            assert turns[g.config.first] - turns[-1 - g.config.first] in (0, 1)
            p = g.current
            _random_turn(g, rng)
            turns[p] += 1
        n_games += 1
        assert all(t == rules.n_categories for t in turns)
        for p, card in enumerate(g.cards):
            scored = [e for e in g.log if e.kind == "score" and e.player == p]
            assert sorted(e.category for e in scored) == list(range(rules.n_categories))
            assert all(e.roll <= MAX_ROLLS for e in g.log)
            assert card.is_full
            assert card.total == sum(e.points + e.yahtzee_bonus + e.upper_bonus for e in scored)
            assert card.total == sum(card.boxes) + card.upper_bonus + card.yahtzee_bonus
            assert card.upper_bonus == (35 if sum(card.boxes[:6]) >= 63 else 0)
            if not rules.yahtzee_bonus:
                assert card.yahtzee_bonus == 0
    assert n_games == 1500


def test_problems_name_boxes_by_the_rule_sets_own_names():
    # Yacht's Chance box is "Choice": an English message must not say "chance".
    yacht = get_rules("yacht")
    g = position(card_with("yacht", choice=20), (1, 2, 3, 4, 6))
    assert g.problem(Score(6)) == ("box_filled", {"box": "choice"})
    with pytest.raises(IllegalMoveError, match="the choice box is already filled"):
        g.apply_action(Score(6))
    assert yacht.category_index(g.problem(Score(6))[1]["box"]) == 6
    g = position(card_with(yahtzee=50), (4,) * 5)
    assert g.problem(Score(8)) == ("joker_upper", {"face": 4, "box": "fours"})


@pytest.mark.parametrize(
    "data",
    [
        {"format": "yahtzee_solver saved game", "version": 2, "config": {"rules": ["yahtzee"]}},
        {"format": "yahtzee_solver saved game", "version": [[[[1]]]]},
    ],
)
def test_from_dict_turns_odd_types_into_saved_game_errors(data, tmp_path):
    store = GameStore(tmp_path / "game.json")
    store.begin(new_game(seed=1))
    with pytest.raises(SavedGameError):
        state_from_dict(data, store.entry)


@pytest.mark.parametrize("rules", ["yahtzee", "yahtzee-free-joker", "yahtzee-no-joker"])
@pytest.mark.parametrize("level", ["expert", "beginner"])
def test_games_of_five_alike_every_turn_keep_every_card_valid(rules, level):
    """Every card a game makes is valid (ScoreCard checks each), bonuses included: a game whose
    every roll is five alike earns a bonus on most turns, each written in a box of its own."""
    from yahtzee_solver.analysis.simulate import play_game

    r = get_rules(rules)
    rng = np.random.default_rng(11)
    for _ in range(10):
        faces = rng.integers(1, 7, r.n_categories)
        dice = np.repeat(faces[:, None, None], 3, axis=1).repeat(5, axis=2)   # (turns, 3, 5)
        moves: list = []
        card = play_game(make_strategy(level, r, rng=np.random.default_rng(3)), dice, r, moves)
        turn_y = [m[3] for m in moves].index(r.yahtzee_category)
        later = r.n_categories - 1 - turn_y  # every later turn rolled five alike: one bonus each
        assert card.yahtzee_bonus == (later * r.yahtzee_bonus if card.boxes[r.yahtzee_category] == 50 else 0)
        assert ScoreCard(r, card.boxes, card.yahtzee_bonus) == card
