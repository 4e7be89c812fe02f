# SPDX-License-Identifier: GPL-2.0
#
# rounds.awk - what tests/bench/report and tests/bench/report-model say
# about figures measured in rounds (BENCH_ROUNDS, the targets
# interleaved).  Both put this file's text before their own program.
# A figure of key k: VS[k, 1..NV[k]] its runs, V[k] its value (the
# median once median(k) ran), LO[k] and HI[k] its min and max.
function has(k) { return (k in V) }
function ratio(a, b) { return (b > 0) ? sprintf("%.2f", a / b) : "-" }
# median(k): of the NV[k] values VS[k, 1..]; LO and HI set
function median(k,   i, j, t, a, m) {
	m = NV[k]
	for (i = 1; i <= m; i++) a[i] = VS[k, i] + 0
	for (i = 2; i <= m; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]
		a[j + 1] = t
	}
	LO[k] = a[1]; HI[k] = a[m]
	return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
}
# cellr(k): the median and, measured more than once, min-max
function cellr(k) {
	if (!has(k)) return "-"
	return NV[k] > 1 ? sprintf("%.2f (%.2f-%.2f)", V[k], LO[k], HI[k]) : sprintf("%.2f", V[k])
}
# same(a, b): measured more than once each and their ranges overlap
function same(a, b) { return NV[a] > 1 && NV[b] > 1 && LO[a] <= HI[b] && LO[b] <= HI[a] }
# kratio(a, b, tag): V[a] / V[b], "~" before it when they do not differ;
# counts the point in DIFF[tag, "up"], DIFF[tag, "down"] or DIFF[tag,
# "none"], or, a figure measured once, DIFF[tag, "once"] (not called)
function kratio(a, b, tag) {
	if (!has(a) || !has(b) || V[b] <= 0) return "-"
	if (NV[a] < 2 || NV[b] < 2) { DIFF[tag, "once"]++; return ratio(V[a], V[b]) }
	if (same(a, b)) { DIFF[tag, "none"]++; return "~" ratio(V[a], V[b]) }
	DIFF[tag, V[a] > V[b] ? "up" : "down"]++
	return ratio(V[a], V[b])
}
# rounds(n): the sentence saying how the figures of a table were measured
function rounds(n) {
	if (n > 1) printf "Figures: medians of %d rounds, the targets interleaved, min-max in brackets; a ratio marked ~ is no difference (the ranges overlap).\n\n", n
	else printf "Figures: one run each (BENCH_ROUNDS=1): no spread, so no difference can be called.\n\n"
}
# diffline(tag, a, b): the points of kratio(..., tag), target a against
# b, under the tag's part before a "/" (tags "T1/s" and "T1/m" count apart
# and both read "T1")
function diffline(tag, a, b,   q) {
	split(tag, q, "/")
	printf "- %s: %s above %s beyond the spread at %d points, below at %d, no difference at %d%s\n", q[1], a, b, DIFF[tag, "up"] + 0, DIFF[tag, "down"] + 0, DIFF[tag, "none"] + 0, DIFF[tag, "once"] ? sprintf("; measured once, not called, at %d", DIFF[tag, "once"]) : ""
}
