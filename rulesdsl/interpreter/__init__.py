"""Compile checked rules and run them (stages 4 and 5): see `game.Rules` and `game.Game`."""
