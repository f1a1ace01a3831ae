"""Tic Tac Top at a full table, every phase on one screen: three and seven players, every grid FULL of long
words, long names. Two seated pages (the first turn's Leader and a writer) are measured at two laptop and two
phone sizes and the host's TV at 1280x720 and 1920x1080, in every phase: the theme, the writing, the ranking,
the reveal, the scoring and standings, the result. Nothing scrolls (page, board column or any box inside it),
nothing is cut or spills (no word clamped in its cell, no name ellipsised or broken mid-word, no panel's rows
over the next), the TV's grid words are at least the TV's text size and a seat's at least 11 px.

One game per table size, its seats played through their own sockets (no bot: a bot's grid may be half empty);
the pages are resized through the sizes at each phase. THREEFOLD_FIT_SHOTS=<dir> keeps a screenshot of each."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any, ClassVar

import pytest
from playwright.async_api import Page, expect

from app.client import ClientError, RoomSocket, ThreefoldClient
from tests.browser.conftest import NewPlayer
from tests.browser.tables import token_of
from tests.browser.test_one_screen import TV_VIEWPORTS, VIEWPORTS, assert_one_screen, settled
from tests.support.server import ServerProcess, migrate

# The longest words of the decks' kind: single words that cannot wrap and three-word phrases.
LONG_WORDS = [
    "Rollercoaster",
    "Sticky toffee pudding",
    "Announcements",
    "Electric toothbrush",
    "Weightlifting",
    "Noughts and crosses",
    "Straighteners",
    "Pedestrian crossing",
    "Photographer",
    "Strawberry milkshake",
    "Combine harvester",
    "Receptionist",
]
THEME_NAMES = [
    "Things you find under the sofa",
    "Things you pack for a holiday",
    "Things you eat with your hands",
    "Things you do in the morning",
    "Things you wear on your head",
    "Things at a village fete",
    "Things in a busy high street",
]
# Long names, as a party's players type them (24 characters at most).
NAMES = ["Alexandrina", "Maximilian", "Bartholomew", "Evangeline", "Christopher", "Anastasia", "Guinevere"]
RANKED = [0, 2, 4, 6, 8, 10, 1]  # the Leader's ranking, in card order
SHOTS = os.environ.get("THREEFOLD_FIT_SHOTS")
READABLE = 11  # px: the smallest word a seated player's grids may show


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module; each seat's socket plays a whole game in seconds, faster than a person's
    message rate allows."""
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('ttt-fit') / 'threefold.db'}"
    migrate(url)
    proc = ServerProcess(url, extra_env={"THREEFOLD_MESSAGES_PER_SECOND": "500", "THREEFOLD_MESSAGE_BURST": "500"})
    yield proc.start()
    proc.stop()


def options(players: int) -> dict[str, Any]:
    themes = [
        {"name": f"{THEME_NAMES[t % len(THEME_NAMES)]} {t // len(THEME_NAMES) + 1}", "words": LONG_WORDS}
        for t in range(2 * players)
    ]
    # The longest pauses: the test steps the show itself and measures between the steps.
    return {"players": players, "custom_themes": themes, "custom_only": True, "reveal_pause": 10, "score_pause": 60}


def grid_for(turn: int, seat: int) -> list[int]:
    """Nine of the twelve words, a different order at each seat (so that some grids make lines)."""
    order = list(range(12))
    shift = (turn + seat) % 12
    order = order[shift:] + order[:shift]
    return order[:9] if seat % 2 else list(reversed(order[:9]))


# Everything of the table that is shown: a box that scrolls or cuts its content (a word clamped in its cell,
# a panel's rows), a name or word ellipsised, a box off the window; and the size of the grids' words.
CUT = """() => {
  const problems = [];
  const name = (el) => el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`;
  const say = (el, what) => problems.push(`${name(el)} "${(el.textContent || "").trim().slice(0, 40)}" ${what}`);
  const box = (r) => `${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`;
  const shown = (el) => el.getClientRects().length && getComputedStyle(el).visibility !== "hidden"
    && !el.closest(".visually-hidden, [hidden], .side-col, details:not([open]) > :not(summary)");
  // The players strip scrolls sideways on a phone at every game's table (app.css): it is measured on laptops.
  const roots = [...document.querySelectorAll(innerWidth < 700 ? ".board-col" : ".board-col, #players")];
  const offWindow = new Set();
  for (const el of roots.flatMap((root) => [root, ...root.querySelectorAll("*")])) {
    if (el instanceof SVGElement || !shown(el)) continue;
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    if (cs.display === "contents" || r.width < 2 || r.height < 2) continue;
    const [w, h, cw, ch] = [el.scrollWidth, el.scrollHeight, el.clientWidth, el.clientHeight];
    const clips = cs.overflowX !== "visible" || cs.overflowY !== "visible";
    // a box that clips its content, or one of the table's panels whose content spills over what follows
    const spills = el.matches(".ttt-panel, .ttt-gridcard, .ttt-announce, .ttt-head, .ttt-cell");
    if ((clips || spills) && (h > ch + 1 || w > cw + 1)) say(el, `holds ${w}x${h} px in ${cw}x${ch}`);
    if (cs.textOverflow === "ellipsis" && w > cw + 1) say(el, "is cut to an ellipsis");
    if (el.matches(".ttt-seat-name, .player-name-text") && !/\\s/.test(el.textContent.trim())) {
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set([...range.getClientRects()].map((line) => Math.round(line.top)));
      if (lines.size > 1) say(el, "is broken over two lines");
    }
    // off the window: said of the outermost box only
    if (r.bottom > innerHeight + 1 || r.right > innerWidth + 1 || r.top < -1 || r.left < -1) {
      offWindow.add(el);
      let outer = el.parentElement;
      while (outer && getComputedStyle(outer).display === "contents") outer = outer.parentElement;
      if (!offWindow.has(outer)) say(el, `at ${box(r)} is off the ${innerWidth}x${innerHeight} window`);
    }
  }
  const words = [...document.querySelectorAll("#board .ttt-grid .ttt-word")].filter(shown);
  const sizes = words.map((w) => parseFloat(getComputedStyle(w).fontSize));
  // the page's text size: TV mode scales the root's with the screen (app.css html.tv-mode)
  const text = [document.documentElement, document.body].map((e) => parseFloat(getComputedStyle(e).fontSize));
  return {problems: [...new Set(problems)], smallestWord: sizes.length ? Math.min(...sizes) : null,
          body: Math.max(...text)};
}"""


class Table:
    """One game of Tic Tac Top: a socket per seat, the pages that watch it and the sizes each is measured at."""

    def __init__(self, players: int, socks: list[RoomSocket], pages: dict[str, tuple[Page, list[tuple[int, int]]]]):
        self.players = players
        self.socks = socks
        self.pages = pages
        self.problems: list[str] = []
        self.version = 0

    async def act(self, seat: int, action: dict[str, Any]) -> None:
        """Act as `seat` once its socket has seen every move so far (an act names the version it follows)."""
        sock = self.socks[seat]
        await sock.wait_state(lambda s: s["version"] >= self.version, timeout=20)
        self.version = int((await sock.act(action))["version"])

    async def view(self, seat: int, predicate: Any) -> dict[str, Any]:
        state = await self.socks[seat].wait_state(lambda s: predicate(s["view"]), timeout=20)
        view: dict[str, Any] = state["view"]
        return view

    # The engine's phase each measured phase is part of.
    phases: ClassVar[dict[str, str]] = {
        "theme": "choose",
        "writing": "write",
        "ranking": "write",
        "reveal": "reveal",
        "scoring": "score",
        "result": "over",
    }

    async def measure(self, phase: str, roles: tuple[str, ...] = ("tv", "leader", "writer")) -> None:
        """Each page at each of its sizes: one screen, nothing cut; the TV's words at least its body text."""
        problems = self.problems
        for role in roles:
            page, sizes = self.pages[role]
            for width, height in sizes:
                await page.set_viewport_size({"width": width, "height": height})
                where = f"{self.players} players, {phase}, {role} at {width}x{height}"
                shown = await page.locator("#board .ttt").get_attribute("data-phase")
                assert shown == self.phases[phase], f"{where}: the show moved on to {shown} while measuring"
                try:
                    parts = ["#result"] if phase == "result" else [".ttt-head", ".ttt-main"]
                    await assert_one_screen(page, where, ["#players", *parts])
                except AssertionError as failed:
                    problems.append(str(failed))
                await settled(page)
                found = await page.evaluate(CUT)
                problems += [f"{where}: {p}" for p in found["problems"]]
                # On the TV no grid's word under its body text; at a seat none under the readable floor.
                floor = found["body"] - 0.5 if role == "tv" else READABLE
                if found["smallestWord"] is not None and found["smallestWord"] < floor:
                    problems.append(f"{where}: grid words at {found['smallestWord']:.1f} px, under {floor:.1f} px")
                if SHOTS:
                    Path(SHOTS).mkdir(parents=True, exist_ok=True)
                    await page.screenshot(path=f"{SHOTS}/{self.players}p-{phase}-{role}-{width}x{height}.png")

    async def play_turn(self, turn: int, measure: bool) -> None:
        """Choose, write nine words in every grid, rank, reveal, score; measuring each phase if asked."""
        leader = turn - 1
        writer = (leader + 1) % self.players
        await self.view(leader, lambda v: v["turn"] == turn and v["phase"] == "choose")
        if measure:
            await self.await_pages("choose")
            await self.measure("theme")
        await self.act(leader, {"type": "choose_theme", "index": 0})
        words = (await self.view(leader, lambda v: v["phase"] == "write" and v["turn"] == turn))["theme"]["words"]
        for seat in range(self.players):
            if seat == leader:
                continue
            for cell, index in enumerate(grid_for(turn, seat)):
                await self.act(seat, {"type": "place", "cell": cell, "word": words[index]})
            if seat != writer or not measure:
                await self.act(seat, {"type": "done"})
        ranking = [words[i] for i in RANKED]
        if measure:
            seated = self.pages["writer"][0]
            await expect(seated.locator("#board .ttt-grid.is-editable .ttt-cell:not(.is-empty)")).to_have_count(9)
            await self.measure("writing")
            await self.act(writer, {"type": "done"})
            leading = self.pages["leader"][0]
            for word in ranking:
                await leading.locator("#board .ttt-chip", has_text=re.compile(f"^{re.escape(word)}")).click()
            await expect(leading.locator("#board .ttt-submit")).to_be_enabled()
            tv = self.pages["tv"][0]
            await expect(tv.locator("#board .ttt-writer.is-finished")).to_have_count(self.players - 1)
            await self.measure("ranking")
            await leading.locator("#board .ttt-submit").click()
        else:
            await self.act(leader, {"type": "rank", "words": ranking})
        await self.view(leader, lambda v: v["phase"] == "reveal")
        if measure:
            # A page a word, from the fourth word on (the lines come late): each word restarts the show's
            # own pace, so a page is measured before the show moves on by itself.
            for words, role in enumerate(("leader", "writer", "tv"), start=4):
                out = await self.step(leader, words)
                await self.await_pages("reveal", ".ttt-step.is-done", out)
                await self.measure("reveal", (role,))
        await self.step(leader, 7)
        await self.view(leader, lambda v: v["phase"] in ("score", "over"))
        if measure:
            await self.await_pages("score")
            await self.measure("scoring")
        if turn < self.players:
            await self.act(leader, {"type": "next"})

    async def step(self, leader: int, words: int) -> int:
        """The Leader announces words until `words` are out (the show's own pace may step in between): how
        many are."""
        sock = self.socks[leader]
        while True:
            state = await sock.wait_state(lambda s: s["version"] >= self.version)
            view = state["view"]
            if view["phase"] != "reveal" or len(view["announced"]) >= words:
                return len(view["announced"])
            try:
                await self.act(leader, {"type": "next"})
            except ClientError:  # a step of the show's own pace came first: look again once it is here
                await sock.wait_state(lambda s, seen=state["version"]: s["version"] > seen)

    async def await_pages(self, phase: str, done: str | None = None, count: int = 0) -> None:
        for page, _ in self.pages.values():
            screen = page.locator("#board .ttt")
            await expect(screen).to_have_attribute("data-phase", phase, timeout=20_000)
            if done:
                await expect(screen.locator(done)).to_have_count(count)


@pytest.mark.parametrize("players", [3, 7])
async def test_every_phase_fits_every_screen_with_full_grids(
    new_player: NewPlayer, sqlite_server: ServerProcess, players: int
) -> None:
    tv = await new_player("Host", viewport={"width": 1280, "height": 720})
    leader = await new_player(NAMES[0], viewport={"width": 1366, "height": 768})
    writer = await new_player(NAMES[1], viewport={"width": 1366, "height": 768})
    for page in (tv, leader, writer):
        await page.emulate_media(reduced_motion="reduce")
    async with AsyncExitStack() as stack:
        host = await stack.enter_async_context(ThreefoldClient(sqlite_server.url, token=await token_of(tv)))
        code = await host.create_room("tic-tac-top", options(players), seed=11)
        host_sock = await stack.enter_async_context(host.connect(code))
        await host_sock.next(lambda m: m["type"] == "room")
        await host_sock.request({"type": "stand"})
        socks = []
        for seat in range(players):
            token = await token_of(leader if seat == 0 else writer) if seat < 2 else None
            client = await stack.enter_async_context(ThreefoldClient(sqlite_server.url, token=token))
            if token is None:
                await client.set_name(NAMES[seat])
            sock = await stack.enter_async_context(client.connect(code))
            await sock.next(lambda m: m["type"] == "room")
            await sock.send({"type": "sit", "seat": seat})
            await sock.next(lambda m, seat=seat: m["type"] == "welcome" and m["you"]["seat"] == seat)
            socks.append(sock)
        await host_sock.wait_room(lambda r: all(s["player"] for s in r["seats"]))
        await tv.goto(f"/r/{code}?tv=1")
        await leader.goto(f"/r/{code}")
        await writer.goto(f"/r/{code}")
        await expect(tv.locator("#seat-list .seat-card")).to_have_count(players)
        await host_sock.send({"type": "start"})
        table = Table(
            players, socks, {"tv": (tv, TV_VIEWPORTS), "leader": (leader, VIEWPORTS), "writer": (writer, VIEWPORTS)}
        )
        for turn in range(1, players + 1):
            await table.play_turn(turn, measure=turn == 1)
        await table.view(0, lambda v: v["phase"] == "over")
        await table.await_pages("over")
        for page, _ in table.pages.values():
            await expect(page.locator("#result")).to_be_visible()
        await table.measure("result")
    assert not table.problems, "\n".join(table.problems)
