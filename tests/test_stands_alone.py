"""The repository stands alone: no file points at material that a clone does not have."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The development workplace keeps its own notes beside the checkout (rulings, performance notes, the original
# rule texts); a clone has none of them, so the project's own docs must say what the code follows.
OUTSIDE = re.compile(r"\.\./shared|/work/shared|RULINGS(\.md)?\b|PERFORMANCE\.md|DESIGN\.md|\bseeds/")


def tracked_text_files() -> list[Path]:
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return [ROOT / name for name in names.splitlines() if (ROOT / name).is_file()]


def test_no_file_refers_outside_the_repository() -> None:
    offenders = []
    for path in tracked_text_files():
        if path == Path(__file__).resolve():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images, fonts
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not offenders, "files point outside the repository:\n" + "\n".join(offenders)


def test_every_served_game_has_its_rules_page() -> None:
    from engines.registry import GAMES

    for game in GAMES:
        name = game.name
        page = ROOT / "docs" / "games" / f"{name}.md"
        assert page.is_file(), f"{name} has no rules page at {page.relative_to(ROOT)}"
