"""What each game is: cards, deal layout, legal moves, apply, end, score, variants."""
