# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# apt-lib.sh - readers of apt-cache output, shared by tests/vm/kernel.sh,
# kernel-sid.sh, tests/debug/build-kernel.sh and tests/deb/deb-check.sh,
# and the mirror discovery from the host's apt sources.  Sourced, never run.
#
# Every reader here reads its input to the end and picks what it wants
# while reading: none of them stops early.  The scripts run under
# `set -o pipefail`, and apt-cache writes more than the first record; a
# reader that left after the first match (awk's exit, grep -m1, head) made
# apt-cache die of SIGPIPE and the script with it (exit 141), depending on
# timing.  tests/scripts/pipe-readers-test.sh holds these to that, and
# tests/scripts/pipe-lint.pl keeps the pattern out of the tree.
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

# Mirror discovery, from the host's apt sources (kernel.sh, kernel-sid.sh,
# tests/deb/deb-check.sh): host_sources prints "URI<TAB>suite" for every
# configured deb source, find_uri SUITE the first URI for SUITE.
host_sources() {
	local f
	# deb822 *.sources files
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk '
		function flush() {
			if (types ~ /(^|[ \t])deb([ \t]|$)/ && enabled !~ /^[Nn][Oo]/) {
				n = split(uris, u, /[ \t]+/); m = split(suites, s, /[ \t]+/)
				for (i = 1; i <= n; i++) for (j = 1; j <= m; j++)
					if (u[i] != "" && s[j] != "") print u[i] "\t" s[j]
			}
			types = ""; uris = ""; suites = ""; enabled = ""
		}
		/^[ \t]*#/ { next }
		/^[ \t]*$/ { flush(); next }
		/^[Tt]ypes:/   { sub(/^[^:]*:[ \t]*/, ""); types = $0; next }
		/^URIs:/       { sub(/^[^:]*:[ \t]*/, ""); uris = $0; next }
		/^[Ss]uites:/  { sub(/^[^:]*:[ \t]*/, ""); suites = $0; next }
		/^[Ee]nabled:/ { sub(/^[^:]*:[ \t]*/, ""); enabled = $0; next }
		END { flush() }' "$f"
	done
	# one-line format
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" |
			awk '$1 == "deb" && NF >= 3 { print $2 "\t" $3 }'
	done
}

find_uri() { # $1 = suite
	host_sources | first_uri "$1"
}
