"""Fair play: statistics over a whole night that find what no single hand breaks: pairs who
sit together too often, share a device, feed each other, soft-drop or dump chips, rings of
them, and bots. ``night.run_detectors`` runs them all; docs/fairplay.md says what each one
tests and what it cannot see."""
