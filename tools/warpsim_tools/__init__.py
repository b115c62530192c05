"""warpsim experiment tooling: sweeps (local or SLURM), a results database,
plots and reports. Standard library only, plus matplotlib for figures.

Entry point: tools/warpsim-tools (what `warpsim sweep|query|report` runs)."""
