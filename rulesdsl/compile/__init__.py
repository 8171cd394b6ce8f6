"""Compile (stage 4 of the pipeline): the code generator and its passes.

A checked AST becomes a `program.Program`; see `compiler.compile_program`.
"""
