"""The rules of a match and a bracket: the model, players, formats, bidding, the match chain, the
draw and the walkover rule. Everything else walks these definitions; nothing here walks them."""
