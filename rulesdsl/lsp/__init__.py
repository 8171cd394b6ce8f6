"""The language server (`rulesdsl lsp`): diagnostics as you type, hover, go to definition,
references, rename, completion, outline and semantic highlighting for rule files.

Stage: editor support, beside the pipeline: it parses (incrementally), resolves variants
and checks like `rulesdsl check`, and reads the AST, the checker's Analysis and the
diagnostics; it never reaches into the interpreter's run-time state. It needs pygls
(`pip install 'rulesdsl[lsp]'`); this package imports it only in `server`.
"""
