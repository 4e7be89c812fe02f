# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# apt-lib.sh - readers of apt-cache output, shared by tests/vm/kernel.sh,
# kernel-sid.sh and tests/debug/build-kernel.sh.  Sourced, never run.
#
# Every reader here reads its input to the end and picks what it wants
# while reading: none of them stops early.  The scripts run under
# `set -o pipefail`, and apt-cache writes more than the first record; a
# reader that left after the first match (awk's exit, grep -m1, head) made
# apt-cache die of SIGPIPE and the script with it (exit 141), depending on
# timing.  tests/tools/pipe-readers-test.sh holds these to that, and
# tests/tools/pipe-lint.pl keeps the pattern out of the tree.
#
# The callers define apt_q (kernel.sh) and sid_cache (kernel-sid.sh):
# apt-cache with the private apt configuration.

# deb_field FIELD: the value of FIELD in the first record on stdin.
deb_field() {
	awk -v f="$1:" '!done && $1 == f { print $2; done = 1 }'
}

# deb_depends: the names in the first record's Depends, the first
# alternative of each, one a line.
deb_depends() {
	awk '
	!done && /^Depends:/ {
		done = 1
		sub(/^Depends:[ \t]*/, "")
		n = split($0, d, /,[ \t]*/)
		for (i = 1; i <= n; i++) {
			split(d[i], alt, /[ \t]*\|[ \t]*/)
			split(alt[1], w, /[ \t(]+/)
			print w[1]
		}
	}'
}

# first_match ERE: the first line on stdin that matches ERE.
first_match() {
	awk -v re="$1" '!done && $0 ~ re { print; done = 1 }'
}

# first_uri SUITE: the URI of the first "URI<TAB>suite" line for SUITE.
first_uri() {
	awk -F '\t' -v s="$1" '!done && $2 == s { print $1; done = 1 }'
}

# dep_of PKG VERSION ERE: the first dependency of PKG=VERSION matching ERE.
dep_of() {
	apt_q show "$1=$2" 2>/dev/null | deb_depends | first_match "$3"
}

# sid_deps PKG: the Depends of sid's PKG (first alternatives).
sid_deps() {
	sid_cache show "$1" 2>/dev/null | deb_depends
}

# sid_version PKG: the version of sid's PKG.
sid_version() {
	sid_cache show "$1" 2>/dev/null | deb_field Version
}

# candidate_version PKG: the version the host's apt would download.
candidate_version() {
	apt-cache show --no-all-versions "$1" 2>/dev/null | deb_field Version
}
