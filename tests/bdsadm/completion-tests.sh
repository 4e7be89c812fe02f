#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/bdsadm.bash-completion: its verbs are those 'bdsadm help' lists,
# and it completes verbs, options and the words options take.
#
#   completion-tests.sh BDSADM
set -uo pipefail

BDSADM=$1
COMPLETION=$(dirname "$0")/../../tools/bdsadm.bash-completion
n=0
bad=0
t() { # NAME CONDITION...
	local name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		bad=$((bad + 1))
	fi
}

# complete WORDS...: the completions of the last word of "WORDS".
complete_words() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	_bdsadm
	printf '%s\n' "${COMPREPLY[@]}"
}

# has LIST WORD: the newline-separated LIST has the line WORD.
has() { grep -qxF -- "$2" <<<"$1"; }

complete() { :; }	# the file's "complete -F": not needed here
# shellcheck source=tools/bdsadm.bash-completion
. "$COMPLETION"

verbs=$(complete_words bdsadm "")
listed=$("$BDSADM" help | sed -n 's/^  bdsadm \([a-z]*\).*/\1/p' | sort -u)
missing=""
for v in $listed; do
	has "$verbs" "$v" || missing="$missing $v"
done
t "every verb of 'bdsadm help' completes (missing:${missing:- none})" [ -z "$missing" ]
extra=""
for v in $verbs; do
	case "$v" in -*) continue ;; esac
	has "$listed" "$v" || extra="$extra $v"
done
t "no verb completes that 'bdsadm help' does not list (extra:${extra:- none})" [ -z "$extra" ]
# every option a verb's --help names (its lines that start with options)
# completes after the verb; --version is bdsadm's, not a verb's
for v in $listed; do
	case "$v" in help) continue ;; esac
	words=$(complete_words bdsadm "$v" --)
	missing=""
	for o in $("$BDSADM" "$v" --help 2>/dev/null |
		sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p' | sort -u); do
		[ "$o" = --version ] && continue
		has "$words" "$o" || missing="$missing $o"
	done
	t "$v: every option of its --help completes (missing:${missing:- none})" [ -z "$missing" ]
done
t "'bdsadm gr' completes to grow" [ "$(complete_words bdsadm gr)" = grow ]
# shellcheck disable=SC2016 # eval'd later
t "grow's options include --layout and --weights" \
	eval 'has "$(complete_words bdsadm grow vol --)" --layout && has "$(complete_words bdsadm grow vol --)" --weights'
t "grow --layout takes interleave or sequential" \
	[ "$(complete_words bdsadm grow vol --layout "" | tr '\n' ' ')" = "interleave sequential " ]
t "examine --j completes to --json" [ "$(complete_words bdsadm examine --j)" = --json ]
t "check's only options are --rate and --help" \
	[ "$(complete_words bdsadm check -- | tr '\n' ' ')" = "--rate --help " ]
echo "1..$n"
echo "$((n - bad)) passed, $bad failed"
[ "$bad" = 0 ]
