"""The engine: the loops, the contract's runtime, the policy interface and the scaffolding under study."""
