"""Hand replay: a deterministic state machine per hand, and the outcomes it implies."""
