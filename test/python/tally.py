"""The pass/fail count of the Python tests, and the closing line
(`N passed, N failed`) that the test runners read."""
import sys


class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("FAILED:", what)

    def finish(self, extra_failures=0):
        """Prints the closing line and exits: 1 on any failure."""
        self.failed += extra_failures
        print("%d passed, %d failed" % (self.passed, self.failed))
        sys.exit(1 if self.failed else 0)
