#!/bin/sh
# The worked studies of docs/balance.md, from the repository's root:
#     sh docs/studies/run.sh [AGENT] [GAMES] [WORKERS] [CALIBRATE] [STUDY ...]
# AGENT: the bot in every seat (default greedy; a preset such as `good`, or any agent),
# GAMES: the budget of games per rule file (default 200), CALIBRATE: the games measuring
# the bot against random ones before each study (default 40). Each study goes to its own
# database docs/studies/NAME-AGENT.db (run again: it resumes), its tables to
# NAME-AGENT.txt and its page of plots to NAME-AGENT-report/. STUDY: the studies to play
# (cronberg, cromlech, cleromancy, skye, solstice), every one when none is named.
set -e
AGENT=${1:-greedy}
GAMES=${2:-200}
WORKERS=${3:-2}
CALIBRATE=${4:-40}
OUT=docs/studies
[ $# -gt 4 ] && shift 4 || set --
ONLY=" $* "

study() {
    name=$1; shift
    case "$ONLY" in "  "|*" $name "*) ;; *) return 0;; esac
    rulesdsl simulate "$@" --agents "$AGENT" --games "$GAMES" --calibrate "$CALIBRATE" \
        --workers "$WORKERS" --db "$OUT/$name-$AGENT.db" --progress off > "$OUT/$name-$AGENT.txt"
    rulesdsl report "$OUT/$name-$AGENT.db" --out "$OUT/$name-$AGENT-report" > /dev/null
}

# Cronberg, parks that triple instead of double, 2 players
study cronberg games/cronberg/cronberg.rules games/cronberg/parks_triple.rules --players 2
# Cromlech, Magic Drought (3 dice of each element instead of 4), 3 players
study cromlech games/cromlech/cromlech.rules games/cromlech/magic_drought.rules --players 3
# Cleromancy, Rush (5 mana a round from the Keep instead of 2), 2 players
study cleromancy games/cleromancy/cleromancy.rules games/cleromancy/rush.rules --players 2
# Isle of Skye, whisky pays double at income, 2 players
study skye games/isle_of_skye/isle_of_skye.rules games/isle_of_skye/whisky_double.rules \
    --players 2
# Solstice, objectives score 4 instead of 2, 3 players
study solstice games/solstice/solstice.rules games/solstice/objectives_double.rules --players 3
