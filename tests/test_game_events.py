"""Event deck (MT 7) and the prebuilt deck (MT 9.03)."""
from collections import Counter

import pytest

from boards import Board
from companion.game import (Dice, EventCard, EventDeckError, EventDeckList, Game, GameError, GameSetup, PlayerSetup,
                            save_event_deck, saved_event_decks, load_event_deck,
                            minimum_deck_size, prebuilt_event_deck)

from game_dice import with_corner_starts

BOARD = Board.from_rows(with_corner_starts([" ".join(["W"] * 20)] * 12), name="Test")
# MT 9.03, copied from the rules text.
MT_9_03 = {"Problème de Vol": 4, "Caprice du Maelstrom": 4, "Rixe de Saoulards": 4, "Symbiose Ligneuse": 2,
           "Subtilisation de la magie": 2, "Traverser l'Æther": 2, "Purger le Malin": 2,
           "Effondrement des valeurs": 2, "Embraser son étincelle": 1, "Jugement Dernier": 1,
           "Bouleversement planaire": 1, "Dyade manichéenne": 1}


def numbered_deck(size: int, turns: int | None = 2) -> list[EventCard]:
    return [EventCard(f"E{i:02}", "mythic", "natural", turns, "") for i in range(size)]


def new_game(players: int = 3, deck=None, seed: int = 1) -> Game:
    names = ["Anna", "Bruno", "Chloé", "David", "Emma"][:players]
    deck = deck if deck is not None else numbered_deck(minimum_deck_size(players))
    setup = GameSetup([PlayerSetup(n, i + 1) for i, n in enumerate(names)], BOARD, events=deck, starting_player=1)
    return Game.new(setup, dice=Dice.seeded(seed))


def write(tmp_path, text: str):
    path = tmp_path / "events.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_prebuilt_deck_is_the_list_of_MT_9_03():
    """MT 9.03: 26 cards, names and counts as listed; rarity from counts (4 common, 2 uncommon, 1 mythic)."""
    deck = prebuilt_event_deck()
    assert Counter(c.name for c in deck.cards) == Counter(MT_9_03)
    rarity_of_count = {4: "common", 2: "uncommon", 1: "mythic"}
    assert {c.name: c.rarity for c in deck.cards} == {n: rarity_of_count[k] for n, k in MT_9_03.items()}


def test_prebuilt_deck_invents_no_text_nor_counter_MT_9_03():
    """MT 9.03 gives names only: texts, supertypes and counters stay empty for the table."""
    assert all(c.text == "" and c.turns is None and c.supertype is None for c in prebuilt_event_deck().cards)


def test_deck_size_grows_by_four_per_extra_player_MT_7_02_a():
    """MT 7.02.a: 25 cards for two players, +4 per extra player."""
    assert [minimum_deck_size(n) for n in (2, 3, 4, 5)] == [25, 29, 33, 37]
    new_game(2, numbered_deck(25))
    with pytest.raises(GameError, match=r"24 cards; 2 players need at least 25.*MT 7.02.a"):
        new_game(2, numbered_deck(24))
    with pytest.raises(GameError, match="at least 33"):
        new_game(4, prebuilt_event_deck().cards)


@pytest.mark.parametrize("rarity,allowed", [("mythic", 1), ("uncommon", 2), ("common", 4)])
def test_copies_limited_by_rarity_MT_7_02_c(tmp_path, rarity, allowed):
    """MT 7.02.c: mythic 1 copy, uncommon 2, common 4; the error names file, entry and field."""
    ok = write(tmp_path, f"cards:\n  - {{name: Orage, rarity: {rarity}, count: {allowed}}}\n")
    assert len(load_event_deck(ok).cards) == allowed
    bad = write(tmp_path, f"cards:\n  - {{name: Orage, rarity: {rarity}, count: {allowed}}}\n"
                          f"  - {{name: orage, rarity: {rarity}, count: 1}}\n")
    with pytest.raises(EventDeckError) as err:
        load_event_deck(bad)
    assert (err.value.path, err.value.entry, err.value.field) == (bad, 2, "count")
    assert "MT 7.02.c" in str(err.value) and str(bad) in str(err.value) and "entry 2" in str(err.value)


@pytest.mark.parametrize("entry,field,message", [
    ("{name: X, rarity: rare}", "rarity", "mythic, uncommon, common"),
    ("{name: X, rarity: common, supertype: cosmic}", "supertype", "magical or natural"),
    ("{name: X, rarity: common, turns: 0}", "turns", "turn counter"),
    ("{name: X, rarity: common, colour: red}", "colour", "unknown key"),
    ("{rarity: common}", "name", "name"),
    ("{name: X, rarity: common, count: two}", "count", "whole number"),
])
def test_bad_entries_say_which_entry_and_field_MT_7_06(tmp_path, entry, field, message):
    """Entries are checked field by field (rarity MT 7.02.b, supertype MT 7.06.b, counter MT 7.06.d)."""
    path = write(tmp_path, f"name: T\ncards:\n  - {{name: Ok, rarity: common}}\n  - {entry}\n")
    with pytest.raises(EventDeckError, match=message) as err:
        load_event_deck(path)
    assert (err.value.entry, err.value.field) == (2, field)


def test_unreadable_deck_files_give_clear_errors(tmp_path):
    with pytest.raises(EventDeckError, match=r"events.yaml:\d: not valid YAML"):
        load_event_deck(write(tmp_path, "cards:\n  - {name: [\n"))
    with pytest.raises(EventDeckError, match="cannot read"):
        load_event_deck(tmp_path / "missing.yaml")
    with pytest.raises(EventDeckError, match="non-empty list"):
        load_event_deck(write(tmp_path, "name: T\n"))


def test_deck_is_shuffled_at_setup():
    """The event deck is shuffled: same cards, order drawn at random (recorded, so replays agree)."""
    deck = numbered_deck(29)
    orders = {tuple(c.name for c in new_game(3, deck, seed).state.events.deck) for seed in range(5)}
    assert len(orders) == 5
    assert all(sorted(o) == sorted(c.name for c in deck) for o in orders)


def test_starting_player_reveals_the_first_event_when_the_game_starts_MT_7_03():
    """MT 7.03: at the start of the game (turn 1 begins) the starting player reveals the top event."""
    game = new_game()
    top = game.state.events.deck[0]
    assert game.state.events.revealed is None  # mulligans first
    game.next_phase()
    assert (game.state.events.revealed, game.state.events.revealed_by) == (top, 1)
    assert "Anna revealed the event" in game.history("en")[-1]
    assert "Anna révèle l'évènement" in game.history("fr")[-1]


def test_counter_counts_each_players_turn_and_turn_X_reveals_MT_7_06_d():
    """MT 7.06.d.1–2: a turn is counted at the end of each player's turn; the player active on the X-th
    counted turn reveals the next event as that turn ends. X = 2, three players, Anna starts:
    Anna's turn is counted 1, Bruno's turn 2 → Bruno reveals; then Chloé's and Anna's → Anna reveals."""
    game = new_game()
    game.next_phase()
    first = game.state.events.revealed
    game.end_turn()
    assert (game.state.events.revealed, game.state.events.counted) == (first, 1)
    game.end_turn()
    second = game.state.events.revealed
    assert second != first and game.state.events.revealed_by == 2 and game.state.events.counted == 0
    game.end_turn()
    game.end_turn()
    assert game.state.events.revealed_by == 1 and game.state.events.revealed not in (first, second)


def test_only_one_event_revealed_old_one_to_the_bottom_MT_7_07():
    """MT 7.07.a–b: one event at a time; the previous one goes under the event deck."""
    game = new_game()
    game.next_phase()
    first = game.state.events.revealed
    size = len(game.state.events.deck)
    game.end_turn(), game.end_turn()
    assert game.state.events.deck[-1] == first
    assert len(game.state.events.deck) == size  # one out, one back in: one card revealed


def test_event_without_counter_asks_the_table_MT_7_06_d():
    """MT 7.06.d / 9.03: an event revealed without a counter asks for one; turns keep being counted."""
    game = new_game(2, numbered_deck(25, turns=None))
    game.next_phase()
    assert game.event_needs_counter
    first = game.state.events.revealed
    for _ in range(3):
        game.end_turn()
    assert game.state.events.revealed == first and game.state.events.counted == 3
    game.set_event_counter(4)
    assert not game.event_needs_counter
    game.end_turn()
    assert game.state.events.revealed != first and game.event_needs_counter
    with pytest.raises(GameError, match="from 1 to"):
        game.set_event_counter(0)


def test_event_reveal_is_undoable_MT_7_07():
    """Undo puts the revealed event back exactly as before (the deck order is part of the log)."""
    game = new_game()
    game.next_phase()
    game.end_turn()
    before = game.state.events
    game.end_turn()
    game.undo()
    assert game.state.events == before
    game.redo()
    assert game.state.events.revealed_by == 2



# -- decks saved by the app (issue #27) ---------------------------------------------------------
def five_player_deck(name: str = "Table de cinq") -> EventDeckList:
    """The bundled 26 and the table's own events, 37 cards (MT 7.02.a at five), copies within MT 7.02.c."""
    own = [EventCard("Tempête", "common", "natural", 3, "Chaque joueur…")] * 4 + \
          [EventCard("Marée", "common")] * 4 + [EventCard("Éclipse", "uncommon", "magical")] * 2 + \
          [EventCard("Comète", "mythic", None, 5)]
    return EventDeckList(name, prebuilt_event_deck().cards + tuple(own))


def test_a_saved_deck_reads_back_card_for_card_and_is_listed(tmp_path):
    deck = five_player_deck()
    path = save_event_deck(deck, tmp_path / "decks")
    assert path.parent == tmp_path / "decks" and path.suffix == ".yaml"
    again = load_event_deck(path)
    assert again == deck and len(again.cards) == minimum_deck_size(5) == 37
    listed = saved_event_decks(tmp_path / "decks")
    assert [(s.path, s.deck, s.problem) for s in listed] == [(path, deck, None)]
    assert [p.name for p in path.parent.iterdir()] == [path.name], "no temporary file left behind"


def test_saving_a_deck_again_under_its_name_replaces_it(tmp_path):
    first = save_event_deck(EventDeckList("Mine", prebuilt_event_deck().cards[:25]), tmp_path)
    second = save_event_deck(five_player_deck("Mine"), tmp_path)
    assert first == second and len(load_event_deck(second).cards) == 37
    assert len(saved_event_decks(tmp_path)) == 1


def test_a_deck_over_the_copy_limits_is_never_saved_MT_7_02_c(tmp_path):
    """MT 7.02.c: a mythic at most once; the deck is refused before anything is written."""
    comet = EventCard("Comète", "mythic")
    with pytest.raises(EventDeckError, match=r"2 copies of 'Comète'.*MT 7.02.c") as refused:
        save_event_deck(EventDeckList("Too many", (comet, comet)), tmp_path)
    assert (refused.value.entry, refused.value.field) == (1, "count")
    assert list(tmp_path.iterdir()) == []


def test_a_deck_name_never_reaches_outside_the_deck_folder(tmp_path):
    folder = tmp_path / "decks"
    path = save_event_deck(EventDeckList("../../.hidden/x", prebuilt_event_deck().cards), folder)
    assert path.parent == folder and not path.name.startswith(".")
    assert load_event_deck(path).name == "../../.hidden/x"


def test_a_bad_saved_deck_is_listed_with_its_file_line_entry_and_field(tmp_path):
    """A damaged deck in the app's folder never hides the good ones; its error says where it is wrong."""
    good = save_event_deck(five_player_deck(), tmp_path)
    bad = tmp_path / "broken.yaml"
    bad.write_text("name: Broken\ncards:\n  - {name: Storm, rarity: common, count: 2}\n"
                   "  - {name: Flood, rarity: rare, count: 1}\n", encoding="utf-8")
    listed = {s.path: s for s in saved_event_decks(tmp_path)}
    assert listed[good].deck == five_player_deck() and listed[good].problem is None
    problem = listed[bad].problem
    assert listed[bad].deck is None and isinstance(problem, EventDeckError)
    assert (problem.line, problem.entry, problem.field) == (4, 2, "rarity")
    assert str(problem).startswith(f"{bad}:4, entry 2, field 'rarity'")
