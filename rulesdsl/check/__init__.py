"""Static checks (stage 3 of the pipeline): see `checker.analyze`."""

from .checker import Analysis, analyze

__all__ = ["Analysis", "analyze"]
