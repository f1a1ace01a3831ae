"""Finished games replay step by step from any seat's point of view, export to JSON and import again to the
identical result."""

from __future__ import annotations

from app.client import ThreefoldClient
from app.replay import replay
from tests.support.server import ServerProcess


async def test_replay_matches_what_a_seat_was_sent_and_export_round_trips(sqlite_server: ServerProcess) -> None:
    async with ThreefoldClient(sqlite_server.url) as ann:
        await ann.set_name("Ann")
        code = await ann.create_room("trick-tac-foe", {"players": 2, "one_shot": True}, seed=17)
        async with ann.connect(code) as sock:
            await sock.next(lambda m: m["type"] == "room")
            await sock.start_against_a_bot()
            live_views: dict[int, dict] = {}
            state = await sock.wait_state()
            while True:
                live_views[state["version"]] = state["view"]
                if state["outcome"] is not None:
                    break
                if 0 in state["to_act"]:
                    view = state["view"]
                    if view["phase"] == "wild":
                        action = {"type": "wild", "number": 5}
                    else:
                        action = {"type": "commit", "card": view["hand"][0]}
                    await sock.act(action, version=state["version"])
                v = state["version"]
                state = await sock.wait_state(lambda s, v=v: s["version"] > v, timeout=15)
        games = (await ann.http.get(f"/api/history/rooms/{code}")).json()
        assert len(games) == 1 and games[0]["status"] == "finished"
        game_id = games[0]["id"]

        # Every step Ann was sent live is exactly what the replay shows from her seat.
        steps = (await ann.http.get(f"/api/history/{game_id}/replay", params={"seat": 0})).json()["steps"]
        assert steps == max(live_views)
        for version, live in live_views.items():
            replayed = (
                await ann.http.get(f"/api/history/{game_id}/replay", params={"seat": 0, "step": version})
            ).json()
            assert replayed["view"] == live, f"step {version}"
        everything = (await ann.http.get(f"/api/history/{game_id}/replay", params={"step": 3, "reveal": True})).json()
        assert "full" in everything["view"]

        # Export → import → identical final state.
        export = (await ann.http.get(f"/api/history/{game_id}/export")).json()
        assert export["seed"] == 17 and export["engine"] == "trick-tac-foe"
        imported = (await ann.http.post("/api/history/import", json=export)).json()
        local = replay(export["engine"], export["options"], export["seed"], export["actions"])
        assert imported["fingerprint"] == local.fingerprint()
        assert imported["outcome"] == export["result"]
        assert imported["steps"] == steps
        # A tampered export does not replay.
        export["actions"][0]["action"] = {"type": "commit", "card": "99Z"}
        bad = await ann.http.post("/api/history/import", json=export)
        assert bad.status_code == 422 and "action 1" in bad.json()["detail"]
        # ... and says which move and why as data, for the page to word.
        refusal = bad.json()
        assert (refusal["code"], refusal["step"]) == ("import_refused", 1)
        assert refusal["reason"] == {"key": "trick-tac-foe.error.bad_card", "params": {}}
        # The log and the result come as entries, never sentences.
        assert imported["outcome"]["summary"]["key"].startswith("trick-tac-foe.result.")
        assert all(set(entry) <= {"v", "key", "params", "actor"} for entry in imported["log"])


async def test_games_in_progress_are_not_exported(sqlite_server: ServerProcess) -> None:
    async with ThreefoldClient(sqlite_server.url) as ann:
        await ann.set_name("Ann")
        code = await ann.create_room("tri-tac", {"size": 5}, seed=3)
        async with ann.connect(code) as sock:
            await sock.next(lambda m: m["type"] == "room")
            await sock.start_against_a_bot()
            await sock.wait_state()
            games = (await ann.http.get(f"/api/history/rooms/{code}")).json()
            assert games[0]["status"] == "playing"
            # The seed of a running game would reveal every hidden card: no export, no replay.
            assert (await ann.http.get(f"/api/history/{games[0]['id']}/export")).status_code == 404
            assert (await ann.http.get(f"/api/history/{games[0]['id']}/replay")).status_code == 404
