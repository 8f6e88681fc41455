# Builds Pivot the way OpenBench (and other testing frameworks) expect: `make EXE=<name>`
# leaves a release binary called <name> in this directory. `make` alone builds ./pivot.
# The binary's `bench` ends with the line `<nodes> nodes <nps> nps`. `make EVALFILE=<file>`
# builds that network into the binary instead of src/nnue/pivot.nnue (see build.rs); the
# engine's hidden layer takes that network's width.

EXE ?= pivot
EVALFILE ?=

.PHONY: all clean

all:
	EVALFILE='$(EVALFILE)' cargo rustc --release -p pivot --bin pivot -- --emit link=$(EXE)

clean:
	cargo clean
	rm -f $(EXE)
