"""The repository stands alone: no file points at material that a clone does not have."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The development workplace keeps its own notes beside the checkout (rulings, performance notes, the original
# rule texts); a clone has none of them, so the project's own docs must say what the code follows.
OUTSIDE = re.compile(r"\.\./shared|/work/shared|RULINGS(\.md)?\b|PERFORMANCE\.md|DESIGN\.md|\bseeds/")


def tracked_text_files() -> list[Path]:
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return [ROOT / name for name in names.splitlines() if (ROOT / name).is_file()]


# The tracker is not in the repository either: "issue 21", "issues 21 and 22", "(#21)", "fixes #21". Not a
# colour's "#212121" (six or eight digits, or anywhere in a stylesheet or an image), an HTML entity's "&#21;",
# nor "issue" as a word.
ISSUE_NUMBER = re.compile(
    r"\bissues?\s+#?\d+"
    r"|\b(?:PR|pull request|ticket|bug|fix(?:es|ed)?|close[sd]?|resolve[sd]?|see)\s+#\d+",
    re.IGNORECASE,
)
ISSUE_IN_PARENTHESES = re.compile(r"\(#(?!\d{6}\)|\d{8}\))\d+(?:,\s*#\d+)*\)")
COLOURED = {".css", ".svg"}

# A commit is cited by its hash after a word that names one ("at 28bd5a6", "commit 9a642dd", "before
# e87d734", "git show 0de26af:..."), in backticks, or anywhere in Markdown prose and tables. A hash here has
# a digit and a letter (not a number, not a word) and is a whole token, so neither the 64 digits of a sha256
# (test fixtures, lock files) nor a UUID's groups nor a "#1a2b3c4" colour can match.
HEX = r"(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}"
HASH = rf"(?<![\w#/.:-]){HEX}(?![\w-])"
NAMES_A_COMMIT = (
    r"\b(?:commits?|at|before|after|since|from|to|and|in|of|until|reverts?|reverted|merged?|fixed|"
    r"git (?:show|log|diff|checkout|revert|cherry-pick))\s+(?:commit\s+)?\(?"
)
CITED_COMMIT = re.compile(
    rf"{NAMES_A_COMMIT}(?P<named>{HASH})|`(?P<quoted>{HASH})[`:^]"
    rf"|\b(?P<since>{HEX})\.\.\.?(?P<until>{HEX})\b"
)
ANY_HASH = re.compile(HASH)


def tracked_lines() -> Iterator[tuple[Path, int, str]]:
    """Every line of every tracked text file but this one, whose patterns would match themselves."""
    for path in tracked_text_files():
        if path == Path(__file__).resolve():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images, fonts
        for number, line in enumerate(text.splitlines(), 1):
            yield path, number, line


def where(path: Path, number: int, line: str) -> str:
    return f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}"


def cited_commits(path: Path, line: str) -> list[str]:
    if path.suffix == ".md":
        return ANY_HASH.findall(line)
    return [name for m in CITED_COMMIT.finditer(line) for name in m.groups() if name]


def is_commit(name: str) -> bool:
    found = subprocess.run(["git", "cat-file", "-e", f"{name}^{{commit}}"], cwd=ROOT, capture_output=True)
    return found.returncode == 0


def test_no_file_refers_outside_the_repository() -> None:
    offenders = [where(*found) for found in tracked_lines() if OUTSIDE.search(found[2])]
    assert not offenders, "files point outside the repository:\n" + "\n".join(offenders)


def test_no_file_refers_to_an_issue_number() -> None:
    offenders = [
        where(path, number, line)
        for path, number, line in tracked_lines()
        if ISSUE_NUMBER.search(line) or (path.suffix not in COLOURED and ISSUE_IN_PARENTHESES.search(line))
    ]
    assert not offenders, "files cite the tracker, which a clone does not have:\n" + "\n".join(offenders)


def test_every_cited_commit_is_in_the_repository() -> None:
    shallow = subprocess.run(
        ["git", "rev-parse", "--is-shallow-repository"], cwd=ROOT, check=True, capture_output=True, text=True
    )
    if shallow.stdout.strip() == "true":
        pytest.skip("a shallow clone lacks older commits")
    known: dict[str, bool] = {}
    offenders = []
    for path, number, line in tracked_lines():
        for name in cited_commits(path, line):
            if not known.setdefault(name, is_commit(name)):
                offenders.append(f"{name} in {where(path, number, line)}")
    assert not offenders, "files cite commits that are not in the repository:\n" + "\n".join(offenders)


def test_every_served_game_has_its_rules_page() -> None:
    from engines.registry import GAMES

    for game in GAMES:
        name = game.name
        page = ROOT / "docs" / "games" / f"{name}.md"
        assert page.is_file(), f"{name} has no rules page at {page.relative_to(ROOT)}"
