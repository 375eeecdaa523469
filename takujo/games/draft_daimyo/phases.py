"""The phases of a game of ドラフト戦国大名, as `DaimyoState.phase` names them (shared by the
state and battle modules)."""

ORDER, DRAFT, CHOOSE, CARD, BASIC, BASIC_DONE, TACTIC, OVER = (
    "order", "draft", "choose", "card", "basic", "basic_done", "tactic", "over")
