"""One base error for everything that stops the audit from doing its job.

These are "our input is bad" errors (a ruleset file, a log root, an argument).
"The platform's record is wrong" is never an exception: it is a Finding.
"""

from __future__ import annotations


class AuditError(Exception):
    """Base of every error the CLI turns into one line and an exit status.

    >>> str(AuditError("the log root has no events/ folder", slug="log-root"))
    'the log root has no events/ folder'
    """

    slug = "audit-error"

    def __init__(self, message: str, *, slug: str | None = None) -> None:
        super().__init__(message)
        if slug is not None:
            self.slug = slug


class CardError(AuditError, ValueError):
    """A string that is not a card code of the log contract."""

    slug = "card-code"


class RulesetError(AuditError):
    """A rule preset that is missing, malformed or holds an unknown key or bad value."""

    slug = "ruleset"


class LogFormatError(AuditError):
    """A log file or table that breaks the input contract."""

    slug = "log-format"


class SchemaVersionError(LogFormatError):
    """A log file written for a schema version this audit does not know."""

    slug = "schema-version"
