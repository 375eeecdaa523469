"""Training bots by self-play (``takujo train``): Deep Monte Carlo on the research adapters.

Needs torch (``pip install "takujo[train]"``); the bot it produces plays with numpy only
(`takujo.bots.learned`).
"""
