"""The player view (issue 29): a server's party on a web page, served by the bot process itself with
aiohttp when ``WEB_PORT`` is set. ``page``: the HTML; ``feed``: what tells the open pages of a change;
``limits``: the per-address limits; ``server``: the routes and the security headers."""
