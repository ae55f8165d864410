#!/usr/bin/env bash
# The bisection demo of the README: a throwaway repository of 16 commits on the default model —
# commit 5 makes a check fail, commit 11 lengthens the system prompt (about +10% TTFT), the others
# change nothing or only files no suite reads — and `chateval bisect` from commit 1 to commit 16.
#   scripts/bisect-demo.sh MODEL [CHATEVAL] [-- extra bisect arguments]
# Leaves the repository in $BISECT_DEMO_DIR (default: a new temporary folder) and prints its path.
set -euo pipefail
model=${1:?usage: scripts/bisect-demo.sh MODEL [CHATEVAL] [-- bisect arguments]}
shift
chateval=$(cd "$(dirname "$0")/.." && pwd)/.build/release/chateval
if [ $# -gt 0 ] && [ "$1" != "--" ]; then chateval=$1; shift; fi
if [ "${1:-}" = "--" ]; then shift; fi
repo=${BISECT_DEMO_DIR:-$(mktemp -d /tmp/chateval-bisect-demo.XXXXXX)}
mkdir -p "$repo/suites" && cd "$repo"
git init -q -b main
git() { command git -c user.name=demo -c user.email=demo@example.com "$@"; }
system="You are a concise assistant. Answer every question in one short sentence."
suite() { # $1: system prompt, $2: the first question's expected word, $3: an extra comment line
    printf 'name: facts\n%sdefaults:\n  max_tokens: 16\n  system: "%s"\nconversations:\n' "$3" "$1"
    printf '  - {id: capital, turns: [{user: "What is the capital of France?", checks: [{contains: "%s"}]}]}\n' "$2"
    local n=2
    for question in "Name three colours of the rainbow." "What do bees make?" "How many legs does a spider have?" \
        "What is the boiling point of water in Celsius?" "Which planet is known as the red planet?" \
        "What is the largest ocean on Earth?" "Who wrote Romeo and Juliet?"; do
        printf '  - {id: q%d, turns: ["%s"]}\n' "$n" "$question"; n=$((n + 1))
    done
}
commit() { git add -A && git commit -qm "$1"; }
printf 'model:\n  path: %s\nsuites: suites\nreports: reports\n' "$model" > chateval.yaml
printf 'reports/\n' > .gitignore
suite "$system" Paris "" > suites/facts.yaml;                    commit "1: the facts suite"
echo "Notes." > NOTES.md;                                         commit "2: notes"
printf '# Demo\n' > README.md;                                    commit "3: a readme"
mkdir -p docs && echo "Design." > docs/design.md;                 commit "4: design notes"
suite "$system" Lyon "" > suites/facts.yaml;                      commit "5: expect Lyon as the capital (the check now fails)"
echo "More notes." >> NOTES.md;                                   commit "6: more notes"
suite "$system" Lyon "# the facts every model should know
" > suites/facts.yaml;                                            commit "7: a comment in the suite (nothing replayed changes)"
echo "Even more." >> NOTES.md;                                    commit "8: notes again"
echo "Plans." > docs/plans.md;                                    commit "9: plans"
printf '# Demo\nA line.\n' > README.md;                           commit "10: readme line"
suite "$system Be very brief." Lyon "# the facts every model should know
" > suites/facts.yaml;                                            commit "11: a longer system prompt"
for n in 12 13 14 15 16; do echo "Note $n." >> NOTES.md;          commit "$n: note $n"; done
echo "repository: $repo" >&2
"$chateval" bisect HEAD~15 HEAD "$@"
