"""The chat panel shows lines in the room's order (by id), whatever order they arrive in."""

from __future__ import annotations

from tests.browser.conftest import NewPlayer

SHOW_LINES = """async (lines) => {
  const { Chat } = await import("/static/js/chat.js");
  const chat = new Chat({ myId: () => 1, mySeat: () => null, room: null }, () => true);
  document.body.append(chat.el);
  for (const [id, text] of lines) {
    chat.add({ type: "chat", id, from: { id: 2, name: "Ben" }, text, team: null, at: 1700000000000 });
  }
  return [...chat.list.querySelectorAll(".chat-text")].map((el) => el.textContent);
}"""


async def test_chat_lines_are_shown_in_id_order(new_player: NewPlayer) -> None:
    """Two server processes can deliver lines posted at the same moment in either order; every client
    shows them in id order, so everyone reads the same conversation. A line replayed on reconnect (same
    id, even with the same text and time as another) shows once."""
    page = await new_player("Ann")
    await page.goto("/")
    shown = await page.evaluate(SHOW_LINES, [[3, "third"], [1, "first"], [2, "second"], [1, "first"], [4, "first"]])
    assert shown == ["first", "second", "third", "first"]
