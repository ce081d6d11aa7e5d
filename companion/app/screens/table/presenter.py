"""What the Table screen shows, from the game: one panel per seat (life, poison and the other counters,
commander damage, the monarch and the initiative, the elimination the game proposes), day or night, the Horde's City, the turn, the event and the plane; where each
panel sits, and the life change of the last seconds. Pure (no kivy)."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from companion.app.device import LARGE_TABLET, PHONE
from companion.app.words import player_rgba, turn_header
from companion.game import (DAY_NIGHT, MOVEMENT_STEPS, PHASES, PLAYER_COUNTERS, PREGAME, Game, GameState, HordeCard,
                            bosses_out, commander_key)
from companion.i18n import translate

# What the Table screen may do to the game, through `app.play` (which says a refusal): `Game`
# methods, so a checker and an editor follow every call.
change_life = Game.change_life
set_life = Game.set_life
change_poison = Game.change_poison
commander_damage = Game.commander_damage
change_counter = Game.change_counter      # energy, experience, rad
give_monarch = Game.give_monarch
give_initiative = Game.give_initiative
set_day_night = Game.set_day_night
mulligan = Game.mulligan
keep_hand = Game.keep_hand
keep_in_game = Game.keep_in_game          # a proposed elimination a card prevents
player_leaves = Game.player_leaves
horde_draw = Game.horde_draw              # HO 201.2
damage_horde = Game.damage_horde
horde_boss_leaves = Game.horde_boss_leaves  # HO 202.2
set_event_counter = Game.set_event_counter
resolve_planar_trigger = Game.resolve_planar_trigger
next_phase = Game.next_phase
end_turn = Game.end_turn

ROTATIONS = (0, 90, 180, 270)
SEAT_LAYOUTS = ("upright", "facing", "ends")  # settings: quick ways to turn every panel at once
RECENT_CHANGE_S = 8.0  # a life change is shown beside the total this long after the last tap
COUNTERS = ("poison", *PLAYER_COUNTERS)   # a panel's counter row, poison first (the one that can make a player lose)
DESIGNATIONS = ("monarch", "initiative")  # the badges one player holds at a time (CR 724, 725)


@dataclass(frozen=True)
class CommanderSource:
    """An opponent's commander (or one of their partners, counted apart) that may deal damage to a
    player, and how much it has dealt."""

    player: int
    name: str
    damage: int
    partner: str = ""        # the partner's name; "" for the player's commander

    def label(self, lang: str) -> str:
        key = "table.partner_source" if self.partner else "table.commander_source"
        return translate(lang, key, name=self.name, damage=self.damage)


@dataclass(frozen=True)
class PanelView:
    player: int
    name: str
    rgba: tuple[float, float, float, float]
    life: str                 # "" when the player has no life of their own (Horde: the City's is shared)
    poison: int
    active: bool
    left: bool
    pregame: bool             # before turn 1: mulligan / keep
    kept: bool
    hand: str
    sources: tuple[CommanderSource, ...]   # opponents in the game, or who already dealt damage
    default_source: int | None             # the active player's commander: who attacks now
    elimination: str          # the game proposes that this player leaves: why, worded ("" = no)
    counters: tuple[tuple[str, int], ...] = ()   # (counter, value) for each of COUNTERS, in that order
    badges: tuple[str, ...] = ()                 # the DESIGNATIONS this player holds

    def counter(self, name: str) -> int:
        return dict(self.counters).get(name, 0)


def counter_choices(view: PanelView, lang: str) -> dict[str, str]:
    """The counter row's menu: "Energy 3" -> "energy", each counter with its value, poison first."""
    return {f"{translate(lang, f'table.counter_{name}')} {value}": name for name, value in view.counters}


def counters_in_use(view: PanelView, picked: str, lang: str) -> str:
    """The panel's other counters that are not 0 ("Energy 3 · Rad 1"): a counter unused stays hidden,
    and one in use stays in sight while the row shows another."""
    return " · ".join(f"{translate(lang, f'table.counter_{name}')} {value}"
                      for name, value in view.counters if value and name != picked)


def designation_text(state: GameState, which: str, lang: str) -> str:
    """The turn panel's button for the monarch or the initiative: who holds it, or nobody yet."""
    holder = getattr(state, which)
    name = state.names.get(holder) if holder is not None else None
    return translate(lang, f"table.{which}_held", name=name) if name else translate(lang, f"table.{which}_nobody")


def give_choices(state: GameState, which: str, lang: str) -> dict[str, int]:
    """Who may be given the monarch or the initiative (one tap): the players still in but its holder."""
    holder = getattr(state, which)
    return {translate(lang, f"table.give_{which}", name=p.name): p.id for p in state.alive if p.id != holder}


def day_night_text(state: GameState, lang: str) -> str:
    """Day, night, or neither yet (CR 726: unset until a card makes it day or night)."""
    return translate(lang, f"table.day_night_{state.day_night or 'unset'}")


def next_day_night(state: GameState) -> str:
    """What one tap on day/night makes it: day when unset, then night and day in turn."""
    return DAY_NIGHT[1] if state.day_night == DAY_NIGHT[0] else DAY_NIGHT[0]


@dataclass(frozen=True)
class CityView:
    """Horde (HO 300.3): the City's shared life is the big number; wave and cards left."""

    life: int
    start: int
    wave: str
    result: str
    bosses: tuple[tuple[str, str], ...]  # (which, its button's words) for each boss on the battlefield: the
    # table says when one leaves (HO 202.2: "wave", "secret", "earlier" — an earlier wave's, HO 202.5a)
    revealed: str = ""   # the cards the Horde's last draw, draws or damage revealed (HO 201.2, 301.3)


# The names the game gives a boss the table did not name (HordeWave.boss, GameSetup.secret_boss): a
# button says "The wave's boss leaves", not "The boss Boss leaves".
UNNAMED_BOSSES = frozenset({"boss", "boss secret", "secret boss"})


def panels(game: Game, lang: str, partners: dict[int, set[str]] | None = None) -> list[PanelView]:
    """One view per seat. `partners`: the partner commanders the table named for each player (their
    damage is counted apart, CR 702.124); those already dealt damage are known from the game."""
    state = game.state
    active = set(state.turn.active)
    pregame = state.turn.phase == PREGAME
    proposed = {e.player: e for e in game.eliminations()} if not state.over else {}
    known = known_partners(state, partners or {})
    views = []
    for player in state.players:
        opponents = [p for p in state.players if p.id != player.id and not _allies(state, p, player)]
        sources = tuple(CommanderSource(p.id, name, player.commander_damage.get(commander_key(p.id, partner), 0),
                                        partner)
                        for p in opponents for partner, name in [("", p.name)] + [(n, n) for n in sorted(known[p.id])]
                        if not p.left or player.commander_damage.get(commander_key(p.id, partner)))
        live = [s.player for s in sources if not state.player(s.player).left and not s.partner]
        default = next((s for s in live if s in active), live[0] if live else None)
        out = proposed.get(player.id)
        views.append(PanelView(
            player=player.id, name=player.name, rgba=player_rgba(player.id),
            life="" if state.horde else str(player.life), poison=player.poison,
            active=player.id in active, left=player.left, pregame=pregame and not player.left, kept=player.kept,
            hand=translate(lang, "table.hand", n=game.hand_size(player.id)) if pregame else "",
            sources=sources if not player.left else (), default_source=default,
            elimination=" · ".join(reason.text(lang) for reason in out.reasons) if out else "",
            counters=tuple((name, getattr(player, name)) for name in COUNTERS),
            badges=tuple(which for which in DESIGNATIONS if getattr(state, which) == player.id)))
    return views


def known_partners(state: GameState, named: dict[int, set[str]]) -> dict[int, set[str]]:
    """Each player's partner commanders: those the table named, and those the game has damage from."""
    known = {p.id: set(named.get(p.id, ())) for p in state.players}
    for player in state.players:
        for key in player.commander_damage:
            source, _, partner = key.partition(":")
            if partner and int(source) in known:
                known[int(source)].add(partner)
    return known


def _allies(state: GameState, a, b) -> bool:
    """Horde: every player is on the same side; Two-Headed Giant: teammates are no opponents."""
    return state.horde is not None or (state.format == "two_headed_giant" and a.team == b.team)


def city(state: GameState, lang: str) -> CityView | None:
    horde = state.horde
    if horde is None:
        return None
    wave = translate(lang, "horde.wave", wave=horde.wave, total=horde.wave_total,
                     level=translate(lang, f"horde.level_{horde.level}") if horde.level else "–",
                     cards=len(horde.library))
    names = {"wave": horde.boss, "secret": horde.secret_boss,
             "earlier": horde.earlier_bosses[0] if horde.earlier_bosses else ""}
    bosses = () if horde.result else tuple((which, _boss_leaves(which, names[which], lang)) for which in bosses_out(horde))
    return CityView(horde.city_life, horde.city_start, wave,
                    translate(lang, f"horde.result_{horde.result}") if horde.result else "", bosses,
                    revealed_text(horde.last_revealed, lang))


def _boss_leaves(which: str, name: str, lang: str) -> str:
    """A boss's leave button (HO 202.2), naming it only when the table gave it a name."""
    if name.strip().casefold() in UNNAMED_BOSSES or not name.strip():
        return translate(lang, f"table.boss_leaves_{which}")
    return translate(lang, f"table.boss_leaves_{which}_named", boss=name)


def revealed_text(cards: Sequence[HordeCard], lang: str) -> str:
    """"Revealed: Lightning Bolt, token, token" — what the Horde's last reveal showed, in the order it
    came (HO 201.2: tokens until a non-token), so the table sees on the Table what enters and what is
    cast, not only in the history. A card known by its kind only is called a token or a spell."""
    if not cards:
        return ""
    names = [card.name or translate(lang, "game.card.token" if card.token else "game.card.spell")
             for card in cards]
    return translate(lang, "table.horde_revealed", cards=", ".join(names))


def horde_draw_due(game: Game) -> bool:
    """The Horde's turn prompts its draw (HO 201.2): its draw step, and it has not revealed yet this turn."""
    state = game.state
    if state.horde is None or not state.turn.horde or state.turn.phase != "draw" or state.over:
        return False
    for entry in reversed(game.history_entries()):
        if entry.action.kind == "horde_draw":
            return False
        if any(m.key in ("game.history.turn", "game.history.turn_horde") for m in entry.messages):
            return True
    return True


def winner_text(state: GameState, lang: str) -> str:
    """Who won, once the game is over ("" while it goes on)."""
    if state.horde is not None and state.horde.result:
        return translate(lang, f"horde.result_{state.horde.result}")
    if state.winner:
        return translate(lang, "table.winner", names=" & ".join(state.player(p).name for p in state.winner))
    return ""


def phase_track(state: GameState, lang: str) -> str:
    """The turn's phases in order, one a line (the movement steps under the movement phase, MT 3.01.c):
    the current one marked, the ones done greyed — where the turn is, and what *Next phase* leads to."""
    turn = state.turn
    if turn.phase == PREGAME or state.over:
        return ""
    lines = []
    for index, phase in enumerate(PHASES):
        lines.append(_tracked(translate(lang, f"phases.{phase}"), index - PHASES.index(turn.phase)))
        if phase == "movement":
            here = MOVEMENT_STEPS.index(turn.step) if turn.phase == "movement" and turn.step in MOVEMENT_STEPS else (
                -1 if PHASES.index(turn.phase) < index else len(MOVEMENT_STEPS))
            lines += ["   " + _tracked(translate(lang, f"steps.{step}"), i - here) for i, step in enumerate(MOVEMENT_STEPS)]
    return "\n".join(lines)


def _tracked(name: str, offset: int) -> str:
    """A phase or step: the current one (offset 0) in yellow, those done (offset < 0) grey."""
    if offset == 0:
        return f"[b][color=ffd919]» {name}[/color][/b]"
    return f"[color=80858f]{name}[/color]" if offset < 0 else name


def side_wide(state: GameState) -> bool:
    """Whether the side column needs its full width: an event deck, a plane (and its card text) or
    the winner to say. Otherwise it holds the turn and its two buttons, and the seats get the room."""
    return bool(state.events is not None or state.planar is not None or state.over)


def event_text(state: GameState, lang: str) -> str:
    events = state.events
    if events is None:
        return ""
    if events.revealed is None:
        head = translate(lang, "event.none")
    elif events.counter is None:
        head = translate(lang, "event.no_counter", name=events.revealed.name)
    else:
        head = translate(lang, "event.revealed", name=events.revealed.name, counted=events.counted,
                         counter=events.counter)
    return head + "\n" + translate(lang, "event.deck", count=len(events.deck))


def plane_text(state: GameState, lang: str) -> str:
    planar = state.planar
    if planar is None:
        return ""
    if planar.face_up is None:
        return translate(lang, "plane.none")
    names = state.names
    lines = [translate(lang, "plane.face_up", plane=planar.face_up, owner=names.get(planar.owner, "?"),
                       controller=names.get(planar.controller, "?"))]
    lines += [translate(lang, "plane.pending", trigger=translate(lang, f"game.trigger.{p.kind}"),
                        plane=p.plane or "–") for p in planar.pending]
    return "\n".join(lines)


# -- where the panels sit ------------------------------------------------------------------------

def grid_shape(count: int, city: bool = False) -> list[int]:
    """Panels per row, far row first: one row up to 3 seats, then two rows (the far one fuller).
    Cells stay close to square, so a panel reads as well turned 90° as upright. With the Horde's
    City (HO 300.3), the City has the first row to itself and the players (1 to 4) share the other."""
    if city:
        return [1, count]
    if count <= 3:
        return [count]
    far = math.ceil(count / 2)
    return [far, count - far]


CITY_COLUMN = 0.4        # a phone turned sideways: the City's share of the seats' width
CITY_ROW = 0.62           # Horde: the City's share of the seats' height, players' panels turned across their row
HORDE_PLAYERS_MIN = 0.22  # … the players' least share when every panel is upright (or turned 180°)


def horde_rows(free: float, player_needs: list[float], *, turned: bool, player_rows: int = 1,
               city_need: float | None = None) -> list[float]:
    """The heights of the City's row and the players' row (HO 300.3: the City's life is the big number;
    the players have no life of their own to show). Upright panels need only their rows (name, poison,
    mulligans: `player_needs`); a panel turned 90° lays its name along the row's height, so any turned
    panel keeps the players' full share. `player_rows` rows of players (a phone) share their height;
    `city_need`: the City's least height, the players may take the rest."""
    full = free * (1 - CITY_ROW)
    players = full if turned else min(full, max(free * HORDE_PLAYERS_MIN, max(player_needs, default=0) * player_rows))
    if city_need is not None and not turned:  # players in rows (a phone): all they need, the City keeps its least
        players = max(players, min(max(player_needs, default=0) * player_rows, free - city_need))
    return [free - players, *[players / player_rows] * player_rows]


def seat_rows(count: int, device: str, portrait: bool, city: bool = False) -> list[int]:
    """Panels per row, far row first, for a device class held one way (issue #27). Landscape keeps
    `grid_shape`; portrait stacks rows, two wide on a tablet from 3 players, the far rows fuller. A
    phone held upright is one panel wide, but two by two at 4 players (near-square cells, a big total
    each) and for the Horde's players under the City: at 5 players two wide left each total 40 dp
    wide and hid ±5 (#27), where five strips the phone's width each keep −5 −1 total +1 +5 in a row.
    A phone turned sideways puts the Horde's players two by two beside the City (`city_beside`)."""
    if not portrait and not (city and device == PHONE):
        return grid_shape(count, city)
    if device == PHONE:
        columns = 2 if city or count == 4 else 1
    else:
        columns = 2 if city or count > 2 else 1
    rows = math.ceil(count / columns)
    shape = [count // rows + (1 if row < count % rows else 0) for row in range(rows)]
    return [1, *shape] if city else shape


def city_beside(device: str, portrait: bool) -> bool:
    """A phone turned sideways is too short for the City's row above the players': the City takes a
    column on the left, the players two by two beside it."""
    return device == PHONE and not portrait


def phone_portrait(device: str, portrait: bool) -> bool:
    """The phone held upright: panels stacked, each facing its player, and the turn in a bar."""
    return device == PHONE and portrait


def turn_in_bar(portrait: bool) -> bool:
    """Portrait windows keep their width for the panels, on every device class: the turn, the phase and
    the events go in a bar below them that opens a sheet; landscape windows keep them in a side column."""
    return portrait


def compact_panels(device: str, portrait: bool) -> bool:
    """Every window but the large tablet in landscape (today's layout) shows compact panels: the name,
    the life and its buttons; the counters, the commander damage and leaving open in the player's sheet."""
    return not (device == LARGE_TABLET and not portrait)


def seat_layout_for(layout: str, device: str, portrait: bool) -> str:
    """A phone held upright between the players faces each of them, as every life counter does: its
    far half is turned 180° from the start, even with the panels set "upright" in the settings."""
    return "facing" if layout == "upright" and phone_portrait(device, portrait) else layout


LIFE_COLUMN_DP = 64      # a ±1 over a ±5 on each side of the total
LIFE_STEP_DP = 52        # one button beside or under the total
LIFE_NUMBER_MIN_DP = 96  # the total's least width beside its buttons
FINGER_DP = 48           # the least side of a button


def life_arrangement(width_dp: float, height_dp: float) -> str:
    """Where a panel's life buttons go around its total: "columns" (−1 over −5 each side, the large
    tablet's), "row" (−5 −1 total +1 +5: a wide, short panel), "under" (the total on top, the buttons
    in a row below it: a narrow panel, the big number first) or "pair" (−1 total +1: small and short).
    A box too narrow for a total of a finger's width between −1 and +1 (a phone turned sideways at 5
    players, its City beside the Horde's players) puts them under a total of a finger's height."""
    if width_dp >= 2 * LIFE_COLUMN_DP + LIFE_NUMBER_MIN_DP and height_dp >= 2 * LIFE_STEP_DP + 4:
        return "columns"
    if width_dp >= 4 * LIFE_STEP_DP + LIFE_NUMBER_MIN_DP:
        return "row"
    if height_dp >= LIFE_STEP_DP + 4 + 56:
        return "under"
    if width_dp < 2 * (LIFE_STEP_DP + 4) + FINGER_DP and height_dp >= LIFE_STEP_DP + 4 + FINGER_DP:
        return "under"
    return "pair"


SLIM_PANEL_DP = 180  # a compact panel shorter than this (a phone's) keeps no gaps between its rows


def slim_panel(height_dp: float) -> bool:
    """Whether a compact panel is so short (five strips on a phone held upright, a phone turned
    sideways) that it keeps no gap between its rows and rows of a finger's height (48 dp, not 52): its
    name's row and its life's row of finger-sized buttons fill it."""
    return height_dp < SLIM_PANEL_DP


def life_fives_under(width_dp: float) -> bool:
    """Whether −5 and +5 fit beside −1 and +1 in the row under the total (else the keypad types them)."""
    return width_dp >= 4 * FINGER_DP + 3 * 4


def turn_bar_text(state: GameState, lang: str) -> str:
    """The portrait bar, one line: the winner once the game is over, else the turn, who plays and the
    phase ("Turn 3 — Anna · Combat")."""
    over = winner_text(state, lang)
    if over:
        return over
    if state.turn.phase == PREGAME:
        return translate(lang, "turn.pregame")
    step = f" ({translate(lang, f'steps.{state.turn.step}')})" if state.turn.phase == "movement" and \
        state.turn.step in MOVEMENT_STEPS else ""
    return f"{turn_header(state, lang)} · {translate(lang, f'phases.{state.turn.phase}')}{step}"


def default_rotation(seat: int, count: int, layout: str, rows: Sequence[int] | None = None) -> int:
    """The turn of seat `seat` (0-based) for a quick layout: all upright; the far half facing its
    players (180°: the first half of the rows, or the first seat of a row of two); or, with "ends",
    also the first and last seats turned to the table's ends. `rows`: the panels per row (`seat_rows`)."""
    rows = list(rows or grid_shape(count))
    far_seats = sum(rows[:len(rows) // 2])
    far_row = len(rows) >= 2 and seat < far_seats or (len(rows) == 1 and count == 2 and seat == 0)
    if layout == "ends" and count >= 2 and seat in (0, count - 1):
        return 270 if seat == 0 else 90
    return 180 if layout != "upright" and far_row else 0


def next_rotation(rotation: int) -> int:
    """A panel's turn button: a quarter turn clockwise."""
    return ROTATIONS[(ROTATIONS.index(rotation % 360) + 1) % len(ROTATIONS)]


class RecentChange:
    """The life change of the last seconds beside a total ("−7"), as life-counter apps show it:
    changes add up while the taps keep coming; a pause of `hold` seconds clears it."""

    def __init__(self, hold: float = RECENT_CHANGE_S):
        self.hold = hold
        self._value: int | None = None
        self._delta = 0
        self._last = -math.inf

    def update(self, value: int | None, now: float) -> int:
        """Feed the total shown now; returns the change to show beside it (0: none)."""
        if now - self._last > self.hold:
            self._delta = 0
        if value is not None and self._value is not None and value != self._value:
            self._delta += value - self._value
            self._last = now
        self._value = value
        return self._delta if now - self._last <= self.hold else 0

    @staticmethod
    def text(delta: int) -> str:
        return "" if not delta else f"{'+' if delta > 0 else '−'}{abs(delta)}"


def commander_taken(state: GameState, player: int, source: int, partner: str = "") -> int:
    """The combat damage `player` has taken from `source`'s commander (or that partner) so far."""
    return state.player(player).commander_damage.get(commander_key(source, partner), 0)


def typed_commander_damage(text: str, taken: int) -> int | None:
    """What the commander-damage keypad means, as a change to record: "+7" / "−2" as typed, "21" the
    new total (its difference from `taken`); None when not a number."""
    meant = typed_life(text)
    if meant is None:
        return None
    kind, value = meant
    return value if kind == "change" else value - taken


def typed_life(text: str) -> tuple[str, int] | None:
    """What the life keypad means: "-7" / "+3" change the total, "12" sets it; None when not a number."""
    text = text.strip().replace("−", "-")
    if not text or not text.lstrip("+-").isdigit() or len(text) > 6:
        return None
    if text[0] in "+-":
        return "change", int(text)
    return "set", int(text)
