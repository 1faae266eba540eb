# gocccl: `make demo` runs the example, `make test` runs what CI runs.
# Both first install the project's CUDA toolkit (nvcc 13.0 and CCCL 3.0 from
# NVIDIA's wheels, no root) when it is missing, and generate with it.

GO      ?= go
export PATH := $(CURDIR)/bin:$(PATH):/usr/local/go/bin
GEN     := bin/gocccl-gen
# Generated packages: examples, the GPU conformance and differential suites and the bench kernels.
GENPKGS := ./examples/... ./conformance/devicetest/... ./conformance/difftest ./bench/...

# The toolkit scripts/install-cuda-toolkit.sh installs, and its nvcc, which
# generation uses unless $GOCCCL_NVCC names another. NVCC11 is Debian's nvcc
# 11.8 (scripts/install-debian-nvcc.sh): when it is there, `make test` also
# compiles every generated package with it (compile-check).
export GOCCCL_TOOLKIT_DIR ?= $(or $(XDG_DATA_HOME),$(HOME)/.local/share)/gocccl/cuda13
NVCC13  := $(GOCCCL_TOOLKIT_DIR)/nvidia/cu13/bin/nvcc
export GOCCCL_NVCC ?= $(NVCC13)
NVCC11  ?= $(wildcard /usr/bin/nvcc)

.PHONY: all toolkit build generate check compile-check demo test bench gpu-bundle clean

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
	$(GO) test -race -short ./conformance/devicetest/concurrency ./iterator ./runtime/group ./runtime/dlpack
	$(GEN) check $(GENPKGS)
	$(if $(NVCC11),$(MAKE) compile-check,@echo "compile-check: skipped, no nvcc 11.8 (scripts/install-debian-nvcc.sh installs it)")

# Compiles the kernel headers and every generated package's CUDA source with
# both toolchains (CCCL 3 and CUB 1.17), for sm_90.
compile-check: toolkit
	bash scripts/compile-check.sh $(NVCC13) $(NVCC11)

bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./runtime/...

# Cross-builds the GPU test and bench binaries into gpu-bundle/ (ignored by
# git), with a run script; carry the folder to a GPU machine and run
# `bash gpu-bundle/run.sh`.
gpu-bundle: build
	bash scripts/gpu-bundle.sh gpu-bundle

clean:
	rm -rf bin gpu-bundle
