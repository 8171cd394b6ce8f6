"""Playing in a web browser: `rulesdsl serve` (needs the `serve` extra: Starlette, uvicorn).

Stage: serving, above run. `table.py` holds a game and its seats and says what each client
is sent; `screen.py` describes how to draw a rule file's game; `app.py` is the web server;
`static/` is the page (plain HTML, CSS and JavaScript, no build step).
"""
