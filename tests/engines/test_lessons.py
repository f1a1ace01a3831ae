"""Lessons are data the engine plays: every step's position is a real position of the game with the learner
to move, every asked move is legal there and does what the step says (its log keys), every scripted reply
is legal, and a learner's try is refused, missed or done exactly as the rules decide."""

from __future__ import annotations

from typing import Any

import pytest

from engines.lesson import MAX_STEPS, MIN_STEPS, InvalidLesson, Lesson, LessonRunner, Move, Step
from engines.registry import games, get_engine

LESSONS = [game for game in games() if game.lesson is not None]


@pytest.mark.parametrize("game", LESSONS, ids=lambda game: game.name)
def test_every_step_plays_as_its_data_says(game: Any) -> None:
    runner = LessonRunner(game.engine, game.lesson)
    assert MIN_STEPS <= len(game.lesson.steps) <= MAX_STEPS
    for index, step in enumerate(game.lesson.steps):
        position = runner.position(index)
        assert runner.seat(index) in position.to_act, f"{step.id}: the learner is not to move"
        for action in step.ask:
            attempt = runner.attempt(index, action)
            assert attempt.verdict == "done", (step.id, action, attempt.reason)
            assert len(attempt.played) == 1 + len(step.replies), f"{step.id}: a scripted reply was not played"
            keys = runner.log_keys(attempt)
            assert set(step.expect) <= set(keys), (step.id, step.expect, keys)


def _tri_tac_lesson(**changes: Any) -> Lesson:
    # Seed 2 of a 3×3 board: Player 1 moves first (view field ``first``), which the test checks below.
    step = Step(
        id="line",
        options={"size": 3},
        seed=2,
        moves=(
            Move(seat=0, action={"type": "place", "cell": [0, 0]}),
            Move(seat=1, action={"type": "place", "cell": [2, 0]}),
            Move(seat=0, action={"type": "place", "cell": [0, 1]}),
            Move(seat=1, action={"type": "place", "cell": [2, 1]}),
        ),
        ask=({"type": "place", "cell": [0, 2]},),
        replies=(Move(seat=1, action={"type": "place", "cell": [1, 1]}),),
        expect=("tri-tac.log.placed_scored",),
    )
    return Lesson(game="tri-tac", steps=(step.model_copy(update=changes),) * 3)


def test_a_try_is_refused_missed_or_done() -> None:
    runner = LessonRunner(get_engine("tri-tac"), _tri_tac_lesson())
    assert runner.position(0).state.first == 0
    refused = runner.attempt(0, {"type": "place", "cell": [0, 0]})
    assert refused.verdict == "refused" and refused.reason is not None
    assert refused.reason["key"] == "tri-tac.error.cell_taken" and not refused.played
    malformed = runner.attempt(0, {"type": "place", "cell": "a1"})
    assert malformed.verdict == "refused" and malformed.reason == {"key": "tri-tac.error.bad_cell", "params": {}}
    missed = runner.attempt(0, {"type": "place", "cell": [1, 0]})
    assert missed.verdict == "missed" and len(missed.played) == 2  # the reply still plays after a miss
    done = runner.attempt(0, {"type": "place", "cell": [0, 2]})
    assert done.verdict == "done" and [seat for seat, *_ in done.played] == [0, 1]
    assert "tri-tac.log.placed_scored" in runner.log_keys(done)
    # Every try starts again from the step's position: nothing carried over.
    assert runner.attempt(0, {"type": "place", "cell": [0, 2]}).played[0][2] == done.played[0][2]


def test_a_set_up_that_breaks_the_rules_is_an_invalid_lesson() -> None:
    broken = _tri_tac_lesson(moves=(Move(seat=1, action={"type": "place", "cell": [0, 0]}),) * 2)
    with pytest.raises(InvalidLesson, match="cannot be set up"):
        LessonRunner(get_engine("tri-tac"), broken).position(0)
    patched = _tri_tac_lesson(patch={"board": "no board"})
    with pytest.raises(InvalidLesson, match="cannot be set up"):
        LessonRunner(get_engine("tri-tac"), patched).position(0)
    with pytest.raises(InvalidLesson, match="no step 4"):
        LessonRunner(get_engine("tri-tac"), _tri_tac_lesson()).position(3)
    with pytest.raises(InvalidLesson, match="not 'tri-tac'"):
        LessonRunner(get_engine("tri-tac"), _tri_tac_lesson().model_copy(update={"game": "tic-tac-top"}))


def test_a_miss_plays_the_punishing_reply_when_the_step_has_one() -> None:
    punish = (Move(seat=1, action={"type": "place", "cell": [0, 2]}),)
    runner = LessonRunner(get_engine("tri-tac"), _tri_tac_lesson(punish=punish))
    missed = runner.attempt(0, {"type": "place", "cell": [1, 0]})
    assert missed.verdict == "missed" and [seat for seat, *_ in missed.played] == [0, 1]
    assert missed.played[1][1] == get_engine("tri-tac").parse_action(punish[0].action)
    done = runner.attempt(0, {"type": "place", "cell": [0, 2]})
    assert done.played[1][1] == get_engine("tri-tac").parse_action({"type": "place", "cell": [1, 1]})


def test_log_keys_include_the_entries_a_reason_lists() -> None:
    # Seed 2: Player 2 leads the first trick and the automa plays right after, giving its reason as entries.
    engine = get_engine("tricky-tactics")
    state = engine.new_game(engine.parse_options({"mode": "automa"}), 2)
    assert engine.to_act(state) == {1}
    step = Step(id="lead", seat=1, ask=(engine.legal_actions(state, 1)[0].to_json(),))
    runner = LessonRunner(engine, Lesson(game="tricky-tactics", options={"mode": "automa"}, seed=2, steps=(step,) * 3))
    keys = runner.log_keys(runner.attempt(0, step.ask[0]))
    played = keys.index("tricky-tactics.log.automa_played")
    assert keys[played + 1].startswith("tricky-tactics.reason."), keys
