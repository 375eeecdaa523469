"""The configurations both libraries' own tests run on: each game's defaults, and its options
switched on (sengoku_taisen's deck1=random is its default: a loaded game deals 蒼 against 紅)."""

SPECS = [
    "fuutei", "fuutei(players=2)", "fuutei(players=6)",
    "fuutei(players=3,center_regions=effects_only,old_region_rule=true,deck_out=failed_draw)",
    "sengoku_taisen", "sengoku_taisen(deck1=random)",
    "sengoku_taisen(deck1=翠,deck2=黒,ougi_timing=main,shippu_then_muso=false)",
    "ibara", "ibara(players=3,multi_card_combat=true,gaiblitz_buff=true)", "ibara(mode=short)",
    "ibara(anger_penalty=discard_all,sp_cards_to_hand=true,ryan_last=true)",
    "draft_daimyo", "draft_daimyo(expansion=true,tactics=true)", "draft_daimyo(players=3,turn_order_choice=true)",
]
