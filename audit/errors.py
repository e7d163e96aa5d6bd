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


def one_line(text: str) -> str:
    """`text` with every character that is not printable (a newline, a tab, any other
    control or separator character) written as Python's ``repr`` writes it, without
    quotes: a file name or an id from the logs, put into a message or a quarantine reason,
    keeps it on one line. The printable text, non-ASCII included, is left as it is, and an
    escaped text stays as it is (``one_line(one_line(t)) == one_line(t)``).

    >>> print(one_line('bad\\nhand "id"\\t\\x00'))
    bad\\nhand "id"\\t\\x00
    >>> one_line("joueur-é")
    'joueur-é'
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def first_line(error: BaseException) -> str:
    """The first line of ``error``'s message (its type's name when it has none), kept on
    one line by ``one_line``.

    >>> first_line(ValueError("Out of Memory Error: 61 MiB used\\nPossible solutions: ..."))
    'Out of Memory Error: 61 MiB used'
    >>> first_line(KeyError())
    'KeyError'
    """
    return one_line((str(error).splitlines() or [type(error).__name__])[0])


def first_line_under(error: BaseException, root: object) -> str:
    """``first_line`` of ``error``, a path under ``root`` written relative to it (DuckDB
    names the file it failed on by the path it was given).

    >>> first_line_under(ValueError("Failed to read /logs/events/a.parquet\\nmore"), "/logs")
    'Failed to read events/a.parquet'
    """
    return first_line(error).replace(one_line(f"{root}/"), "")
