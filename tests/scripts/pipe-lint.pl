#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# pipe-lint.pl FILE... - find pipelines whose reader may stop reading
# before its writer has finished writing.
#
# Under `set -o pipefail` such a pipeline fails at random: when the reader
# (head, grep -q, an awk program that exits, ...) has gone, the writer's
# next write(2) raises SIGPIPE, the writer dies with status 141 and the
# whole pipeline reports 141.  Whether the writer still had something to
# write depends on timing and on how much it prints, so the same script
# passes on one machine and fails every time on another.  The project's
# rule is to let every reader read to the end (pick in the reader, or
# write to a file first).
#
# The scanner knows enough shell to find real pipes: quotes, $'...',
# comments, here-documents, ${...}, $((...)), and $(...), `...`, <(...),
# >(...) and the script of "sh -c '...'" scanned as code of their own.  After each `|` it takes the
# reader (the command up to the next ; & | && || newline or closing
# bracket, or a whole while/until loop or { } / ( ) group) and flags:
#   head                        stops after its lines or bytes
#   grep -q/-m/-l/-L (and long) stops at the first match
#   awk with `exit`             stops where the program exits
#   sed with a q or Q command   stops where it quits
#   read, { read ...; }         reads one line
#   while/until with break/exit/return   may leave the loop early
#   dd count=, cmp              stop after a count / the first difference
# and a writer that never ends by itself: yes.
#
# A line may carry "# pipe-lint: ok <reason>" to accept one such pipe
# (none in the tree does).  Output: FILE:LINE: message; exit 1 when
# anything was found, 0 otherwise.
use strict;
use warnings;

my $found = 0;

sub flag {
	my ($file, $line, $msg, $src) = @_;
	my @l = split /\n/, $src, -1;
	return if defined $l[$line - 1] && $l[$line - 1] =~ /#\s*pipe-lint:\s*ok\b/;
	print "$file:$line: $msg\n";
	$found = 1;
}

# Unquote a word loosely: drop quote characters, keep the text.
sub plain {
	my ($w) = @_;
	$w =~ s/^\$'//;
	$w =~ s/['"\\]//g;
	return $w;
}

# tokenize(TEXT, POS, END_CHAR) -> (TOKENS, POS): shell tokens of TEXT from
# POS up to the unquoted END_CHAR (or the end); nested $(...) etc. are
# tokenized into streams of their own, pushed on @::streams.
our @streams;
our %heredoc_skip;

sub tokenize {
	my ($s, $i, $end, $lineref) = @_;
	my @tok;
	my $word = '';
	my $wline = 0;
	my @pending_heredocs;
	my $pdepth = 0;
	my $n = length $s;
	my $endw = sub {
		if ($word ne '') {
			push @tok, { t => 'w', v => $word, line => $wline };
			$word = '';
		}
	};
	my $addw = sub {
		$wline = $$lineref if $word eq '';
		$word .= $_[0];
	};
	while ($i < $n) {
		my $c = substr($s, $i, 1);
		my $c2 = substr($s, $i, 2);
		if (defined $end && $c eq $end && !($end eq ')' && $pdepth > 0)) {
			$endw->();
			return (\@tok, $i + 1);
		}
		if ($c eq "\\") {
			if (substr($s, $i + 1, 1) eq "\n") {
				$$lineref++;
				$i += 2;
				next;
			}
			$addw->(substr($s, $i, 2));
			$i += 2;
			next;
		}
		if ($c eq "'") {
			my $j = index($s, "'", $i + 1);
			$j = $n - 1 if $j < 0;
			my $q = substr($s, $i, $j - $i + 1);
			$addw->($q);
			$$lineref += ($q =~ tr/\n//);
			$i = $j + 1;
			next;
		}
		if ($c2 eq "\$'") {
			my $j = $i + 2;
			while ($j < $n && substr($s, $j, 1) ne "'") {
				$j++ if substr($s, $j, 1) eq "\\";
				$j++;
			}
			my $q = substr($s, $i, $j - $i + 1);
			$addw->($q);
			$$lineref += ($q =~ tr/\n//);
			$i = $j + 1;
			next;
		}
		if ($c eq '"') {
			$addw->('"');
			$i++;
			while ($i < $n && substr($s, $i, 1) ne '"') {
				my $d = substr($s, $i, 1);
				if ($d eq "\\") {
					$addw->(substr($s, $i, 2));
					$$lineref++ if substr($s, $i + 1, 1) eq "\n";
					$i += 2;
				} elsif (substr($s, $i, 2) eq '$(' && substr($s, $i, 3) ne '$((') {
					my ($t, $j) = tokenize($s, $i + 2, ')', $lineref);
					push @streams, $t;
					$addw->(substr($s, $i, $j - $i));
					$i = $j;
				} elsif ($d eq '`') {
					my ($t, $j) = tokenize($s, $i + 1, '`', $lineref);
					push @streams, $t;
					$addw->(substr($s, $i, $j - $i));
					$i = $j;
				} elsif (substr($s, $i, 2) eq '${' || substr($s, $i, 3) eq '$((') {
					$i = skip_balanced($s, $i, $lineref, \$word);
				} else {
					$$lineref++ if $d eq "\n";
					$addw->($d);
					$i++;
				}
			}
			$addw->('"');
			$i++;
			next;
		}
		if (substr($s, $i, 3) eq '$((' || $c2 eq '${') {
			$wline = $$lineref if $word eq '';
			$i = skip_balanced($s, $i, $lineref, \$word);
			next;
		}
		if ($c2 eq '$(' || $c2 eq '<(' || $c2 eq '>(' || $c eq '`') {
			my $close = $c eq '`' ? '`' : ')';
			my $start = $i;
			my ($t, $j) = tokenize($s, $i + ($c eq '`' ? 1 : 2), $close, $lineref);
			push @streams, $t;
			$wline = $$lineref if $word eq '';
			$word .= substr($s, $start, $j - $start);
			$i = $j;
			next;
		}
		if ($c eq '#' && $word eq '') {
			my $j = index($s, "\n", $i);
			$j = $n if $j < 0;
			$i = $j;
			next;
		}
		if ($c eq "\n") {
			$endw->();
			push @tok, { t => 'o', v => "\n", line => $$lineref };
			$$lineref++;
			$i++;
			# Here-document bodies are data, not code.
			for my $h (@pending_heredocs) {
				while ($i < $n) {
					my $j = index($s, "\n", $i);
					$j = $n if $j < 0;
					my $l = substr($s, $i, $j - $i);
					$i = $j + 1;
					$$lineref++;
					my $t = $l;
					$t =~ s/^\t+// if $h->{strip};
					last if $t eq $h->{delim};
				}
			}
			@pending_heredocs = ();
			next;
		}
		if ($c2 eq '<<' && substr($s, $i, 3) ne '<<<') {
			$endw->();
			my $rest = substr($s, $i + 2, 200);
			if ($rest =~ /^(-?)\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2/) {
				push @pending_heredocs, { strip => $1 eq '-', delim => $3 };
				$i += 2 + length($&);
				next;
			}
		}
		if ($c =~ /[ \t]/) {
			$endw->();
			$i++;
			next;
		}
		if ($c2 eq '||' || $c2 eq '&&' || $c2 eq ';;' || $c2 eq '|&') {
			$endw->();
			push @tok, { t => 'o', v => $c2, line => $$lineref };
			$i += 2;
			next;
		}
		if ($c =~ /[|;&()]/) {
			# Case patterns end with ")": "a|b)" is no pipe (see below).
			$endw->();
			$pdepth++ if $c eq '(';
			$pdepth-- if $c eq ')' && $pdepth > 0;
			push @tok, { t => 'o', v => $c, line => $$lineref };
			$i++;
			next;
		}
		$addw->($c);
		$i++;
	}
	$endw->();
	return (\@tok, $i);
}

# Skip ${...} or $((...)) starting at $i; return the index after it.
sub skip_balanced {
	my ($s, $i, $lineref, $wref) = @_;
	my $open = substr($s, $i + 1, 1);
	my $close = $open eq '{' ? '}' : ')';
	my $depth = 0;
	my $start = $i;
	$i++;
	while ($i < length $s) {
		my $c = substr($s, $i, 1);
		if ($c eq "\\") { $i += 2; next; }
		if ($c eq "'" && $open eq '{') {
			my $j = index($s, "'", $i + 1);
			$i = $j < 0 ? length $s : $j + 1;
			next;
		}
		$$lineref++ if $c eq "\n";
		$depth++ if $c eq $open;
		if ($c eq $close) {
			$depth--;
			if ($depth == 0) {
				$i++;
				$i++ if $open eq '(' && substr($s, $i, 1) eq ')';
				last;
			}
		}
		$i++;
	}
	$$wref .= substr($s, $start, $i - $start);
	return $i;
}

my %stop = map { $_ => 1 } (';', '&', '|', '|&', '&&', '||', ';;', "\n", ')');

# The reader after the pipe at index $k: a list of tokens.
sub reader {
	my ($tok, $k) = @_;
	my $j = $k + 1;
	$j++ while $j < @$tok && $tok->[$j]{t} eq 'o' && $tok->[$j]{v} eq "\n";
	my @r;
	return \@r if $j >= @$tok;
	my $first = $tok->[$j];
	my $v = $first->{t} eq 'w' ? $first->{v} : $first->{v};
	if ($v eq 'while' || $v eq 'until' || $v eq '{' || $v eq '(') {
		my ($depth, $pdepth) = (0, 0);
		for (; $j < @$tok; $j++) {
			my $t = $tok->[$j];
			push @r, $t;
			if ($t->{t} eq 'w') {
				$depth++ if $t->{v} =~ /^(while|until|for|select|\{)$/;
				$depth-- if $t->{v} =~ /^(done|\})$/;
			} else {
				$pdepth++ if $t->{v} eq '(';
				$pdepth-- if $t->{v} eq ')';
			}
			last if $depth <= 0 && $pdepth <= 0;
		}
		return \@r;
	}
	for (; $j < @$tok; $j++) {
		my $t = $tok->[$j];
		last if $t->{t} eq 'o' && $stop{$t->{v}};
		push @r, $t;
	}
	return \@r;
}

sub words { return map { plain($_->{v}) } grep { $_->{t} eq 'w' } @{$_[0]}; }

sub check_reader {
	my ($file, $src, $line, $r) = @_;
	my @w = words($r);
	# Skip assignments and wrappers in front of the command.
	while (@w && ($w[0] =~ /^[A-Za-z_][A-Za-z0-9_]*=/ || $w[0] =~ /^(command|exec|builtin|!)$/)) {
		shift @w;
	}
	while (@w && $w[0] =~ /^(nice|ionice|timeout|stdbuf|env)$/) {
		shift @w;
		shift @w while @w && ($w[0] =~ /^-/ || $w[0] =~ /^[0-9.]+[smhd]?$/ || $w[0] =~ /=/);
	}
	return unless @w;
	my $cmd = $w[0];
	$cmd =~ s{.*/}{};
	my @args = @w[1 .. $#w];
	if ($cmd eq 'head') {
		flag($file, $line, "'| head' stops reading early: under pipefail the writer may die of SIGPIPE (141); read everything (sed -n 1p, awk with a flag)", $src);
	} elsif ($cmd =~ /^[ef]?grep$|^zgrep$/) {
		for my $a (@args) {
			last if $a eq '--';
			if ($a =~ /^--(quiet|silent|max-count|files-with-matches|files-without-match)\b/ ||
			    $a =~ /^-[A-Za-z]*[qmlL]/ && $a !~ /^--/) {
				flag($file, $line, "'| grep $a' stops at the first match: under pipefail the writer may die of SIGPIPE (141); use grep >/dev/null or grep -c", $src);
				last;
			}
			last if $a !~ /^-/;
		}
	} elsif ($cmd =~ /^[gmn]?awk$/) {
		if (grep { /(^|[^A-Za-z0-9_])exit([^A-Za-z0-9_]|$)/ } @args) {
			flag($file, $line, "'| awk' program exits before the end of its input: under pipefail the writer may die of SIGPIPE (141); keep reading (a flag instead of exit)", $src);
		}
	} elsif ($cmd eq 'sed') {
		if (grep { !/^-/ && /(^|[;{}\s\/\$0-9])\s*[qQ]\s*[0-9]*\s*([;}]|$)/ } @args) {
			flag($file, $line, "'| sed' script quits before the end of its input: under pipefail the writer may die of SIGPIPE (141)", $src);
		}
	} elsif ($cmd eq 'read') {
		flag($file, $line, "'| read' reads one line: under pipefail the writer may die of SIGPIPE (141)", $src);
	} elsif ($cmd eq 'while' || $cmd eq 'until') {
		if (grep { /^(break|exit|return)$/ } @w) {
			flag($file, $line, "'| $cmd' loop may leave before the end of its input (break/exit/return): under pipefail the writer may die of SIGPIPE (141)", $src);
		}
	} elsif ($cmd eq '{' || $cmd eq '(') {
		if ((grep { $_ eq 'read' } @w) && !(grep { /^(while|until)$/ } @w)) {
			flag($file, $line, "'| { read ...; }' reads less than all of its input: under pipefail the writer may die of SIGPIPE (141)", $src);
		}
	} elsif ($cmd eq 'dd' && grep { /^count=/ } @args) {
		flag($file, $line, "'| dd count=' stops after its count: under pipefail the writer may die of SIGPIPE (141)", $src);
	} elsif ($cmd eq 'cmp') {
		flag($file, $line, "'| cmp' stops at the first difference: under pipefail the writer may die of SIGPIPE (141)", $src);
	}
}

# The writer before the pipe at index $k: its first word.
sub check_writer {
	my ($file, $src, $tok, $k) = @_;
	my $j = $k - 1;
	$j-- while $j >= 0 && $tok->[$j]{t} eq 'w';
	return if $j + 1 >= $k;
	my $w = plain($tok->[$j + 1]{v});
	$w =~ s{.*/}{};
	flag($file, $tok->[$k]{line}, "'yes |' never ends by itself: under pipefail it always dies of SIGPIPE (141)", $src)
		if $w eq 'yes';
}

# The script of a "sh -c WORD" / "bash -c WORD" word, unquoted, or undef.
sub inline_script {
	my ($w) = @_;
	if ($w =~ /^'(.*)'$/s) {
		return $1;
	}
	if ($w =~ /^"(.*)"$/s) {
		my $t = $1;
		$t =~ s/\\([\$`"\\])/$1/g;
		return $t;
	}
	return undef;
}

# Scripts run by "sh -c" / "bash -c" in @tok, each tokenized on its own.
sub inline_streams {
	my ($tok) = @_;
	my @more;
	for my $k (0 .. $#$tok - 2) {
		next unless $tok->[$k]{t} eq 'w' && $tok->[$k + 1]{t} eq 'w' &&
			    $tok->[$k + 2]{t} eq 'w';
		my $cmd = plain($tok->[$k]{v});
		$cmd =~ s{.*/}{};
		next unless $cmd =~ /^(sh|bash|dash)$/ && $tok->[$k + 1]{v} eq '-c';
		my $script = inline_script($tok->[$k + 2]{v});
		next unless defined $script;
		my $line = $tok->[$k + 2]{line};
		my ($t) = tokenize($script, 0, undef, \$line);
		push @more, $t;
	}
	return @more;
}

sub lint_file {
	my ($file) = @_;
	open my $fh, '<', $file or die "pipe-lint: $file: $!\n";
	local $/;
	my $src = <$fh>;
	close $fh;
	local @streams;
	my $line = 1;
	my ($top) = tokenize($src, 0, undef, \$line);
	push @streams, $top;
	# (streams found inside those scripts are appended while we walk)
	for (my $si = 0; $si < @streams; $si++) {
		push @streams, inline_streams($streams[$si]);
	}
	for my $tok (@streams) {
		my $in_case = 0;
		for my $k (0 .. $#$tok) {
			my $t = $tok->[$k];
			if ($t->{t} eq 'w') {
				$in_case++ if $t->{v} eq 'case';
				$in_case-- if $t->{v} eq 'esac' && $in_case > 0;
				next;
			}
			next unless $t->{v} eq '|' || $t->{v} eq '|&';
			# "pat1 | pat2)" in a case statement is no pipe.
			if ($in_case) {
				my $r = reader($tok, $k);
				my $nx = $tok->[$k + 1 + scalar(@$r)];
				next if @$r == 1 && defined $nx && $nx->{v} eq ')';
			}
			check_writer($file, $src, $tok, $k);
			check_reader($file, $src, $t->{line}, reader($tok, $k));
		}
	}
}

die "usage: pipe-lint.pl FILE...\n" unless @ARGV;
lint_file($_) for @ARGV;
exit $found;
