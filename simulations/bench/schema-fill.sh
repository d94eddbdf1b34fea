#!/usr/bin/env bash
# `fusillade schema fill` of ROWS rows (default 1,000,000) of a 6-column table into PostgreSQL,
# with PostgreSQL's COPY. Prints the rate; goal >= 150,000 rows/s.
# Usage: simulations/bench/schema-fill.sh [ROWS]   (after: mvn -B -q install -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROWS=${1:-1000000}
source simulations/bench/local-postgres.sh
WORKLOAD=$(mktemp --suffix=.yml)
cat >"$WORKLOAD" <<YAML
config_name: fill-benchmark
seed: 42
tables_schema:
  - name: orders
    row_count: $ROWS
    columns:
      - {name: id, type: long, distribution: sequential, range: [1, 1000000000000], unique: true}
      - {name: customer, type: integer, distribution: zipf, distribution_param: 1.1, range: [1, 1000000]}
      - {name: status, type: string, distribution: zipf, range: [1, 20], alphabet: [en]}
      - {name: amount, type: decimal, precision: 10, scale: 2, distribution: normal, range: [0, 10000]}
      - {name: created, type: datetime, range: ['2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z']}
      - {name: paid, type: boolean, probability: 0.7}
    primary_keys: [id]
YAML
./fusillade schema up "$WORKLOAD" --url "$PGURL" >/dev/null
./fusillade schema fill "$WORKLOAD" --url "$PGURL"
./fusillade schema down "$WORKLOAD" --url "$PGURL" >/dev/null
rm -f "$WORKLOAD"
