"""A unittest case with its own temporary directory (shared by the Python test scripts)."""
import os
import tempfile
import unittest


class TempCase(unittest.TestCase):
    """self.dir is a fresh temporary directory for each test; self.p(name) a path inside it."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def p(self, name):
        return os.path.join(self.dir, name)
