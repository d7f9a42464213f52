"""What the cards say: a level's intro, pause, help, the end of a level and the finish.

Plain text only (no arcade): `shoal.game.cards` draws them.
"""

from collections.abc import Sequence

from shoal.game.cards import Card
from shoal.game.help_text import KEYS  # with `shoal --help`'s: one list of the keys
from shoal.game.records import Result
from shoal.game.tank import Tank

START_HINT = "Press a key or click to start"


def goal_text(tank: Tank) -> str:
    """The level's goal in one sentence."""
    goal = tank.goal
    if tank.free:
        return "Free swim: no goal and no end. Watch the school; P opens the tuning panel."
    wanted = []
    if goal.fish_home:
        wanted.append(f"bring {goal.fish_home} of your {tank.fish} fish home (the ring)")
    if goal.food_to_eat:
        wanted.append(f"let the school eat {goal.food_to_eat} food")
    text = "Goal: " + " and ".join(wanted)
    if goal.min_fish > goal.fish_home:
        text += f", keeping at least {goal.min_fish} fish alive"
    if goal.time_limit:
        text += f", within {goal.time_limit:.0f} seconds"
    return text + "."


def food_text(tank: Tank) -> str:
    """What the player's food is for, and how much there is."""
    if tank.drops_left is None:
        return "Lead the school with the mouse; click to drop food."
    if tank.drops_left == 0:
        return "Lead the school with the mouse; no food to drop here."
    plural = "s" if tank.drops_left > 1 else ""
    return (f"Lead the school with the mouse; click to drop food ({tank.drops_left} "
            f"pellet{plural}): a lure, fish leave the leader to eat.")  # fmt: skip


def intro(tank: Tank, best: int | None, best_try: int | None = None,
          resume: tuple[str, float] | None = None) -> Card:  # fmt: skip
    """The card that opens a level (it waits for a key or a click), with the best score
    kept for it, or its best try while it was never won; `resume`: the level (name) and
    seconds played of a level left mid-way, which C continues."""
    sharks = len(tank.level.sharks)
    lines = [goal_text(tank)]
    if sharks:
        lines.append(f"{sharks} shark{'s' if sharks > 1 else ''} hunt{'' if sharks > 1 else 's'}"
                     " here, the fish that stray first: keep your school together.")  # fmt: skip
    lines.append(food_text(tank))
    lines.append("Space pauses, H lists every key.")
    if best is not None:
        lines.append(f"Your best score here: {best}")
    elif best_try is not None:
        lines.append(f"Your best try here: {best_try} (not won yet)")
    if resume is not None:
        title, played = resume
        lines.append(f"C: continue where you left off ({title}, {played:.0f} s played)")
    return Card(tank.level.title, tuple(lines), START_HINT)


def preparing(title: str) -> Card:
    """A level whose kernels still compile (its first launch after an install): it starts
    on its own once they are ready, so that no frame waits for the compiler."""
    return Card(
        f"Preparing {title}",
        ("Its fish compile their moves: once, the first time this level is played.",),
        "It starts on its own once they are ready.",
        banner=True,
    )


def paused() -> Card:
    """The pause banner."""
    return Card("Paused", (), "Space: resume    Period: one step", banner=True)


def help_card() -> Card:
    """Every key."""
    return Card("Keys", KEYS, "H: close this help")


def level_end(tank: Tank, result: Result, last: bool) -> Card:
    """Won or lost: why, the score, and what to press next."""
    lines = [result.reason]
    if tank.status == "won":
        title = "Level complete!"
        score = f"Score {result.score}"
        if not result.practice and result.best == result.score:
            score += ": your best yet!"
        elif result.best is not None:
            score += f" (your best: {result.best})"
        lines.append(score)
    else:
        title = "Game over"
        if not result.practice and result.best is None and result.best_try is not None:
            better = "your best try yet!" if result.best_try == result.score else (
                f"your best try: {result.best_try}")  # fmt: skip
            lines.append(f"Score {result.score} ({better})")
    if result.practice:
        lines.append(f"Practice run ({result.practice}): not scored.")
    after = "N: see your results" if last else "N: next level"
    again = "R: play again" if tank.status == "won" else "R: try again"
    return Card(title, tuple(lines), f"{again}    {after}")


def finish(results: Sequence[Result]) -> Card:
    """After the last level: each level's result."""
    lines = [_result_line(result) for result in results] or ["No level was played."]
    won = sum(result.status == "won" and not result.practice for result in results)
    total = sum(result.score for result in results if not result.practice)
    lines.append(f"Levels won: {won} of {len(results)}.   Total score: {total}.")
    return Card("The end of the tank", tuple(lines), "R: play again from the first level    "
                "Esc: quit")  # fmt: skip


def _result_line(result: Result) -> str:
    if result.status == "skipped":
        return f"{result.level}: skipped."
    line = f"{result.level}: {result.status}, score {result.score}"
    if result.practice:
        line += " (practice)"
    elif result.best is not None:
        line += f", best {result.best}"
    elif result.best_try is not None:
        line += f", best try {result.best_try}"
    return line + "."
