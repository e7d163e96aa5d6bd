"""The rules engine: rulesets as data, melds, declarations and scoring. Knows nothing of Parquet."""
