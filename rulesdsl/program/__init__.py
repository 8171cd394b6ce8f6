"""The contract between compile and run.

A compiled `Program`, the layout of the state it works on, the run-time helpers its
generated code calls, and how values look. The run side (`interpreter/`) imports this
package and never the code generator (`compile/`).
"""
