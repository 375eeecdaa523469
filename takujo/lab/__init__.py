"""The balance lab: paired experiments comparing variants of a game's rules, their
statistics, stored results and reports.

    takujo sim ibara --players 4 --compare ryan_last=false,true --games 400 --out DIR
    takujo report DIR
"""
