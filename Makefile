# Builds Pivot the way OpenBench (and other testing frameworks) expect: `make EXE=<name>`
# leaves a release binary called <name> in this directory. `make` alone builds ./pivot.
# The binary's `bench` ends with the line `<nodes> nodes <nps> nps`.

EXE ?= pivot

.PHONY: all clean

all:
	cargo rustc --release -p pivot --bin pivot -- --emit link=$(EXE)

clean:
	cargo clean
	rm -f $(EXE)
