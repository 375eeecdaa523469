"""ドラフト戦国大名: draft cards, hire and march soldiers, and rule the most of the map."""
