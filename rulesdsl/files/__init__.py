"""Reading and keeping files: which files a rule file, a record or a save may name, the caps
on their size, and the user's signed cache folder.

Stage: foundation (below the parser; imports nothing of the pipeline).
"""
