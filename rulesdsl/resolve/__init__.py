"""Resolve (stage 2 of the pipeline): one file's AST made whole.

The catalogue of shipped games, variants and their edits of the base, data files, and the
text of a declaration as written (for `rulesdsl diff` and the editor).
"""
