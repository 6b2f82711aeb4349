# nestegg: every task goes through this file. `make help` lists them.
SHELL := /bin/bash
.DEFAULT_GOAL := help

TOOL      := go tool -modfile=internal/tools/go.mod
REDOCLY   := REDOCLY_TELEMETRY=off npx --yes @redocly/cli@2.77.0
DB_URL    ?= postgres://postgres@127.0.0.1:5432/nestegg?sslmode=disable
BENCH_TIME ?= 2s
TEST_ADMIN_URL ?= $(or $(NESTEGG_TEST_DATABASE_URL),postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable)

.PHONY: help generate check lint release services test test-short test-clean run bench load load-compare db-reset

help: ## List the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

generated/api/api.gen.go: api/openapi.yaml oapi.yaml internal/tools/go.mod
	$(TOOL) oapi-codegen -config oapi.yaml api/openapi.yaml

generated/apiclient/client.gen.go: api/openapi.yaml api/oapi-client.yaml internal/tools/go.mod
	$(TOOL) oapi-codegen -config api/oapi-client.yaml api/openapi.yaml

generated/db/db.go: sqlc.yaml $(wildcard schema/*.sql) $(wildcard queries/*.sql) internal/tools/go.mod
	rm -f generated/db/*.go
	$(TOOL) sqlc generate

# The schema as the migrations leave it, for reading (README, architecture):
# a migrated test database dumped with pg_dump. TestSchemaDumpIsCurrent, in
# make test, fails when it drifts from schema/.
generated/schema.sql: $(wildcard schema/*.sql)
	@bash .ci/services test
	go test -count=1 -run '^TestSchemaDumpIsCurrent$$' ./internal/database/ -args -update-schema-dump

generate: ## Regenerate generated/ from the contract, the queries and the schema (the schema dump needs PostgreSQL)
	@$(MAKE) --no-print-directory -B generated/api/api.gen.go generated/apiclient/client.gen.go generated/db/db.go generated/schema.sql

check: generate lint ## Regenerate and fail on any drift, vet, lint the contract, check go.mod
	@if ! git diff --quiet -- generated/ || [ -n "$$(git ls-files --others --exclude-standard -- generated/)" ]; then \
		echo "generated/ is out of date with api/, queries/ or schema/: run 'make generate' and commit"; \
		git status --short -- generated/; exit 1; fi
	test -z "$$(gofmt -l $$(git ls-files '*.go' | grep -v '^generated/'))" || { gofmt -l $$(git ls-files '*.go' | grep -v '^generated/'); exit 1; }
	@# The top level holds only what the layout names (README): no stray binaries or notes.
	@extra=$$(git ls-files | cut -d/ -f1 | sort -u | grep -vxE 'api|queries|schema|internal|generated|cmd|sqlc.yaml|oapi.yaml|go.mod|go.sum|Makefile|README.md|\.ci'); \
	if [ -n "$$extra" ]; then echo "not part of the top-level layout: $$extra"; exit 1; fi
	go vet ./...
	@# The breaking-change gate: no error-level break of the released contract without a new major version (README).
	go run ./internal/apigate -base api/released/openapi.yaml -rev api/openapi.yaml
	@# One owner per table (issue 20): no area calls another's queries.
	go test -count=1 -run 'TestEveryTableHasOneOwner|TestOwnershipRule' ./internal/app/
	go mod tidy -diff
	cd internal/tools && go mod tidy -diff

lint: ## Lint the contract (Redocly recommended + our rules, oasdiff validate, TypeScript SDK types)
	@# Zero warnings: a new warning fails the target as an error does.
	@out=$$($(REDOCLY) lint --config api/redocly.yaml --format stylish api/openapi.yaml 2>&1); st=$$?; \
	echo "$$out" | grep -vE '^npm warn|^ *[║╔╚]' ; \
	if [ $$st -ne 0 ]; then exit $$st; fi; \
	if echo "$$out" | grep -qE '^ *[0-9]+:[0-9]+ +warning'; then echo "make lint: the contract has Redocly warnings (they fail the lint)"; exit 1; fi
	$(TOOL) oasdiff validate --fail-on ERR api/openapi.yaml
	@# Client teams generate SDKs from the contract: the TypeScript types must generate and type-check.
	@d=$$(mktemp -d) && trap 'rm -rf $$d' EXIT && \
	npx --yes -p openapi-typescript@7.13.0 -p typescript@5.9.3 openapi-typescript ./api/openapi.yaml -o $$d/api.d.ts && \
	npx --yes -p typescript@5.9.3 tsc --noEmit --strict $$d/api.d.ts && echo "TypeScript SDK types: ok"

release: ## Make api/openapi.yaml the released contract the breaking-change gate compares with (README)
	@v=$$(awk '/^info:/{i=1;next} i&&/^  version:/{print $$2;exit}' api/openapi.yaml); \
	mkdir -p api/released && cp api/openapi.yaml api/released/openapi.yaml && \
	echo "api/released/openapi.yaml is now contract $$v: commit it"

# Silent when PostgreSQL and Redis answer; otherwise starts or installs them, or
# says how to get them. run checks DATABASE_URL and REDIS_URL, the tests
# NESTEGG_TEST_DATABASE_URL and NESTEGG_TEST_REDIS_URL.
services: ## Make sure PostgreSQL and Redis answer (start or install them, or say how)
	@bash .ci/services $(SERVICES_FOR)

run: SERVICES_FOR := run
test test-short: SERVICES_FOR := test

test: services ## Run every test against the local PostgreSQL and Redis, with the race detector
	go test -race -count=1 ./...

test-short: services ## Run the tests without the race detector (faster feedback)
	go test -count=1 ./...

RUN_BIN := $(or $(TMPDIR),/tmp)/nestegg-run/nestegg
run: services ## Run the service on :8080 with local PostgreSQL and Redis
	@echo "compiling ./cmd/nestegg (the first build on a 2-core machine takes several minutes, later ones seconds)"
	@go build -o $(RUN_BIN) ./cmd/nestegg
	@echo "starting nestegg: creating the database if missing and applying migrations"
	@exec $(RUN_BIN)

test-clean: ## Remove what an interrupted test run left: test and template databases, private redis-servers
	@psql "$(TEST_ADMIN_URL)" -Atc "SELECT datname FROM pg_database WHERE datname LIKE 'nestegg\_test\_%' OR datname LIKE 'nestegg\_tpl\_%'" | \
	while read -r d; do echo "dropping database $$d"; psql "$(TEST_ADMIN_URL)" -qc "DROP DATABASE IF EXISTS \"$$d\" WITH (FORCE)"; done
	@redis-cli -u "$(or $(NESTEGG_TEST_REDIS_URL),redis://127.0.0.1:6379/0)" --scan --pattern 'nestegg-test:*' | \
	xargs -r -n 500 redis-cli -u "$(or $(NESTEGG_TEST_REDIS_URL),redis://127.0.0.1:6379/0)" DEL >/dev/null
	@# Tests that stop Redis start their own redis-server on a free port (never 6379).
	@for pid in $$(pgrep -f '^redis-server 127\.0\.0\.1:[0-9]+' || true); do \
		case "$$(tr '\0' ' ' < /proc/$$pid/cmdline)" in *:6379*) ;; *) echo "stopping private redis-server $$pid"; kill $$pid;; esac; done

# -p 1: one package's benchmarks at a time. Run side by side (go test's
# default), a heavy one (a restore of the largest backup) shared the two
# cores with another package's measured runs and their floors; in one such
# run the entry create benchmark failed on two 503 answers.
bench: ## Go benchmarks, then make load (BENCH_SCALE=0.1 seeds a tenth of the growth data set)
	go test -p 1 -run '^$$' -bench . -benchmem -benchtime $(BENCH_TIME) ./...
	@$(MAKE) --no-print-directory load

LOAD_ADDR ?= 127.0.0.1:18080
LOAD_DB   ?= nestegg_bench
LOAD_URL  := $(subst /nestegg?,/$(LOAD_DB)?,$(DB_URL))
# The large data set of the growth runs has a server and a database of its
# own, so that small and large are measured in interleaved rounds.
LOAD_LARGE_ADDR ?= 127.0.0.1:18082
LOAD_LARGE_DB   ?= nestegg_bench_large
LOAD_LARGE_URL  := $(subst /nestegg?,/$(LOAD_LARGE_DB)?,$(DB_URL))
# The servers log every request at info, as in production (to files, whose
# errors are counted at the end), in memory (/dev/shm where there is one):
# written to the disk PostgreSQL commits to, the log's 270 MB a run competed
# with the commits of the service's creates and not with the floor's, which
# logs nothing (internal/loadtest/README.md, run 16). Afterwards the logs, the
# databases and the Redis keys the run used (dbs 1 and 2) are removed.
# LOAD_BIN=path runs make load against a server binary built elsewhere
# (default: ./cmd/nestegg of this tree, built first).
load: ## Start servers on 127.0.0.1:18080 and :18082 (databases nestegg_bench and nestegg_bench_large, Redis dbs 1 and 2), load them against the floors, clean up
	@set -e; dir=$$(mktemp -d); logs=$$(mktemp -d -p /dev/shm 2>/dev/null || echo $$dir); bin=$(or $(LOAD_BIN),$$dir/nestegg); [ -n "$(LOAD_BIN)" ] || go build -o $$bin ./cmd/nestegg; \
	HTTP_ADDR=$(LOAD_ADDR) LOG_LEVEL=info STORE_TEST_MODE=true SIGNUP_LIMIT_PER_HOUR=10000 REDIS_URL=redis://127.0.0.1:6379/1 TRUSTED_PROXIES=127.0.0.1/32 \
	  DATABASE_URL=$(LOAD_URL) $$bin 2>$$logs/server.log & pid=$$!; \
	HTTP_ADDR=$(LOAD_LARGE_ADDR) LOG_LEVEL=info STORE_TEST_MODE=true SIGNUP_LIMIT_PER_HOUR=10000 REDIS_URL=redis://127.0.0.1:6379/2 TRUSTED_PROXIES=127.0.0.1/32 \
	  DATABASE_URL=$(LOAD_LARGE_URL) $$bin 2>$$logs/server-large.log & lpid=$$!; \
	trap "kill $$pid $$lpid 2>/dev/null; wait $$pid $$lpid 2>/dev/null; \
	  echo \"server logs: \$$(cat $$logs/server*.log | wc -l) lines, \$$(cat $$logs/server*.log | grep -c '\"level\":\"ERROR\"') errors\"; rm -rf $$dir $$logs; \
	  for d in $(LOAD_DB) $(LOAD_LARGE_DB); do psql '$(subst /nestegg?,/postgres?,$(DB_URL))' -qc \"DROP DATABASE IF EXISTS \$$d WITH (FORCE)\"; done; \
	  for n in 1 2; do redis-cli -n \$$n --scan --pattern 'nestegg:*' | xargs -r -n 500 redis-cli -n \$$n DEL >/dev/null; done; \
	  echo 'removed databases $(LOAD_DB) and $(LOAD_LARGE_DB) and the nestegg:* keys of Redis dbs 1 and 2'" EXIT; \
	for a in $(LOAD_ADDR) $(LOAD_LARGE_ADDR); do for i in $$(seq 1 100); do curl -fs http://$$a/readyz >/dev/null && break; sleep 0.2; done; done; \
	NESTEGG_LOAD_URL=http://$(LOAD_ADDR) REDIS_URL=redis://127.0.0.1:6379/1 DATABASE_URL=$(LOAD_URL) \
	  NESTEGG_LOAD_LARGE_URL=http://$(LOAD_LARGE_ADDR) LARGE_DATABASE_URL=$(LOAD_LARGE_URL) \
	  go test -count=1 -timeout 40m -run '^(TestLoad|TestGrowth)$$' -v ./internal/loadtest | tee $$dir/load.out; \
	grep -hE 'TARGET|GROWTH|BOOKS' $$dir/load.out | sed 's/^ *load_test.go:[0-9]*: //'

# The same driver against servers built from other commits (issue 44: speed
# stays flat), e.g. make load-compare LOAD_REVS="0be71b5^1 0be71b5 main".
load-compare: ## make load's TestLoad against a server built from each of LOAD_REVS (the first the baseline), interleaved
	@DB_URL='$(DB_URL)' bash internal/loadtest/compare.sh $(LOAD_REVS)

db-reset: ## Drop and recreate the local database (migrations run on next start)
	psql "$(subst /nestegg?,/postgres?,$(DB_URL))" -c 'DROP DATABASE IF EXISTS nestegg WITH (FORCE)'
	psql "$(subst /nestegg?,/postgres?,$(DB_URL))" -c 'CREATE DATABASE nestegg'
