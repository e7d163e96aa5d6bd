"""Reading the nightly game logs: the input contract and its checks."""
