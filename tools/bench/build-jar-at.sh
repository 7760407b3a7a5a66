#!/usr/bin/env bash
# Builds the runnable gateway jar of any commit, for the bench's A/B mode (docs/benchmarks.md):
#   tools/bench/build-jar-at.sh <commit> <out.jar>
# then: mvn -B -q -DskipTests -Pbench -pl mykit-delay-test -am verify -Dbench.ab.jar=<out.jar>
# The commit is checked out in a git worktree under target/ (removed afterwards) and built there with
# `mvn -B -q -DskipTests package -pl mykit-delay-core -am`: nothing is installed into ~/.m2. MVN_FLAGS adds options
# (e.g. MVN_FLAGS=-o to build offline).
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: $0 <commit> <out.jar>" >&2; exit 2; }
commit="$1"
out="$(realpath -m "$2")"
root="$(git rev-parse --show-toplevel)"
sha="$(git -C "$root" rev-parse --verify "$commit^{commit}")"
tree="$root/target/jar-at-${sha:0:12}"

mkdir -p "$root/target" "$(dirname "$out")"
# a leftover from an interrupted run would make 'worktree add' refuse
git -C "$root" worktree remove --force "$tree" 2>/dev/null || rm -rf "$tree"
git -C "$root" worktree prune
git -C "$root" worktree add --detach "$tree" "$sha" > /dev/null
trap 'git -C "$root" worktree remove --force "$tree" >/dev/null 2>&1 || true' EXIT

echo "building mykit-delay-core at ${sha:0:12} in $tree"
(cd "$tree" && mvn -B -q ${MVN_FLAGS:-} -DskipTests package -pl mykit-delay-core -am)
jar="$tree/mykit-delay-core/target/mykit-delay.jar"
[ -f "$jar" ] || { echo "no $jar after the build" >&2; exit 1; }
cp "$jar" "$out"
echo "$out: the runnable jar of ${sha:0:12}"
