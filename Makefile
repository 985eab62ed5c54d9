# relavium — make targets. `make test` is the one command that runs every test.
GO        ?= go
BIN       ?= bin/relavium
PKGS      ?= ./...
PEERS     ?= $(CURDIR)/.peers
BENCHTIME ?= 1s
# The version a build says (relavium --version): git describe, stamped with
# -ldflags -X. Empty outside a git checkout: the binary then reads what the
# go command recorded (the module version under go install …@vX).
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null)
LDFLAGS   ?= -X main.version=$(VERSION)

# Tests that need the npm peers (node 22, the conformance suite,
# server-everything, server-filesystem, inspector-cli) read RELAVIUM_PEERS;
# with RELAVIUM_REQUIRE_PEERS=1 a missing peer fails instead of skipping.
PEERS_ENV = RELAVIUM_PEERS=$(PEERS) RELAVIUM_REQUIRE_PEERS=1

.PHONY: build cross test lint bench peers conformance conformance-server conformance-client interop screenshot clean

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) .

# The six release targets (.goreleaser.yaml builds the same; a test holds
# the two lists together): each built, stamped as make build stamps,
# nothing kept. Cached after the first run, so CI stays fast.
CROSS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64

cross:
	@for t in $(CROSS); do \
		echo "go build $$t"; \
		GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o /dev/null . || exit 1; \
	done

# gofmt over every Go file git knows or would add (tracked and untracked,
# not ignored), then go vet.
lint:
	@out=$$(gofmt -l $$(git ls-files --cached --others --exclude-standard '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

# Installs the npm peers into $(PEERS) (cached: nothing is fetched when they
# are present at the pinned versions) and prints their paths.
peers:
	.ci/peers.sh $(PEERS)

test: lint peers
	$(PEERS_ENV) $(GO) test -race -count=1 $(PKGS)

# One line per BenchmarkRatio* benchmark: measured vs target, PASS/OVER.
bench:
	BENCHTIME=$(BENCHTIME) PKGS="$(PKGS)" .ci/bench.sh

# The official conformance suite, 0.1.16 and 0.2.0-alpha.12 --requirements
# 2026-07-28: the SERVER suites against the demo server, then the CLIENT
# scenarios against relavium as a client (.ci/conformance.sh says what must pass).
conformance: conformance-server conformance-client

conformance-server: build peers
	RELAVIUM_BIN=$(CURDIR)/$(BIN) RELAVIUM_PEERS=$(PEERS) .ci/conformance.sh server

conformance-client: build peers
	RELAVIUM_BIN=$(CURDIR)/$(BIN) RELAVIUM_PEERS=$(PEERS) .ci/conformance.sh client

# relavium against pinned real peers (docs/interop.md): the TypeScript SDK's
# example servers (its --oauth demo included), the reference servers, and
# inspector-cli 1.0.3 and Inspector v2 --cli as clients of mcp serve,
# demo-server and replay. One row per peer and verb; any failure fails.
interop: build peers
	RELAVIUM_BIN=$(CURDIR)/$(BIN) RELAVIUM_PEERS=$(PEERS) .ci/interop.sh

# The README screenshot: `relavium demo` in tmux, one ANSI frame captured,
# rendered to testdata/tui/screenshot.png by charmbracelet/freeze.
screenshot: build
	bash testdata/tui/screenshot.sh $(BIN)

clean:
	rm -rf bin
