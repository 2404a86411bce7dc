# gymlint developer targets. `make test` is what CI runs.
GO       ?= go
# The short fuzz run is counted in executions, not seconds: a duration-based
# -fuzztime races Go 1.26's fuzz coordinator at the deadline and fails with a
# bare "context deadline exceeded" and no crasher (go.dev/issue/75804, fixed
# in Go 1.27). Each count is about 10 s on a 2-core machine. FUZZTIME, when
# set (make fuzz FUZZTIME=5m), replaces every count.
FUZZTIME ?=
fuzztime = $(if $(FUZZTIME),$(FUZZTIME),$(1))
ROOT     ?= testdata/gymrepo

.PHONY: build test check vet fmt unit fuzz bench bench-go golden docs demo

build:
	$(GO) build -o gymlint ./cmd/gymlint

demo: build
	./gymlint $(ROOT) || test $$? -eq 1

# Everything CI checks: formatting, vet, every test, and a short fuzz run of each parser.
test: check unit fuzz

check: fmt vet

fmt:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

unit:
	$(GO) test -count=1 ./...

fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(call fuzztime,20000x) ./pyscan
	$(GO) test -run '^$$' -fuzz '^FuzzParseIncremental$$' -fuzztime $(call fuzztime,20000x) ./pyscan
	$(GO) test -run '^$$' -fuzz '^FuzzDirectWalk$$' -fuzztime $(call fuzztime,100000x) ./pyscan
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(call fuzztime,100000x) ./configscan
	$(GO) test -run '^$$' -fuzz '^FuzzRefusal$$' -fuzztime $(call fuzztime,15000x) ./analyzers/workers/refusal
	$(GO) test -run '^$$' -fuzz '^FuzzRead$$' -fuzztime $(call fuzztime,300000x) ./lsp/protocol

# Regenerate the golden outputs and docs/rules.md after an intended change.
golden:
	$(GO) test ./cli -run 'TestGolden|TestServersGolden' -update
	$(GO) test ./analyzers/rayenabled -run TestRayrepoGolden -update
	$(GO) test ./analyzers/workers -run TestRefusalRepoGolden -update-refusal
	$(GO) test ./analyzers/workers -run TestStateRepoGolden -update-state
	$(GO) test ./analyzers/sessions -run TestSessionsrepoAGolden -update-sessions-a
	$(GO) test ./analyzers/sessions -run TestSessionsrepoBGolden -update-sessions-b
	$(GO) test ./lint -run TestRulesDoc -update
	$(GO) test ./schema -run TestPyProjectSchemaIsMade -update

# go test benchmarks (a generated 2,000-server repository).
bench-go:
	$(GO) test -run '^$$' -bench . -benchmem ./lint ./pyscan ./lsp

# gymlint against tree-sitter-only and Python ast baselines on any repository: make bench ROOT=/path/to/repo
bench:
	bench/run.sh $(ROOT)
