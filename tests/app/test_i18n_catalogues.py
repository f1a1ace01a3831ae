"""Every user-visible string has a French translation, in one catalogue per language.

The catalogues are read straight from the sources (no browser, no server):
- the site's static/i18n/<lang>/*.json and each game's static/games/<game>/i18n/<lang>.json, merged by
  app/i18n.py: what the templates and the scripts both read (no script keeps a table of its own: a test
  fails on one);
- the titles, hints and choices of every game option ("opt.<game>.<field>"), checked against the options
  schema each engine publishes;
- the rules pages (each game's static/games/<game>/rules/en.html needs a fr.html).

The games are the registry's: a game added there is checked here with no change to this file.

A French string identical to the English one fails unless it has no letters outside its {placeholders}
(e.g. "{n}/9") or it is in SAME_IN_BOTH (site words) or its game's i18n/same-in-both.json (proper names and
words that French shares)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app import game_folders, i18n
from app.routers.games import game_catalogue
from app.routers.pages import TEMPLATES as APP_TEMPLATES

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
SCRIPT_FOLDERS = (STATIC / "js", game_folders.FOLDERS)
TEMPLATES = ROOT / "templates"

# Identical in English and French on purpose: names, and words French uses as they are (a game's own are
# listed in its folder, see same_in_both()).
SAME_IN_BOTH = {
    "app.name",  # Threefold
    "conn.retry_in",  # "({s} s)"
    "room.options",  # Options
    "room.standings_points",  # Points
    "room.points",  # "{n} pts"
    "room.point",  # "{n} pt"
    "room.score",  # Score
}

# A script's own string table: a second catalogue beside the catalogues, which is what this module forbids.
_SCRIPT_TABLE = re.compile(r"addStrings\(|\n(?:export )?const (?:EN|FR|en|fr) = \{")


def catalogues() -> tuple[dict[str, str], dict[str, str]]:
    """(English, French): every string a page or a script shows."""
    en, fr = (dict(i18n.catalogue(lang)) for lang in ("en", "fr"))
    return en, fr


def same_in_both() -> set[str]:
    """SAME_IN_BOTH and each game's i18n/same-in-both.json (a list of keys)."""
    keys = set(SAME_IN_BOTH)
    for game in game_folders.names():
        listed = game_folders.folder(game) / "i18n" / "same-in-both.json"
        if listed.is_file():
            keys |= set(json.loads(listed.read_text()))
    return keys


def scripts() -> list[Path]:
    """The browser's scripts: the site's and every game folder's."""
    return [path for folder in SCRIPT_FOLDERS for path in sorted(folder.rglob("*.js"))]


def _part(part: str, lang: str) -> dict[str, str]:
    """One part of a language's catalogue: a game's own file (in its folder) or, for "shell", the site's."""
    files = i18n.parts(lang)
    if part != "shell":
        return json.loads(files[part].read_text()) if part in files else {}
    games = set(game_folders.names())
    return {k: v for name, path in files.items() if name not in games for k, v in json.loads(path.read_text()).items()}


def _letters(text: str) -> str:
    return re.sub(r"[^A-Za-zÀ-ÿ]", "", re.sub(r"\{\w+\}", "", text))


_PLURAL = re.compile(r"\{(\w+), plural,((?:\s*[\w=]+\s*\{[^{}]*\})+)\s*\}")


def _holes(text: str) -> set[str]:
    """The placeholders of a text: ``{name}``, and the number of ``{n, plural, one {…} other {…}}`` (each
    language words its branches its own way)."""
    plurals = {m[0] for m in _PLURAL.findall(text)}
    return plurals | set(re.findall(r"\{(\w+)\}", _PLURAL.sub("", text)))


def _problems(en: dict[str, str], fr: dict[str, str], where: str) -> list[str]:
    problems = []
    same = same_in_both()
    for key, english in sorted(en.items()):
        if key not in fr:
            problems.append(f"{where}: {key!r} has no French ({english!r})")
            continue
        french = fr[key]
        if french.strip() == english.strip() and _letters(english) and key not in same:
            problems.append(f"{where}: {key!r} is not translated ({french!r})")
        holes_en, holes_fr = _holes(english), _holes(french)
        if holes_en != holes_fr:
            problems.append(f"{where}: {key!r} placeholders differ: {sorted(holes_en)} vs {sorted(holes_fr)}")
    return problems


# Renderers still being written by their own engineers: their French comes once they are finished.
PENDING: set[str] = set()


@pytest.mark.parametrize("part", ["shell", *game_folders.names()])
def test_french_catalogue_is_complete(part: str) -> None:
    en, fr = catalogues()
    assert len(en) > 400, "the parser found too few strings: has the catalogue format changed?"
    mine = _part(part, "en")
    assert mine, f"no strings found for {part}"
    problems = _problems(mine, fr, part)
    if part in PENDING and problems:
        pytest.xfail(f"{part}: French not written yet ({len(problems)} strings)")
    assert not problems, "\n".join(problems)


def test_both_languages_have_the_same_files_and_keys() -> None:
    """A key lives in the same file in both languages, so a translator finds it where the English is; every
    game of the registry has its texts in its folder."""
    parts = {lang: i18n.parts(lang) for lang in i18n.LANGUAGES}
    assert parts["en"], "no catalogue files"
    assert all(list(found) == list(parts["en"]) for found in parts.values()), parts
    missing = [str(game_folders.catalogue_file(g, "en")) for g in game_folders.names() if g not in parts["en"]]
    assert not missing, f"games without their texts: {missing}"
    for name in parts["en"]:
        tables = {lang: json.loads(parts[lang][name].read_text()) for lang in i18n.LANGUAGES}
        for lang, table in tables.items():
            assert all(isinstance(v, str) for v in table.values()), f"{lang}/{name}: a value is not text"
        english = set(tables["en"])
        for lang, table in tables.items():
            assert set(table) == english, f"{lang}/{name}: {sorted(set(table) ^ english)}"


def test_a_key_lives_in_one_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for lang in i18n.LANGUAGES:
        assert i18n.catalogue(lang)  # loads: no key is in two of its files
    (tmp_path / "xx").mkdir()
    (tmp_path / "xx" / "a.json").write_text('{"k": "one"}')
    (tmp_path / "xx" / "b.json").write_text('{"k": "two"}')
    monkeypatch.setattr(i18n, "FOLDER", tmp_path)
    with pytest.raises(i18n.DuplicateKey, match=r"a\.json and \S*b\.json"):
        i18n._catalogue.__wrapped__("xx", ())


def test_no_script_keeps_a_string_table_of_its_own() -> None:
    """Every string lives in the catalogues; a table in a script would be a second catalogue."""
    tables = [str(path.relative_to(STATIC)) for path in scripts() if _SCRIPT_TABLE.search(path.read_text())]
    assert not tables, f"string tables in scripts (move them to the catalogues): {tables}"


def test_every_game_option_has_text_in_both_languages() -> None:
    """French titles, hints and choices; the English ones are the schema's own (and name the choices the
    schema leaves bare), so a changed English text shows here, with its French to revisit."""
    en, fr = catalogues()
    problems = []
    for game in game_catalogue():
        schema = game.options_schema
        for field, prop in (schema.get("properties") or {}).items():
            base = f"opt.{game.name}.{field}"
            texts = {base: prop.get("title")}
            if prop.get("description"):
                texts[f"{base}.hint"] = prop["description"]
            for key, english in texts.items():
                if en.get(key) != english:
                    problems.append(f"{key}: English {en.get(key)!r}, the schema says {english!r}")
            for value in prop.get("enum") or []:
                if isinstance(value, str):
                    texts[f"{base}.{value}"] = value
            problems += [f"{key}: no French for {english!r}" for key, english in texts.items() if key not in fr]
            problems += [f"{key}: no English name for a choice" for key in texts if key not in en]
    assert not problems, "\n".join(problems)


def rules_pages() -> list[Path]:
    return [path for game in game_folders.names() for path in sorted(game_folders.folder(game).glob("rules/*.html"))]


@pytest.mark.parametrize("game", game_folders.names())
def test_every_rules_page_has_a_french_version(game: str) -> None:
    rules = game_folders.folder(game) / "rules"
    assert (rules / "en.html").is_file(), f"{rules}/en.html is missing"
    assert (rules / "fr.html").is_file(), f"{rules}/fr.html is missing"
    assert (rules / "fr.html").read_text() != (rules / "en.html").read_text()


_T_CALL = re.compile(r"""(?<![\w.])(?:t|tr)\(\s*"([a-z][\w-]*(?:\.[\w-]+)+)"[,)]""")
_TEMPLATE_CALL = re.compile(r"""i18n\.t\(\s*['"]([a-z][\w-]*(?:\.[\w-]+)+)['"]""")


def test_every_key_the_code_asks_for_exists() -> None:
    """A t("key") with no English entry would show the raw key to players."""
    en, _ = catalogues()
    missing = []
    for path in scripts():
        game = path.parent.name if path.parent.parent == game_folders.FOLDERS else path.stem
        for key in _T_CALL.findall(path.read_text()):
            if key not in en and f"{game}.{key}" not in en:
                missing.append(f"{path.relative_to(ROOT)}: {key}")
    for path in [*sorted(TEMPLATES.rglob("*.html")), *rules_pages()]:
        for key in _TEMPLATE_CALL.findall(path.read_text()):
            if key not in i18n.catalogue("en"):
                missing.append(f"{path.relative_to(ROOT)}: {key}")
    assert not missing, "\n".join(missing)


class _Request:
    def __init__(self, cookies: dict[str, str], headers: dict[str, str]) -> None:
        self.cookies = cookies
        self.headers = headers


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_templates_pick_the_language(lang: str) -> None:
    """The cookie wins; without it, the browser's Accept-Language; else English."""
    template = APP_TEMPLATES.env.get_template("_i18n.html")  # the app's own: its globals included
    other = "fr" if lang == "en" else "en"
    by_cookie = template.make_module({"request": _Request({"tf_lang": lang}, {"accept-language": other})})
    assert by_cookie.lang == lang  # type: ignore[attr-defined]
    by_header = template.make_module({"request": _Request({}, {"accept-language": f"{lang}-CA,{other};q=0.5"})})
    assert by_header.lang == lang  # type: ignore[attr-defined]
    assert template.make_module({"request": _Request({}, {"accept-language": "de-DE"})}).lang == "en"  # type: ignore[attr-defined]
    assert template.make_module({"request": None}).lang == "en"  # type: ignore[attr-defined]


def test_templates_phrase_from_the_catalogue() -> None:
    """French typography applies to the catalogue's text, not to the values put in it; numbers follow the
    language."""
    french = APP_TEMPLATES.env.get_template("_i18n.html").make_module({"request": _Request({"tf_lang": "fr"}, {})})
    assert str(french.t("me.saved", name="Ada !")) == "Nom enregistré. Bonjour, Ada !\u202f!"  # type: ignore[attr-defined]
    assert str(french.num(1234.5, 1)) == "1\u202f234,5"  # type: ignore[attr-defined]
    assert i18n.t("en", "home.seats", min=2, max=4) == "2–4 players"
    assert i18n.t("fr", "no.such.key") == "no.such.key"
    assert french.catalogue_url == i18n.catalogue_url("fr")  # type: ignore[attr-defined]
