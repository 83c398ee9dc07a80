#!/usr/bin/env bash
# An example of driving `bin/troupe loadtest` (docs/performance.md, "Under load"): three short runs
# at small sizes, each into a folder of its own under OUT (default: loadtest-example):
#   closed/  a closed loop over W1 and W2: 4 clients, each starting its next query when its last
#            ended, with DuckDB loaded the same way after Troupe, in the same run;
#   open/    an open loop over W1 and W2 at 20 queries a second on a Poisson schedule, latency
#            measured from each query's due time;
#   files/   your own queries: .plan files (with .sql beside them for DuckDB) over a CSV table,
#            with --soak checking that Troupe's resources are back after the load.
# Each folder gets latency.csv, latency*.hgrm and loadtest.png; the summaries go to stdout.
# ROWS (default 100000) sizes W1's and W2's table; DURATION (default 10s) each measured run.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-loadtest-example}
rows=${ROWS:-100000}
duration=${DURATION:-10s}
mkdir -p "$out"

"$root/bin/troupe" loadtest --workload w1,w2 --rows "$rows" --clients 4 --duration "$duration" --warmup 3s \
  --workers 2 --peer duckdb --out "$out/closed"

"$root/bin/troupe" loadtest --workload w1,w2 --rows "$rows" --clients 4 --rate 20/s --arrival poisson --seed 1 \
  --duration "$duration" --warmup 3s --workers 2 --peer duckdb --out "$out/open"

# A table as CSV with a typed header, and two queries in plan text (docs/plan-format.md).
input="$out/files-input"
mkdir -p "$input/tables" "$input/queries"
{
  echo "id INT64 NOT NULL,customer INT32,amount DECIMAL(9,2)"
  awk -v n="$rows" 'BEGIN { for (i = 1; i <= n; i++) printf "%d,%d,%d.%02d\n", i, i % 1000, i % 500, i % 100 }'
} > "$input/tables/orders.csv"
cat > "$input/queries/revenue.plan" <<'PLAN'
-- revenue of the 10 best customers
scan orders
| aggregate by customer : sum(amount) as revenue, count(*) as orders
| sort revenue desc, customer
| limit 10
PLAN
cat > "$input/queries/revenue.sql" <<'SQL'
select customer, sum(amount) as revenue, count(*) as orders from orders
group by customer order by revenue desc, customer limit 10
SQL
cat > "$input/queries/big_orders.plan" <<'PLAN'
scan orders | filter amount > 400.00 | aggregate : count(*) as n, max(amount) as top
PLAN
cat > "$input/queries/big_orders.sql" <<'SQL'
select count(*) as n, max(amount) as top from orders where amount > 400.00
SQL
"$root/bin/troupe" loadtest --queries "$input/queries" --tables "$input/tables" --clients 4 \
  --duration "$duration" --warmup 3s --workers 2 --peer duckdb --soak --out "$out/files"

echo "loadtest-example: results in $out/closed, $out/open and $out/files"
