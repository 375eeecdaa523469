"""戦国大戦 双 TCG: a two-player trading card game of castle walls, kokuryoku and warlords."""
