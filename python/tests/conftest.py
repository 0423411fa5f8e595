"""Shared fixtures of the Python tests: the report schema (from the C++ build) and scratch
directories."""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from report_fixtures import schema_sql  # noqa: E402


@pytest.fixture(scope="session")
def schema():
    return schema_sql()
