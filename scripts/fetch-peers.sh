#!/usr/bin/env bash
# Puts each peer's public source, at the commit pinned below, under
# .peers/NAME/ (ignored by git: the peers' code is never committed), for
# scripts/gpu-peers.sh, which builds and runs them on the GPU machine (carry
# .peers there: that machine has no network). Each folder gets a file
# PEER_SOURCE naming the repository and the commit it holds.
#
# Where the repository comes from, first found:
#   $PEER_MIRRORS/OWNER+NAME/repo   a local bare copy (in this workplace the
#                  fetch tool writes one: /work/.mirror, the default; ask it
#                  for github:OWNER/NAME first)
#   https://github.com/OWNER/NAME   cloned, where there is network
#
# Usage: scripts/fetch-peers.sh [--list] [NAME...]
#   NAME      a peer of the table below (default: all of them)
#   --list    print the table and stop
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
mirrors=${PEER_MIRRORS:-/work/.mirror}

# name  repository  commit (the source every figure of docs/performance.md's
# "Running the peers" was built from)
peers=(
  "ebisu neozhang307/EBISU-ICS23 dd3d84471cb64f504ad3019e29def10a3434599d"
  "lorastencil zondie17/LoRAStencil c45c993de3d34944b81fcef7baa85e7008890d00"
  "tcstencil buaa-hipo/TCStencil 4587a33eb306af8e8efc1ad76a85d35907f0f81f"
  "flashfftstencil HPHEX/FlashFFTStencil 683eec614164db7597f138a0f1c0cc3d7da2b482"
)

usage="usage: $0 [--list] [NAME...]"
if [[ ${1:-} == --list ]]; then
  printf '%s\n' "${peers[@]}"
  exit 0
fi
[[ ${1:-} == -* ]] && { echo "$usage" >&2; exit 2; }

wanted=("$@")
if ((${#wanted[@]} == 0)); then
  for entry in "${peers[@]}"; do wanted+=("${entry%% *}"); done
fi

# Prints the git directory holding REPO's history: the local mirror, else a
# bare clone from GitHub into a temporary folder.
source_of() { # repo scratch
  local repo=$1 scratch=$2 mirror=$mirrors/${1/\//+}/repo
  if [[ -d $mirror ]]; then
    echo "$mirror"
  else
    git clone --quiet --bare "https://github.com/$repo" "$scratch/git" >&2 || return 1
    echo "$scratch/git"
  fi
}

status=0
for name in "${wanted[@]}"; do
  entry=
  for candidate in "${peers[@]}"; do
    [[ ${candidate%% *} == "$name" ]] && entry=$candidate
  done
  if [[ -z $entry ]]; then
    echo "fetch-peers: no peer named '$name' ($0 --list)" >&2
    exit 2
  fi
  read -r _ repo commit <<<"$entry"
  scratch=$(mktemp -d)
  if ! gitdir=$(source_of "$repo" "$scratch"); then
    echo "fetch-peers: $name: no mirror at $mirrors/${repo/\//+}/repo and no clone of github.com/$repo" >&2
    rm -rf "$scratch"
    status=1
    continue
  fi
  if ! git --git-dir="$gitdir" cat-file -e "$commit^{commit}" 2>/dev/null; then
    echo "fetch-peers: $name: commit $commit is not in $gitdir (fetch a newer copy)" >&2
    rm -rf "$scratch"
    status=1
    continue
  fi
  dest=$root/.peers/$name
  rm -rf "$dest"
  mkdir -p "$dest"
  # An export, not a checkout: no .git folder to carry to the GPU machine.
  git --git-dir="$gitdir" archive --format=tar "$commit" | tar -x -C "$dest"
  printf 'repository github.com/%s\ncommit %s\nfrom %s\n' "$repo" "$commit" "$gitdir" >"$dest/PEER_SOURCE"
  rm -rf "$scratch"
  echo "fetch-peers: $name at ${commit:0:12} in .peers/$name ($(du -sh "$dest" | cut -f1))"
done
exit $status
