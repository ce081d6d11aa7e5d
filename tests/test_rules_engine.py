"""Unit tests of the rules engine beyond the fixture grids: house rules, dice, colour bonuses,
blocking, trample, move-to-target abilities and the app overlays. Expected values are worked
out from the rule named in each test."""
from __future__ import annotations

import subprocess
import sys

import pytest

from boards import Board
from companion.rules import (DEFAULT_HOUSE_RULES, HouseRules, HouseRulesError, Piece, action_zone, attack_blocker,
                             blockers, colour_bonus, legal_moves, may_attack, move_to_target_squares, movement_allowance,
                             movement_dice, overlay, overlays, reachable, roll_movement, spell_zone,
                             trample_targets, why_cannot_block, why_cannot_move)

OPEN = Board.from_rows(["W W W W W W W"] * 5)
COLOURS = Board.from_rows([
    "W  U  WU R# G",
    "B  R  G  W  WUBRG",
    "W  W  W  W  W",
])


def creature(player=1, number=1, at=(0, 0), **kw) -> Piece:
    return Piece(player, number, at=at, **kw)


# -- house rules ------------------------------------------------------------------------------

def test_house_rule_defaults_are_the_digest_readings():
    """MT 8.04 options default to rules-digest.md: Manhattan, D10, 3.04.d threshold 3, landwalk on the
    start square (6.09), reach and spell MV 0 count as 1 (6.07, 4.09.a), +0 loyalty (3.09), no mana burn;
    MT 2.02.e follows the seed's words: a doubtful square is not counted at all."""
    h = DEFAULT_HOUSE_RULES
    assert (h.metric, h.die_sides, h.extra_die_threshold, h.landwalk_reading) == ("manhattan", 10, 3, "start_square")
    assert (h.reach_zero_as_one, h.spell_zero_as_one, h.planeswalker_move_loyalty, h.mana_burn) == (True, True, 0, False)
    assert h.uncertain_colours == "square"


def test_house_rules_load_from_yaml(tmp_path):
    """MT 8.04: a table's file changes only the options it names."""
    path = tmp_path / "house.yaml"
    path.write_text("metric: chebyshev\ndie_sides: 12\nmana_burn: true\n", encoding="utf-8")
    house = HouseRules.load(path)
    assert (house.metric, house.die_sides, house.mana_burn, house.extra_die_threshold) == ("chebyshev", 12, True, 3)


@pytest.mark.parametrize("text, message", [
    ("metrik: chebyshev\n", r"house\.yaml:1, field 'metrik': unknown option; did you mean metric\? "
                            r"\(allowed: metric, die_sides"),
    ("metric: hexagonal\n", r"house\.yaml:1, field 'metric': expected one of manhattan, chebyshev"),
    ("die_sides: 6\n", r"field 'die_sides': expected one of 10, 12, got 6"),
    ("mana_burn: maybe\n", r"field 'mana_burn': expected true or false, got 'maybe'"),
    ("metric: 2024-01-01\n", r"field 'metric': expected one of manhattan, chebyshev, got a date \(2024-01-01\)"),
    ("extra_die_threshold: " + "9" * 4000 + "\n", r"field 'extra_die_threshold': expected a whole number from 0 "
                                                  r"to 100, got a number with more than 30 digits"),
    ("- metric\n", r"house\.yaml:1: expected a mapping"),
    ("metric: [unclosed\n", r"house\.yaml:\d: not valid YAML"),
    ("!!python/object/apply:os.system ['echo hacked']\n", r"house\.yaml:1: not valid YAML"),
])
def test_bad_house_rules_file_names_file_and_field(tmp_path, text, message):
    """MT 8.04 options file: bad input gives a clear error naming the file and field; safe_load only."""
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(HouseRulesError, match=message):
        HouseRules.load(path)


def test_missing_house_rules_file(tmp_path):
    with pytest.raises(HouseRulesError, match=r"nope\.yaml: cannot read the file"):
        HouseRules.load(tmp_path / "nope.yaml")


# -- bad input to the fixed functions ---------------------------------------------------------

def test_zone_and_move_queries_reject_bad_input_clearly():
    """MT 4.03 / 3.04: squares off the board, negative MV or allowance, unknown metric → ValueError saying so."""
    with pytest.raises(ValueError, match=r"\(7, 0\) is not on the 7×5 board"):
        action_zone(OPEN, (7, 0), 1)
    with pytest.raises(ValueError, match="mana value must be a whole number ≥ 0"):
        action_zone(OPEN, (0, 0), -1)
    with pytest.raises(ValueError, match="metric must be one of"):
        spell_zone(OPEN, (0, 0), 1, metric="euclid")
    with pytest.raises(ValueError, match="allowance must be a whole number ≥ 0"):
        reachable(OPEN, (0, 0), -2)


def test_rules_import_neither_kivy_nor_cv2():
    """Architecture: companion.rules is pure Python (numpy allowed)."""
    code = "import sys, companion.rules; print('kivy' in sys.modules or 'cv2' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# -- dice and movement ------------------------------------------------------------------------

@pytest.mark.parametrize("power, toughness, dice", [(2, 2, 2), (0, 1, 2), (2, 3, 1), (3, 2, 1), (5, 5, 1), (None, None, 1)])
def test_extra_die_when_power_and_toughness_both_below_3(power, toughness, dice):
    """MT 3.04.d: power AND toughness both < 3 → one extra die."""
    assert movement_dice(creature(power=power, toughness=toughness)) == dice


def test_extra_die_threshold_is_a_house_rule():
    """MT 3.04.d threshold as house option: with 4, a 3/3 rolls two dice."""
    assert movement_dice(creature(power=3, toughness=3), HouseRules(extra_die_threshold=4)) == 2


def test_planeswalkers_and_players_roll_one_die():
    """MT 3.04.a: one die per object; 3.04.d is about creatures only."""
    assert movement_dice(Piece(1, 2, kind="planeswalker", power=1, toughness=1)) == 1
    assert movement_dice(Piece(1, 0, kind="player")) == 1


def test_copies_share_one_roll():
    """MT 3.03, 3.04.a: all copies of one object (same roll_key) share one roll; others roll their own."""
    spirits = [creature(number=n, at=(n, 0), power=1, toughness=1, object_key="spirit") for n in (1, 2, 3)]
    ogre = creature(number=4, at=(4, 0), power=3, toughness=3)
    off_grid = creature(number=5, at=None)
    asked = []

    def die(sides):
        asked.append(sides)
        return len(asked)

    rolls = roll_movement(spirits + [ogre, off_grid], die, HouseRules(die_sides=12))
    assert rolls == {"spirit": (1, 2), "1:4": (3,)}
    assert asked == [12, 12, 12]


def test_allowance_sums_dice_and_horsemanship_doubles():
    """MT 3.04.d dice summed (6.04 'the total of all its rolls'); horsemanship doubles the total (6.04)."""
    assert movement_allowance(OPEN, creature(), (4, 5)) == 9
    assert movement_allowance(OPEN, creature(keywords={"horsemanship"}), (4, 5)) == 18


@pytest.mark.parametrize("piece, reason", [
    (creature(tapped=True), "tapped"),
    (creature(summoning_sick=True), "summoning sick"),
    (creature(keywords={"defender"}), "defender"),
    (Piece(1, 2, kind="planeswalker", tapped=True, at=(0, 0)), "tapped"),
    (creature(at=None), "not on the grid"),
])
def test_pieces_that_cannot_move(piece, reason):
    """MT 3.02, 3.08.a, 5.05, 5.01.b: these pieces get no move (allowance 0) and a reason."""
    assert reason in why_cannot_move(OPEN, piece)
    assert movement_allowance(OPEN, piece, (6,)) == 0


def test_haste_moving_when_sick_is_a_house_rule():
    """MT 3.02 with haste: moves by default; not when haste_moves_when_sick is off."""
    hasty = creature(summoning_sick=True, keywords={"haste"})
    assert why_cannot_move(OPEN, hasty) is None
    assert "summoning sick" in why_cannot_move(OPEN, hasty, house=HouseRules(haste_moves_when_sick=False))


def test_legal_moves_of_piece_off_grid_is_empty():
    """MT 5.01.b: a permanent off the grid has no square to move from."""
    assert legal_moves(OPEN, creature(at=None), (6,)) == frozenset()


# -- colour bonuses ---------------------------------------------------------------------------

@pytest.mark.parametrize("colour, at, bonus", [
    ("W", (0, 0), "vigilance"), ("U", (1, 0), "unblockable"), ("B", (0, 1), "wither"),
    ("R", (1, 1), "haste"), ("G", (2, 1), "trample"),
])
def test_each_colour_gives_its_bonus(colour, at, bonus):
    """MT 2.02.b.01–05: W vigilance, U unblockable, B wither, R haste, G trample on a square of its colour."""
    result = colour_bonus(COLOURS, creature(at=at, colours={colour}))
    assert result.active == {bonus} and not result.needs_choice


def test_no_bonus_on_a_square_of_another_colour():
    """MT 2.02.b: only a square of the creature's own colour gives a bonus."""
    assert colour_bonus(COLOURS, creature(at=(0, 0), colours={"G"})).available == frozenset()


def test_single_shared_colour_applies_without_choice():
    """MT 2.02.c interpretation: a blue creature on a WU square shares one colour → unblockable, no choice."""
    result = colour_bonus(COLOURS, creature(at=(2, 0), colours={"U"}))
    assert result.active == {"unblockable"} and not result.needs_choice


def test_multicoloured_creature_on_multicoloured_square_chooses():
    """MT 2.02.c: a WU creature on a WU square picks one bonus at upkeep."""
    piece = creature(at=(2, 0), colours={"W", "U"})
    pending = colour_bonus(COLOURS, piece)
    assert pending.available == {"vigilance", "unblockable"}
    assert pending.active == frozenset() and pending.needs_choice
    assert colour_bonus(COLOURS, piece, chosen="U").active == {"unblockable"}
    assert colour_bonus(COLOURS, piece, chosen="vigilance").active == {"vigilance"}
    assert colour_bonus(COLOURS, piece, chosen="R").needs_choice  # red is not on offer here
    with pytest.raises(ValueError, match="neither a colour"):
        colour_bonus(COLOURS, piece, chosen="purple")


def test_five_colour_square_offers_the_creatures_colours_only():
    """MT 2.02.c: available = colours shared by creature and square (BG creature on WUBRG → wither, trample)."""
    result = colour_bonus(COLOURS, creature(at=(4, 1), colours={"B", "G"}))
    assert result.available == {"wither", "trample"} and result.needs_choice


def test_coloured_obstacle_still_counts():
    """MT 2.03.c: a red obstacle counts as red (for a flying red creature standing on it)."""
    assert colour_bonus(COLOURS, creature(at=(3, 0), colours={"R"}, keywords={"flying"})).active == {"haste"}


def test_uncertain_squares_do_not_count_MT_2_02_e():
    """MT 2.02.e: "ces cases ne sont pas comptabilisées" — by default a square with a doubtful colour counts no
    colour at all; the house option 'colour' drops only the doubtful colour (the digest's older reading)."""
    piece = creature(at=(2, 0), colours={"W", "U"})
    assert colour_bonus(COLOURS, piece, uncertain={(2, 0): {"U"}}).available == frozenset()
    assert colour_bonus(COLOURS, piece, uncertain={(2, 0): {"U"}},
                        house=HouseRules(uncertain_colours="colour")).active == {"vigilance"}
    assert colour_bonus(COLOURS, piece, uncertain={(2, 0)}).available == frozenset()
    assert colour_bonus(COLOURS, piece, uncertain={(0, 0)}).needs_choice  # doubt elsewhere changes nothing


def test_players_and_planeswalkers_get_no_colour_bonus():
    """MT 2.06 (players) and 2.02.b (bonuses are for creatures)."""
    assert colour_bonus(COLOURS, Piece(1, 0, kind="player", colours={"W"}, at=(0, 0))).available == frozenset()
    assert colour_bonus(COLOURS, Piece(1, 2, kind="planeswalker", colours={"W"}, at=(0, 0))).available == frozenset()


# -- combat -----------------------------------------------------------------------------------

def test_attack_only_from_a_touching_square():
    """MT 5.03.a–b: attack a player/planeswalker from a touching square (diagonals count), never a creature."""
    target = Piece(2, 0, kind="player", at=(3, 2))
    assert may_attack(creature(at=(2, 1)), target)           # diagonal
    assert may_attack(creature(at=(3, 3)), target)           # orthogonal
    assert not may_attack(creature(at=(1, 2)), target)       # two away
    assert not may_attack(creature(at=(3, 3)), creature(player=2, at=(3, 2)))
    assert may_attack(creature(at=(4, 3)), Piece(2, 5, kind="planeswalker", at=(3, 2)))


def test_blocker_needs_the_attacker_in_its_zone():
    """MT 5.04.a: MV 2 blocker at A1 reaches C1 (distance 2) but not D1; reach doubles it (6.07)."""
    blocker = creature(player=2, at=(0, 0), mana_value=2)
    assert why_cannot_block(OPEN, blocker, creature(at=(2, 0))) is None
    assert "outside its action zone" in why_cannot_block(OPEN, blocker, creature(at=(3, 0)))
    reacher = creature(player=2, at=(0, 0), mana_value=2, keywords={"reach"})
    assert why_cannot_block(OPEN, reacher, creature(at=(4, 0))) is None


def test_chebyshev_house_rule_widens_blocking():
    """MT 4.03 Chebyshev option: a diagonal square at (2, 2) is within MV 2 of (0, 0)."""
    blocker = creature(player=2, at=(0, 0), mana_value=2)
    attacker = creature(at=(2, 2))
    assert why_cannot_block(OPEN, blocker, attacker) is not None
    assert why_cannot_block(OPEN, blocker, attacker, house=HouseRules(metric="chebyshev")) is None


@pytest.mark.parametrize("blocker_kw, attacker_kw, blocker_tapped, allowed", [
    (set(), set(), False, True),
    (set(), set(), True, False),                        # MT 5.05
    (set(), {"flying"}, False, False),                  # flying needs flying or reach
    ({"reach"}, {"flying"}, False, True),
    ({"flying"}, {"flying"}, False, True),
    (set(), {"unblockable"}, False, False),
    (set(), {"horsemanship"}, False, False),
    ({"horsemanship"}, {"horsemanship"}, False, True),
])
def test_block_restrictions(blocker_kw, attacker_kw, blocker_tapped, allowed):
    """MT 5.04.a, 5.05 and evasion: who may block whom when in range."""
    blocker = creature(player=2, at=(1, 0), keywords=blocker_kw, tapped=blocker_tapped)
    attacker = creature(at=(0, 0), keywords=attacker_kw)
    assert (why_cannot_block(OPEN, blocker, attacker) is None) == allowed


def test_blue_square_makes_blue_attacker_unblockable():
    """MT 2.02.b.02: a blue creature on a blue square cannot be blocked."""
    blocker = creature(player=2, at=(0, 0), mana_value=3)
    assert "unblockable" in why_cannot_block(COLOURS, blocker, creature(at=(1, 0), colours={"U"}))
    assert why_cannot_block(COLOURS, blocker, creature(at=(1, 0), colours={"G"})) is None


def test_landwalk_in_force_only_blocked_by_same_landwalk():
    """MT 6.09: a forestwalker on a green square is blocked only by forestwalkers; off green, by anyone."""
    on_green = creature(at=(4, 0), keywords={"forestwalk"})
    plain = creature(player=2, at=(4, 1), mana_value=1)
    walker = creature(player=2, at=(4, 1), mana_value=1, keywords={"forestwalk"})
    assert "landwalk" in why_cannot_block(COLOURS, plain, on_green)
    assert why_cannot_block(COLOURS, walker, on_green) is None
    assert why_cannot_block(COLOURS, plain, creature(at=(3, 1), keywords={"forestwalk"})) is None


def test_blockers_lists_opposing_creatures_and_planeswalkers():
    """MT 5.04.a: opposing creatures and planeswalkers in range block; own pieces and players never do."""
    attacker = creature(at=(3, 2))
    pieces = [
        creature(player=2, number=1, at=(3, 1)),                    # in range
        Piece(2, 2, kind="planeswalker", at=(2, 2), mana_value=3),  # planeswalkers block too
        creature(player=2, number=3, at=(6, 4)),                    # too far (MV 0 → radius 1)
        creature(player=1, number=4, at=(4, 2)),                    # same side
        Piece(2, 0, kind="player", at=(3, 3)),                      # players do not block
        creature(player=3, number=5, at=(2, 2), tapped=True),        # tapped (5.05)
    ]
    assert [p.token for p in blockers(OPEN, attacker, pieces)] == [(2, 1), (2, 2)]


def test_only_the_attacked_players_pieces_block_once_the_attack_is_declared_PC():
    """PC: "les créatures d'un joueur peuvent uniquement bloquer les créatures qui l'attaquent": `why_cannot_block`
    with the defending controllers refuses another player's creature, in range as it is; `blockers` agrees."""
    attacker = creature(at=(3, 2))
    bruno, chloe = creature(player=2, number=2, at=(3, 1)), creature(player=3, number=2, at=(3, 3))
    assert why_cannot_block(OPEN, bruno, attacker, defenders={2}) is None
    assert "only the attacked player's pieces block (PC)" in why_cannot_block(OPEN, chloe, attacker, defenders={2})
    assert why_cannot_block(OPEN, chloe, attacker) is None  # before the attack is declared: any opponent in range
    assert [p.token for p in blockers(OPEN, attacker, [bruno, chloe], attacked=2)] == [(2, 2)]
    assert [p.token for p in blockers(OPEN, attacker, [bruno, chloe])] == [(2, 2), (3, 2)]


def test_a_summoning_sick_creature_attacks_only_with_haste_BR():
    """BR: « Une créature ne peut pas attaquer au premier tour » and « Célérité : une créature avec la célérité peut
    attaquer au premier tour » (summoning sickness, CR 302.6): standing next to an opposing pawn, a sick creature is
    offered no attack square unless it has haste, from the card or from a red square (MT 2.02.b.04); a tapped one
    is not offered any either."""
    pawn = Piece(2, 1, kind="player", at=(2, 1))
    sick = creature(at=(1, 1), summoning_sick=True)
    assert attack_blocker(COLOURS, sick).key == "game.attack.sick"
    assert overlay(COLOURS, sick, [pawn]).attack_squares == frozenset()
    hasty = creature(at=(1, 1), summoning_sick=True, keywords={"haste"})
    assert attack_blocker(COLOURS, hasty) is None and (1, 1) in overlay(COLOURS, hasty, [pawn]).attack_squares
    on_red = creature(at=(1, 1), summoning_sick=True, colours={"R"})  # B2 is red: haste from its square
    assert attack_blocker(COLOURS, on_red) is None and overlay(COLOURS, on_red, [pawn]).attack_squares
    tapped = creature(at=(1, 1), tapped=True)
    assert attack_blocker(COLOURS, tapped).key == "game.attack.tapped"
    assert overlay(COLOURS, tapped, [pawn]).attack_squares == frozenset()
    assert (1, 1) in overlay(COLOURS, creature(at=(1, 1)), [pawn]).attack_squares


def test_trample_excess_only_to_players_in_the_attackers_zone():
    """MT 6.06: the target player must stand in the attacker's action zone (MV 2 here)."""
    attacker = creature(at=(0, 0), mana_value=2, keywords={"trample"})
    near, far = Piece(2, 0, kind="player", at=(1, 1)), Piece(3, 0, kind="player", at=(3, 0))
    mine = Piece(1, 0, kind="player", at=(1, 0))
    assert trample_targets(OPEN, attacker, [near, far, mine]) == (near,)


# -- move to target square (defender, planeswalker) --------------------------------------------

def test_defender_moves_to_a_free_square_of_its_zone():
    """MT 3.08.b: {T}: move to target square in its action zone (here MV 1 → the 4 neighbours); obstacles
    only for flyers; a tapped defender cannot pay {T}."""
    board = Board.from_rows(["W W W", "W W .", "W W W"])
    defender = creature(at=(1, 1), mana_value=1, keywords={"defender"})
    assert move_to_target_squares(board, defender, occupied={(1, 0)}) == {(0, 1), (1, 2)}
    flyer = creature(at=(1, 1), mana_value=1, keywords={"defender", "flying"})
    assert move_to_target_squares(board, flyer) == {(1, 0), (0, 1), (2, 1), (1, 2)}
    assert move_to_target_squares(board, creature(at=(1, 1), keywords={"defender"}, tapped=True)) == frozenset()
    assert move_to_target_squares(board, creature(at=(1, 1), mana_value=1)) == frozenset()


def test_planeswalker_moves_to_target_square_in_its_zone():
    """MT 3.09: a planeswalker's move ability targets a free square of its action zone (MV 0 → radius 1)."""
    walker = Piece(1, 3, kind="planeswalker", at=(0, 0))
    assert move_to_target_squares(OPEN, walker) == {(1, 0), (0, 1)}


# -- overlays ---------------------------------------------------------------------------------

def test_overlays_for_a_small_scene():
    """App overlay: MT 4.03 zone, 3.04–3.07 moves, 5.04 blockers, 5.03.a attack squares for each piece."""
    me = creature(at=(1, 1), mana_value=1, power=1, toughness=1)
    foe = creature(player=2, number=1, at=(2, 1), mana_value=1)
    enemy_player = Piece(2, 0, kind="player", at=(5, 3))
    result = overlays(OPEN, [me, foe, enemy_player], dice={me.roll_key: (1, 0)})
    mine = result[me.token]
    assert mine.zone == {(1, 0), (0, 1), (2, 1), (1, 2)}
    assert mine.moves == {(1, 1), (1, 0), (0, 1), (1, 2)}          # (2, 1) is occupied by the foe
    assert mine.blockers == (foe,)
    assert mine.attack_squares == {(4, 2), (5, 2), (6, 2), (4, 3), (6, 3), (4, 4), (5, 4), (6, 4)}
    assert result[enemy_player.token].zone == frozenset()          # MT 4.08.a: no zone of their own
    assert result[foe.token].moves == {(2, 1)}                     # no dice given: stays
    assert overlay(OPEN, me, [me, foe, enemy_player], dice=(1, 0)) == mine
    assert overlay(OPEN, creature(at=None), [me]) is None


def test_overlay_follows_a_changed_scene():
    """MT 5.04.a through the app's per-piece overlay: when a blocker moves away or taps, the overlay
    changes (the reused scene must never be stale)."""
    me = creature(at=(1, 1))
    foe = creature(player=2, number=1, at=(2, 1), mana_value=1)
    assert overlay(OPEN, me, [me, foe]).blockers == (foe,)
    assert overlay(OPEN, me, [me, foe.moved((5, 4))]).blockers == ()
    assert overlay(OPEN, me, [me, Piece(2, 1, at=(2, 1), mana_value=1, tapped=True)]).blockers == ()
    assert overlay(OPEN, me, [me, foe], house=HouseRules(metric="chebyshev")).blockers == (foe,)
    edited = creature(at=(1, 1), keywords={"flying"})   # the piece given wins over its old entry
    assert overlay(OPEN, edited, [me, foe]).blockers == ()


def test_summoning_sick_defender_pays_tap_only_with_haste():
    """MT 3.08.b: {T} needs no summoning sickness, or haste from the card or a red square (MT 2.02.b.04)."""
    board = Board.from_rows(["W W W", "W R W", "W W W"])
    sick = creature(at=(1, 1), mana_value=1, keywords={"defender"}, summoning_sick=True)
    assert move_to_target_squares(board, sick) == frozenset()
    red = creature(at=(1, 1), mana_value=1, keywords={"defender"}, summoning_sick=True, colours={"R"})
    assert move_to_target_squares(board, red) == {(1, 0), (0, 1), (2, 1), (1, 2)}
