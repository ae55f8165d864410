#!/usr/bin/env python3
"""Reads a JUnit XML file with junitparser (a real JUnit consumer) and prints, as JSON, what it
understood: per suite its name and counts, and every case's class, name and result kind.
ChatEval's report tests compare that with what the report meant to say."""
import json
import sys

from junitparser import Error, Failure, JUnitXml, Skipped

xml = JUnitXml.fromfile(sys.argv[1])
suites = []
for suite in xml:
    cases = []
    for case in suite:
        kinds = [type(result).__name__.lower() for result in case.result if isinstance(result, (Failure, Error, Skipped))]
        cases.append({"classname": case.classname, "name": case.name, "result": kinds[0] if kinds else "passed",
                      "message": case.result[0].message if case.result else None})
    suites.append({"name": suite.name, "tests": suite.tests, "failures": suite.failures, "errors": suite.errors,
                   "skipped": suite.skipped, "cases": cases})
print(json.dumps({"suites": suites}))
