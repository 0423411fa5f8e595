"""The package's one exception: a file that is not a readable gpuscope report."""


class ReportError(Exception):
    """A file that is not a readable gpuscope report (missing, damaged, not a report, or a
    value in it that cannot be true); its message is one line that names the file, as the
    C++ reader's errors are."""

    def __init__(self, message):
        # One line, whatever a damaged file puts into the message (a name, SQLite's text).
        super().__init__(" ".join(str(message).split()))
