"""The HTML report: view models built from the outputs, then rendered (templates in reports/)."""
