"""いばらの姫と4人の騎士: knights escort a whimsical princess out of a thorny castle."""
