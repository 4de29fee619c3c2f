#!/usr/bin/env bash
# Reproduces docs/learned.md's harvest tables: runner evaluate on each job
# of docs/learned/topics.yaml against a closed-world mirror, one markdown
# row a job (harvest per strategy), then the mean.
#
#   docs/learned/harvest.sh MIRROR_URL [JOB...]      # default: every job
#
# MIRROR_URL is a running `wikimirror -closed` (README, "Pointing a job at
# a local mirror"). STRATEGIES overrides the strategies compared;
# FEEDBACK=1 turns topic_feedback on; PAGES sets max_pages (default 250).
set -euo pipefail
cd "$(dirname "$0")/../.."
mirror=${1:?usage: docs/learned/harvest.sh MIRROR_URL [JOB...]}
shift
strategies=${STRATEGIES:-bfs,weighted,word-rank,similarity,learned,oracle}
corpus=../shared/data/wikipedia-2018/uw-cse373-en-wikipedia-2018.tar.zst
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

config=$work/topics.yaml
awk -v pages="${PAGES:-250}" -v feedback="${FEEDBACK:-0}" '
	$0 == "  max_pages: 250" { $0 = "  max_pages: " pages }
	{ print }
	$0 == "defaults:" && feedback == 1 { print "  topic_feedback: true" }
' docs/learned/topics.yaml >"$config"
go build -o "$work/runner" ./cmd/runner
jobs=("$@")
if [ ${#jobs[@]} -eq 0 ]; then
	while read -r job; do jobs+=("$job"); done < <(sed -n 's/^  - {name: \([^,]*\),.*/\1/p' "$config")
fi

echo "| job | ${strategies//,/ | } |"
echo "|---|$(sed 's/[^,]*/---|/g; s/,//g' <<<"$strategies")"
for job in "${jobs[@]}"; do
	"$work/runner" evaluate -config "$config" -job "$job" -strategies "$strategies" \
		-oracle-corpus "$corpus" -base-url "$mirror" -out "$work/out" 2>"$work/log" >"$work/table" ||
		{ cat "$work/log" >&2; exit 1; }
	# The table's rows: strategy fetched 404 relevant harvest ...
	awk -v job="$job" -v order="$strategies" '
		BEGIN { n = split(order, s, ",") }
		$2 ~ /^[0-9]+$/ && $5 ~ /^[0-9.]+$/ { h[$1] = $5 }
		END { line = "| " job " |"; for (i = 1; i <= n; i++) line = line " " h[s[i]] " |"; print line }
	' "$work/table"
done | tee "$work/rows"
awk -F'|' '{ for (i = 3; i < NF; i++) sum[i] += $i; n++; cols = NF }
	END { line = "| **mean** |"; for (i = 3; i < cols; i++) line = line sprintf(" %.4f |", sum[i] / n); print line }' "$work/rows"
