"""A generator of AtomicCards-shaped files of any size, for the benchmark and the memory test.

Names are drawn from word lists shaped like Magic's ("Serra's Blessed Angel", "Ange béni de
Serra"), so that prefixes are shared by many cards as they are in the real pool, and each entry
carries what a real entry carries around the facts (foreign names in five more languages,
legalities, rulings, purchase links, identifiers): about 3.5 kB per card, as in the real file
(~110 MB for ~30 000 cards). Deterministic for a given seed.
"""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable

PROPER = ("Serra", "Llanowar", "Shivan", "Sengir", "Urza", "Mishra", "Jace", "Chandra", "Ajani", "Garruk",
          "Liliana", "Nissa", "Gideon", "Teferi", "Karn", "Yawgmoth", "Gix", "Tolaria", "Keld", "Benalia",
          "Zendikar", "Innistrad", "Ravnica", "Theros", "Kaladesh", "Amonkhet", "Ixalan", "Dominaria",
          "Kamigawa", "Mirrodin", "Lorwyn", "Alara", "Tarkir", "Eldraine", "Strixhaven", "Kaldheim", "Akroma",
          "Kozilek", "Ulamog", "Emrakul", "Sorin", "Nahiri", "Ugin", "Bolas", "Niv", "Atraxa", "Elesh",
          "Jhoira", "Rakdos", "Golgari", "Selesnya", "Orzhov", "Izzet", "Dimir", "Gruul", "Boros", "Simic",
          "Azorius", "Krosa", "Otaria", "Mercadia", "Rath", "Jamuraa", "Zhalfir", "Dakmor", "Vesuva", "Thran")
NOUNS = ("Angel", "Dragon", "Elves", "Knight", "Wizard", "Sphinx", "Giant", "Goblin", "Zombie", "Vampire",
         "Wurm", "Hydra", "Djinn", "Elemental", "Spirit", "Golem", "Serpent", "Bear", "Wolf", "Hound", "Drake",
         "Phoenix", "Titan", "Warden", "Sentinel", "Shaman", "Druid", "Cleric", "Rogue", "Assassin", "Oracle",
         "Avatar", "Champion", "Guardian", "Herald", "Reaver", "Ravager", "Stalker", "Behemoth", "Colossus",
         "Blessing", "Bolt", "Growth", "Ritual", "Wrath", "Charm", "Command", "Sanctum", "Aegis", "Citadel",
         "Lotus", "Vial", "Crown", "Sword", "Blade", "Tome", "Idol", "Altar", "Gate", "Tower", "Grove",
         "Strike", "Storm", "Flame", "Tide", "Shadow", "Dawn", "Dusk", "Echo", "Fury", "Hymn", "Pact", "Verdict")
ADJECTIVES = ("Blessed", "Ancient", "Shivering", "Grim", "Savage", "Radiant", "Silent", "Feral", "Hollow",
              "Molten", "Frozen", "Gilded", "Crimson", "Verdant", "Eternal", "Wandering", "Reckless", "Noble",
              "Spectral", "Thundering", "Cunning", "Vengeful", "Mighty", "Lightning", "Giant", "Dark", "Holy",
              "Serrated", "Sacred", "Wild", "Iron", "Stone", "Storm", "Sky", "Sea", "Ghost", "Blood", "Soul")
PLACES = ("the Veil", "the Fells", "the Wilds", "the Forge", "the Deep", "the Ancients", "Secrets", "Fright",
          "the Pride", "the Spire", "the Dawn", "Ruin", "the Tides", "the Hunt", "Glory", "the Void", "Thunder")
# French: nouns (masculine/feminine mixed as in the card pool), adjectives after the noun.
NOMS = ("Ange", "Dragon", "Elfes", "Chevalier", "Sorcier", "Sphinx", "Géant", "Gobelin", "Zombie", "Vampire",
        "Guivre", "Hydre", "Djinn", "Élémental", "Esprit", "Golem", "Serpent", "Ours", "Loup", "Molosse",
        "Drake", "Phénix", "Titan", "Gardien", "Sentinelle", "Chaman", "Druide", "Clerc", "Voleur", "Assassin",
        "Oracle", "Avatar", "Champion", "Héraut", "Saccageur", "Ravageur", "Traqueur", "Béhémoth", "Colosse",
        "Bénédiction", "Foudre", "Croissance", "Rituel", "Colère", "Charme", "Commandement", "Sanctuaire",
        "Égide", "Citadelle", "Lotus", "Fiole", "Couronne", "Épée", "Lame", "Tome", "Idole", "Autel", "Porte",
        "Tour", "Bosquet", "Frappe", "Tempête", "Flamme", "Marée", "Ombre", "Aube", "Crépuscule", "Écho",
        "Furie", "Hymne", "Pacte", "Verdict")
ADJECTIFS = ("béni", "ancien", "frissonnant", "sinistre", "sauvage", "radieux", "silencieux", "féroce", "creux",
             "en fusion", "gelé", "doré", "cramoisi", "verdoyant", "éternel", "errant", "téméraire", "noble",
             "spectral", "tonitruant", "rusé", "vengeur", "puissant", "foudroyant", "géant", "sombre", "sacré",
             "dentelé", "sacré", "sauvage", "de fer", "de pierre", "d'orage", "céleste", "marin", "fantôme",
             "de sang", "d'âme")
LIEUX = ("du Voile", "des Landes", "des étendues sauvages", "de la forge", "des profondeurs", "des anciens",
         "des secrets", "de l'effroi", "de la fierté", "de la flèche", "de l'aube", "de la ruine", "des marées",
         "de la chasse", "de la gloire", "du néant", "du tonnerre")
KEYWORD_POOL = ("Flying", "Vigilance", "Trample", "Haste", "Reach", "Defender", "First strike", "Deathtouch",
                "Lifelink", "Menace", "Forestwalk", "Islandwalk", "Swampwalk", "Flash", "Hexproof", "Ward")
SENTENCES = ("When {name} enters, draw a card.", "{name} gets +1/+1 for each creature you control.",
             "At the beginning of your upkeep, you gain 1 life.", "{T}: Add one mana of any color.",
             "Sacrifice {name}: Destroy target artifact.", "Whenever {name} attacks, scry 1.",
             "Creatures you control get +1/+0 until end of turn.", "Counter target spell unless its controller "
             "pays {2}.", "Return target creature card from your graveyard to your hand.",
             "Destroy target creature with flying.", "Each opponent loses 2 life and you gain 2 life.")
TYPES = (("Creature", 45), ("Instant", 12), ("Sorcery", 12), ("Enchantment", 10), ("Artifact", 8),
         ("Land", 6), ("Planeswalker", 2), ("Plane", 1), ("Phenomenon", 1))
OTHER_LANGUAGES = ("German", "Spanish", "Italian", "Japanese", "Portuguese (Brazil)")


def _sentence(rnd: random.Random, name: str) -> str:
    return rnd.choice(SENTENCES).replace("{name}", name)


def _english_name(rnd: random.Random) -> str:
    pattern = rnd.random()
    if pattern < 0.25:
        return f"{rnd.choice(PROPER)} {rnd.choice(NOUNS)}"
    if pattern < 0.45:
        return f"{rnd.choice(ADJECTIVES)} {rnd.choice(NOUNS)}"
    if pattern < 0.6:
        return f"{rnd.choice(PROPER)}'s {rnd.choice(ADJECTIVES)} {rnd.choice(NOUNS)}"
    if pattern < 0.8:
        return f"{rnd.choice(NOUNS)} of {rnd.choice(PLACES)}"
    return f"{rnd.choice(PROPER)}, {rnd.choice(ADJECTIVES)} {rnd.choice(NOUNS)}"


def _french_name(rnd: random.Random) -> str:
    pattern = rnd.random()
    if pattern < 0.35:
        return f"{rnd.choice(NOMS)} de {rnd.choice(PROPER)}"
    if pattern < 0.6:
        return f"{rnd.choice(NOMS)} {rnd.choice(ADJECTIFS)}"
    if pattern < 0.85:
        return f"{rnd.choice(NOMS)} {rnd.choice(LIEUX)}"
    return f"{rnd.choice(PROPER)}, {rnd.choice(NOMS).lower()} {rnd.choice(ADJECTIFS)}"


def _face(rnd: random.Random, name: str, card_name: str, name_fr: str | None, **extra: object) -> dict[str, Any]:
    kind = rnd.choices([t for t, _ in TYPES], [w for _, w in TYPES])[0]
    colours = rnd.sample("WUBRG", rnd.choice((0, 1, 1, 1, 1, 2))) if kind not in ("Land", "Plane",
                                                                                  "Phenomenon") else []
    value = rnd.randint(0, 7) if kind not in ("Land", "Plane", "Phenomenon") else 0
    cost = ("{X}" if rnd.random() < 0.03 else "") + (f"{{{value - len(colours)}}}" if value > len(colours) else "") \
        + "".join(f"{{{c}}}" for c in colours)
    keywords = sorted(rnd.sample(KEYWORD_POOL, rnd.choice((0, 0, 1, 1, 2)))) if kind == "Creature" else []
    lines = [", ".join(k.lower() if i else k for i, k in enumerate(keywords))] if keywords else []
    lines += [_sentence(rnd, name) for _ in range(rnd.randint(1, 3))]
    face: dict[str, Any] = {"colorIdentity": colours, "colors": colours, "convertedManaCost": float(value),
            "edhrecRank": rnd.randint(1, 30000) if rnd.random() < 0.8 else None, "edhrecSaltiness": 0.3,
            "firstPrinting": "SYN", "foreignData": [], "identifiers": {"scryfallOracleId": f"{rnd.getrandbits(128):032x}"},
            "isReserved": False, "layout": "planar" if kind in ("Plane", "Phenomenon") else "normal",
            "legalities": {f: rnd.choice(("Legal", "Banned", "Restricted")) for f in
                           ("commander", "duel", "legacy", "modern", "oathbreaker", "pauper", "penny", "vintage")},
            "manaCost": cost, "manaValue": float(value), "name": card_name, "printings": ["SYN", "SY2", "SY3"],
            "purchaseUrls": {shop: f"https://example.invalid/{rnd.getrandbits(64):016x}" for shop in
                             ("cardKingdom", "cardmarket", "tcgplayer")},
            "rulings": [{"date": "2020-01-01", "text": _sentence(rnd, name)}
                        for _ in range(rnd.randint(0, 3))],
            "subtypes": [rnd.choice(NOUNS)] if kind == "Creature" else [], "supertypes": [],
            "text": "\n".join(lines), "type": kind + (f" — {rnd.choice(NOUNS)}" if kind == "Creature" else ""),
            "types": [kind], **extra}
    if face["edhrecRank"] is None:
        del face["edhrecRank"]
    if keywords:
        face["keywords"] = keywords
    if kind == "Creature":
        face["power"], face["toughness"] = rnd.choice(("1", "2", "3", "4", "5", "*")), str(rnd.randint(1, 6))
    if kind == "Planeswalker":
        face["loyalty"] = str(rnd.randint(2, 6))
    for language in OTHER_LANGUAGES:
        face["foreignData"].append({"faceName": None, "flavorText": _sentence(rnd, "it"),
                                    "identifiers": {"multiverseId": str(rnd.randint(1, 999999)),
                                                    "scryfallId": f"{rnd.getrandbits(128):032x}"},
                                    "language": language, "name": f"{name} ({language[:2]})",
                                    "text": face["text"], "type": face["type"]})
    if name_fr:
        face["foreignData"].append({"identifiers": {"multiverseId": str(rnd.randint(1, 999999))},
                                    "language": "French", "name": name_fr, "text": face["text"],
                                    "type": face["type"]})
    return face


def atomic_cards(count: int, seed: int = 2026) -> dict[str, Any]:
    """An AtomicCards document with `count` distinct cards (3 % of them double-faced, 70 % with a
    French name)."""
    rnd = random.Random(seed)
    data: dict[str, list[dict[str, Any]]] = {}
    used_fr: set[str] = set()

    def unique(make: Callable[[random.Random], str], used: set[str]) -> str:
        for _ in range(50):
            name = make(rnd)
            if name not in used:
                used.add(name)
                return name
        n = 2
        while f"{name} {n}" in used:
            n += 1
        used.add(f"{name} {n}")
        return f"{name} {n}"

    used_en: set[str] = set()
    while len(data) < count:
        front = unique(_english_name, used_en)
        fr = unique(_french_name, used_fr) if rnd.random() < 0.7 else None
        if rnd.random() < 0.03:
            back = unique(_english_name, used_en)
            back_fr = unique(_french_name, used_fr) if fr else None
            card_name = f"{front} // {back}"
            data[card_name] = [_face(rnd, front, card_name, fr, faceName=front, side="a"),
                               _face(rnd, back, card_name, back_fr, faceName=back, side="b")]
        else:
            data[front] = [_face(rnd, front, front, fr)]
    return {"meta": {"date": "2026-11-30", "version": "synthetic"}, "data": data}


def write_atomic_cards(path: Path, count: int, seed: int = 2026) -> Path:
    """Write a generated AtomicCards file (minified, like the real one) and return its path."""
    with open(path, "w", encoding="utf-8") as out:
        json.dump(atomic_cards(count, seed), out, ensure_ascii=False, separators=(",", ":"))
    return path


def typed_queries(document: dict[str, Any], count: int, seed: int = 7) -> list[tuple[str, str]]:
    """(query, intended name) pairs as a table types them: prefixes of 2–12 letters of English and
    French names, a third of them with one typo and a sixth with two (letter dropped, doubled,
    swapped with its neighbour, or replaced)."""
    rnd = random.Random(seed)
    names = []
    for faces in document["data"].values():
        for face in faces:
            names.append(face.get("faceName") or face["name"])
            names += [f["name"] for f in face["foreignData"] if f["language"] == "French"]
    queries = []
    for _ in range(count):
        name = rnd.choice(names)
        typed = name[:rnd.randint(2, min(12, len(name)))]
        typos = rnd.choices((0, 1, 2), (3, 2, 1))[0] if len(typed) >= 4 else 0
        if typos == 2 and len(typed) < 7:
            typos = 1
        for _ in range(typos):
            i = rnd.randrange(1, len(typed))
            edit = rnd.choice(("drop", "double", "swap", "replace"))
            if edit == "drop":
                typed = typed[:i] + typed[i + 1:]
            elif edit == "double":
                typed = typed[:i] + typed[i] + typed[i:]
            elif edit == "swap" and i + 1 < len(typed):
                typed = typed[:i] + typed[i + 1] + typed[i] + typed[i + 2:]
            else:
                typed = typed[:i] + rnd.choice("abcdefghijklmnopqrstuvwxyz") + typed[i + 1:]
        queries.append((typed, name))
    return queries
