"""Chinese Solitaire's engine: how a deal is searched (the rules are ``winnable.rules.chinese``).

* ``position``: the searched position (the rules' arrays plus card places) and its fingerprint;
* ``search``: the depth-first search over classes of positions, with the reductions it proves;
* ``losses``: the delete-relaxation tests that prove a position lost without searching it;
* ``beam``: a beam search for wins that need an unusual opening;
* ``thoughtful``: the driver that spends a deal's budget on all of these (the ``thoughtful``
  solver);
* ``nopeek``: the players who see only what a person sees (``strategy``, ``sampling``);
* ``critical``: the critical-path loss test h^2 over a STRIPS model of the game.

``docs/chinese-engine.md`` tells in one page how a deal is searched.
"""
