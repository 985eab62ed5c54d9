# relavium — make targets. `make test` is the one command that runs every test.
GO      ?= go
BIN     ?= bin/relavium
PKGS    ?= ./...

.PHONY: build test lint bench conformance clean

build:
	$(GO) build -o $(BIN) .

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

test: lint
	$(GO) test -race -count=1 $(PKGS)

bench:
	$(GO) run ./testdata/benchratio

conformance: build
	bash testdata/conformance/run.sh $(BIN)

clean:
	rm -rf bin
