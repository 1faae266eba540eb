# gocccl: `make demo` runs the example, `make test` runs what CI runs.
# Both install Debian's CUDA toolkit first when nvcc is missing.

GO      ?= go
export PATH := $(CURDIR)/bin:$(PATH):/usr/local/go/bin
GEN     := bin/gocccl-gen
# Generated packages: examples, the GPU conformance and differential suites and the bench kernels.
GENPKGS := ./examples/... ./internal/devicetest/... ./internal/difftest ./bench/...

.PHONY: all toolkit build generate check demo test bench gpu-bundle clean

all: build

toolkit:
	@bash scripts/install-cuda-toolkit.sh

build:
	$(GO) build -o $(GEN) ./cmd/gocccl-gen

generate: toolkit build
	$(GO) generate $(GENPKGS)

check: build
	$(GEN) check $(GENPKGS)

demo: toolkit build
	$(GO) generate ./examples/sum
	$(GO) run ./examples/sum

test: toolkit build
	$(GO) vet ./...
	CGO_ENABLED=0 $(GO) build ./...
	CGO_ENABLED=0 $(GO) vet ./...
	GOCCCL_REQUIRE_NVCC=1 $(GO) test ./...
	$(GEN) check $(GENPKGS)

bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./runtime/...

# Cross-builds the GPU test and bench binaries into gpu-bundle/ (ignored by
# git), with a run script; carry the folder to a GPU machine and run
# `bash gpu-bundle/run.sh`.
gpu-bundle: build
	bash scripts/gpu-bundle.sh gpu-bundle

clean:
	rm -rf bin gpu-bundle
