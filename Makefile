# The two set-up commands of the README: `make demo` and `make test`.
# Both install what the project needs on a fresh Debian machine (libz3-dev
# via apt-get; Go modules via the module proxy) when it is missing.

GO ?= go
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
DEMO ?= testdata/check/appendix_a.c

.PHONY: deps build demo test vet fmt-check bench bench-corpus bench-lint bench-calls bench-scaling bench-real fuzz

deps:
	@if [ ! -f /usr/include/z3.h ]; then \
		echo "installing libz3-dev (Z3 for the interference engine)"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libz3-dev; \
	fi
	@if ! command -v dot >/dev/null; then \
		echo "installing graphviz (tests render --dot and --explain-dot with stock dot)"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq graphviz; \
	fi
	@if [ -d ../shared/corpus/real ] && { [ ! -f /usr/include/zlib.h ] || [ ! -f /usr/include/event.h ]; }; then \
		echo "installing zlib1g-dev libevent-dev (headers of the real corpus: TestRealCorpus)"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq zlib1g-dev libevent-dev; \
	fi
	@$(GO) mod download

build: deps
	$(GO) build -buildvcs=auto -o bin/chorus ./cmd/chorus

# The demo proves DESIGN.md Appendix A for any number of producers and
# consumers, then shows the warning on its broken variant (exit 1 expected).
demo: build
	@echo '== chorus check --checks assert $(DEMO)'
	./bin/chorus check --checks assert $(DEMO)
	@echo '== the variant without the consumer lock:'
	./bin/chorus check --checks assert testdata/check/appendix_a_nolock.c; \
	status=$$?; [ $$status -le 1 ] || exit $$status

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed: $$out"; exit 1; fi

test: deps fmt-check vet
	$(GO) test -timeout 60m ./...

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem ./domains ./datalog

# Time per phase on the corpus (needs ../shared): SV-COMP tasks, then the
# 30 DDVerify drivers (floppy takes about 10 minutes); then the real binary
# next to gcc -fsyntax-only per SV-COMP directory and per driver, with
# their ratio and peak memory (TestCorpusSpeed).
bench-corpus: deps
	$(GO) test ./cmd/chorus -count=1 -timeout 180m -v -run 'SVCOMPNoWrongSafe|DDVerify|CorpusSpeed' -args -corpus-report -ddverify -corpus-speed -corpus-timeout 20m

# Throughput of chorus check -j 1 / -j 2 on the 30 DDVerify drivers, the
# warm result cache, and cppcheck on the same files (installed if missing).
bench-lint: deps
	@command -v cppcheck >/dev/null || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq cppcheck; }
	$(GO) test ./cmd/chorus -count=1 -timeout 180m -v -run 'LintBench' -args -lint-bench -lint-all -corpus-timeout 20m

# Size against cost with shared function bodies (needs ../shared): per
# DDVerify driver and real-corpus file, source lines, locations, shared
# bodies and calls, cells, DFG edges, time, peak heap; growth exponents.
bench-calls: deps
	$(GO) test ./cmd/chorus -count=1 -timeout 120m -v -run 'CallScaling' -args -call-scaling -corpus-timeout 10m

# The same over synthetic driver-like programs (internal/drivergen) of about
# 1 to 100 kLOC: growth exponents on code whose shape does not change.
bench-scaling: deps
	$(GO) test ./cmd/chorus -count=1 -timeout 120m -v -run 'SyntheticScaling' -args -synthetic-scaling=45,90,225,450,900,2250,4500 -corpus-timeout 10m

# Every translation unit of the real projects (needs ../shared): per project
# units, checks, proven/unproven, chorus and gcc -fsyntax-only time.
bench-real: deps
	$(GO) test ./cmd/chorus -count=1 -timeout 180m -v -run 'RealCorpus' -args -real-corpus

fuzz: deps
	$(GO) test -run '^$$' -fuzz FuzzBuild -fuzztime 10m ./cfg
