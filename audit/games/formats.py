"""What a game's format allows of the pool's game events: a rebuy or a split recorded in a
game whose format has none (000_: Re-Buy and Manual Split are "not available for Best of
2/3 Deal games and Point Rummy Games"), as the ruleset's ``games.rebuy_formats`` and
``games.split_formats`` say."""

from __future__ import annotations

from audit.findings import Finding, finding
from audit.records import Game, GameAction
from audit.rules.ruleset import Ruleset

REBUY = GameAction.REBUY
SPLIT = (GameAction.SPLIT_OFFER, GameAction.SPLIT_ACCEPT, GameAction.SPLIT_REJECT, GameAction.SPLIT)


def out_of_format(game: Game, rules: Ruleset) -> list[Finding]:
    """A rebuy or a split recorded in a game whose format has none (000_: 'not available
    for Best of 2/3 Deal games and Point Rummy Games')."""
    out = []
    for event in game.game_events:
        if event.action == REBUY and game.format not in rules.rebuy_formats:
            check, key, what = "pool.rebuy", "games.rebuy_formats", "a rebuy"
        elif event.action in SPLIT and game.format not in rules.split_formats:
            check, key, what = "pool.split", "games.split_formats", f"a {event.action}"
        else:
            continue
        out.append(
            finding(
                check,
                game_id=game.game_id,
                player_id=event.player,
                seq=event.seq,
                expected="none",
                recorded=event.action,
                message=f"Game {game.game_id} records {what.replace('_', ' ')} after hand "
                f"{event.after_hand_no}, but a {game.format.replace('_', ' ')} game has none.",
                rule=rules.cite(key),
            )
        )
    return out
