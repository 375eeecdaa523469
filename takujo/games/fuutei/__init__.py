"""風帝伝説FIGHTER カードゲーム (15周年版): multiplayer dice combat over regions."""
