#!/usr/bin/env bash
# compare.sh REV REV...: TestLoad of this tree (its driver, its floors) run
# against a server built from each REV, in interleaved passes (REV1, REV2, ...,
# then again), each pass on a freshly migrated database of its own, so an old
# binary migrates with its own schema. `make load-compare` calls it; the
# method and the runs are in README.md ("Before and after").
#
# Each REV is built in a temporary worktree (git worktree add --detach),
# removed once built. A pass is one TestLoad with NESTEGG_LOAD_ROUNDS rounds
# (default 1 here), the month list pair on (NESTEGG_LOAD_MONTH_LIST=1) and the
# books pass off (an older binary serves no /api/books): the personal ledger
# only. The load average is read before and after each pass. At the end one
# line per pass and the medians per REV, with each REV's difference from the
# first in %; the passes' outputs stay in the directory printed last.
#
# Settings: LOAD_COMPARE_ROUNDS (passes per REV, default 3), NESTEGG_LOAD_ROUNDS,
# NESTEGG_LOAD_SECONDS, NESTEGG_LOAD_CONNECTIONS (as make load), and
# NESTEGG_LOAD_ONLY (a regular expression: only the pairs it names, nothing
# else; many short passes of one pair tell a smaller difference apart, e.g.
# NESTEGG_LOAD_ONLY='^month list' NESTEGG_LOAD_SECONDS=3 LOAD_COMPARE_ROUNDS=20). Addresses,
# database and Redis db differ from make load's, so both can run at once:
# LOAD_COMPARE_ADDR (default 127.0.0.1:18090), NESTEGG_FLOOR_ADDR (default
# 127.0.0.1:18091), LOAD_COMPARE_DB (default nestegg_compare, on DB_URL's
# server), LOAD_COMPARE_REDIS_DB (default 3).
set -euo pipefail

[ $# -ge 2 ] || { echo "usage: $0 REV REV... (the first is the baseline)" >&2; exit 2; }
root=$(git rev-parse --show-toplevel)
rounds=${LOAD_COMPARE_ROUNDS:-3}
addr=${LOAD_COMPARE_ADDR:-127.0.0.1:18090}
export NESTEGG_FLOOR_ADDR=${NESTEGG_FLOOR_ADDR:-127.0.0.1:18091}
dbname=${LOAD_COMPARE_DB:-nestegg_compare}
dburl=${DB_URL:-postgres://postgres@127.0.0.1:5432/nestegg?sslmode=disable}
admin=${dburl/\/nestegg\?//postgres?}
url=${dburl/\/nestegg\?//$dbname?}
rdb=${LOAD_COMPARE_REDIS_DB:-3}
work=$(mktemp -d)
logs=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
out=$(mktemp -d "${TMPDIR:-/tmp}/nestegg-compare.XXXXXX")
pid=
cleanup() {
	[ -n "$pid" ] && { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
	for t in "$work"/tree-*; do [ -d "$t" ] && git -C "$root" worktree remove --force "$t"; done
	rm -rf "$work" "$logs"
	psql "$admin" -qc "DROP DATABASE IF EXISTS $dbname WITH (FORCE)" || true
	redis-cli -n "$rdb" --scan --pattern 'nestegg:*' | xargs -r -n 500 redis-cli -n "$rdb" DEL >/dev/null || true
}
trap cleanup EXIT

labels=()
i=0
for rev in "$@"; do
	sha=$(git -C "$root" rev-parse --short "$rev^{commit}")
	labels+=("$sha")
	echo "building $rev ($sha)"
	git -C "$root" worktree add --quiet --detach "$work/tree-$i" "$sha"
	# -trimpath keeps the worktree's path out of the build, so that the
	# build cache can serve the next comparison: without it, run 36's second
	# invocation built the same three commits again in about 8 minutes
	# (the cache hit with -trimpath is expected, not yet measured).
	(cd "$work/tree-$i" && go build -trimpath -o "$work/bin-$i" ./cmd/nestegg)
	git -C "$root" worktree remove --force "$work/tree-$i"
	i=$((i + 1))
done
echo "building the driver (internal/loadtest of $(git -C "$root" describe --always --dirty))"
(cd "$root" && go test -c -o "$work/loadtest.test" ./internal/loadtest)

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

for r in $(seq 1 "$rounds"); do
	for i in "${!labels[@]}"; do
		label=${labels[$i]}
		psql "$admin" -qc "DROP DATABASE IF EXISTS $dbname WITH (FORCE)"
		redis-cli -n "$rdb" --scan --pattern 'nestegg:*' | xargs -r -n 500 redis-cli -n "$rdb" DEL >/dev/null
		HTTP_ADDR=$addr LOG_LEVEL=info STORE_TEST_MODE=true SIGNUP_LIMIT_PER_HOUR=10000 REDIS_URL=redis://127.0.0.1:6379/$rdb \
			TRUSTED_PROXIES=127.0.0.1/32 DATABASE_URL=$url "$work/bin-$i" >/dev/null 2>"$logs/server.log" &
		pid=$!
		for _ in $(seq 1 300); do curl -fs "http://$addr/readyz" >/dev/null && break; sleep 0.2; done
		f=$out/pass-$r-$label.out
		echo "round $r, $label: load average before $(loadavg)" | tee "$f"
		NESTEGG_LOAD_URL=http://$addr REDIS_URL=redis://127.0.0.1:6379/$rdb DATABASE_URL=$url \
			NESTEGG_LOAD_BOOKS=0 NESTEGG_LOAD_MONTH_LIST=1 NESTEGG_LOAD_ROUNDS=${NESTEGG_LOAD_ROUNDS:-1} \
			"$work/loadtest.test" -test.count=1 -test.timeout 40m -test.run '^TestLoad$' -test.v >>"$f" 2>&1 || {
			# A failed request fails TestLoad; the pass still counts when
			# its pairs ran (the summary shows their failures).
			grep -q TARGET "$f" || { echo "round $r, $label: TestLoad failed (see $f)"; tail -20 "$f"; exit 1; }
			echo "round $r, $label: TestLoad failed: $(grep -c 'requests failed (first' "$f") kind(s) of request had failures (see $f)"; }
		kill "$pid"; wait "$pid" 2>/dev/null || true; pid=
		grep -E '"level":"(WARN|ERROR)"' "$logs/server.log" | head -50 >"$out/server-$r-$label.warn" || true
		echo "round $r, $label: load average after $(loadavg); server log $(wc -l <"$logs/server.log") lines, $(grep -c '"level":"ERROR"' "$logs/server.log" || true) errors, $(grep -c '"level":"WARN"' "$logs/server.log" || true) warnings" | tee -a "$f"
	done
done

# One line per pass, round and request: the service's round line over its
# floor's (they alternate in TestLoad's output), then the medians per REV of
# those ratios and each REV's difference from the first REV's in %.
for r in $(seq 1 "$rounds"); do for label in "${labels[@]}"; do
	awk -v rev="$label" -v pass="$r" '
		/load average before/ { la0 = $0; sub(/.*before /, "", la0) }
		/load average after/ { la1 = $0; sub(/.*after /, "", la1); sub(/;.*/, "", la1) }
		/, round [0-9]+ +[0-9]+ req\/s/ {
			line = $0; sub(/^.*load_test.go:[0-9]+: /, "", line)
			name = line; sub(/, round [0-9]+ .*/, "", name)
			rate = line; sub(/ req\/s.*/, "", rate); sub(/.* /, "", rate)
			failed = line; sub(/ failed.*/, "", failed); sub(/.* /, "", failed)
			p99 = line; sub(/.*p99 +/, "", p99); sub(/ms.*/, "", p99)
			cpu = line; sub(/.*PostgreSQL CPU +/, "", cpu); sub(/ms\/req.*/, "", cpu)
			if (!half) { sname = name; srate = rate; sp99 = p99; scpu = cpu; sfailed = failed; half = 1; next }
			half = 0
			n++; rows[n] = sprintf("%s\t%s\t%s\t%.3f\t%.3f\t%s\t%s\t%s\t%d", rev, pass, sname, srate / rate, sp99 / p99,
				cpu + 0 > 0 ? sprintf("%.3f", scpu / cpu) : "-", srate, rate, sfailed + failed)
		}
		END { for (i = 1; i <= n; i++) print rows[i] "\t" la0 "\t" la1 }' "$out/pass-$r-$label.out"
done; done >"$out/passes.tsv"
awk -F'\t' '{ printf "pass %s, %s, %s: %s vs %s req/s = %sx throughput, %sx p99, %sx PostgreSQL CPU%s (load average %s before, %s after)\n",
	$2, $1, $3, $7, $8, $4, $5, $6, ($9 > 0 ? ", " $9 " requests FAILED" : ""), $10, $11 }' "$out/passes.tsv"

awk -F'\t' -v order="${labels[*]}" '
	# median answers the middle of the values of key (the upper middle of an
	# even count, as TestLoad) and sets lo and hi to their least and most.
	function median(key,   n, i, j, v, a) {
		n = split(vals[key], a, " ")
		for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > v + 0; j--) a[j + 1] = a[j]; a[j + 1] = v }
		lo = a[1]; hi = a[n]
		return a[int(n / 2) + 1]
	}
	{ for (k = 4; k <= 6; k++) if ($k != "-") vals[$1 SUBSEP $3 SUBSEP k] = vals[$1 SUBSEP $3 SUBSEP k] " " $k
	  if (!($3 in seen)) { seen[$3] = 1; names[++nn] = $3 } }
	END {
		nr = split(order, revs, " ")
		split("throughput p99 CPU", what, " ")
		print "medians of the passes\x27 ratios to the floor per binary [least-most], and the difference of the medians from " revs[1] ":"
		for (x = 1; x <= nn; x++) for (k = 4; k <= 6; k++) {
			if (!((revs[1] SUBSEP names[x] SUBSEP k) in vals)) continue
			base = median(revs[1] SUBSEP names[x] SUBSEP k)
			line = sprintf("  %s, %s:", names[x], what[k - 3])
			for (y = 1; y <= nr; y++) {
				m = median(revs[y] SUBSEP names[x] SUBSEP k)
				line = line sprintf(" %s %.3fx [%.2f-%.2f]", revs[y], m, lo, hi)
				if (y > 1 && base > 0) line = line sprintf(" (%+.1f %%)", (m / base - 1) * 100)
			}
			print line
		}
	}' "$out/passes.tsv" | tee "$out/summary.txt"
echo "passes' output: $out"
