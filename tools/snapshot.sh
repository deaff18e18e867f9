#!/usr/bin/env bash
# Writes everything d20odds prints or writes for the shipped experiments, the bad inputs
# and a few commands into DIR, so two builds can be compared byte for byte:
#   tools/snapshot.sh BINARY DIR        (then: diff -r DIR_BEFORE DIR_AFTER)
# Used to prove that a refactoring changes no output (issue #12).
set -u
# The binary runs under a fixed name: clap prints its own name in the help text.
bin=$(mktemp -d)/d20odds
cp "$1" "$bin"
out=$(realpath -m "$2")
repo=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$out" && mkdir -p "$out"/{json,check,bad,cli}
cd "$repo"
"$bin" run experiments/*.toml --out "$out/reports" > "$out/run.txt" 2>/dev/null
echo "exit $?" >> "$out/run.txt"
for f in experiments/*.toml; do
  n=$(basename "$f" .toml)
  "$bin" run "$f" --json --quiet --trials 3000 --out "$out/json-reports" > "$out/json/$n.json" 2>&1
  echo "exit $?" >> "$out/json/$n.json"
  "$bin" check "$f" > "$out/check/$n.txt" 2>&1
  "$bin" check "$f" --json > "$out/check/$n.json" 2>&1
done
for f in tests/bad_inputs/*.toml; do
  n=$(basename "$f" .toml)
  "$bin" check "$f" > "$out/bad/$n.check" 2>&1; echo "exit $?" >> "$out/bad/$n.check"
  "$bin" run "$f" --trials 100 --out "$out/bad-reports" > "$out/bad/$n.run" 2>&1; echo "exit $?" >> "$out/bad/$n.run"
done
cli() {
  local name=$1; shift
  "$bin" "$@" > "$out/cli/$name.txt" 2>&1; echo "exit $?" >> "$out/cli/$name.txt"
}
cli attack-plain attack --bonus 7 --ac 18 --crit 19-20/x2 --miss-chance 20 --damage 1d8+3
cli attack-hp attack --bonus 14,9 --ac 19 --damage 2d6+7 --hp 45 --con 16 --rounds 3 --json
cli attack-bad attack --bonus 7 --ac 18 --damage 1d8+ --json
cli attack-cover attack --bonus 7 --ac 18 --damage 1d8 --cover improved --system starfinder
for s in pf1 pf1-variant d20modern starfinder; do cli "rules-$s" rules "$s"; done
cli help --help
cli run-help run --help
