"""The test suite of rulesdsl."""
