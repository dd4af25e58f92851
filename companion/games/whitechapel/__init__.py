"""Letters from Whitechapel, the one game that needs several rooms.

- ``rules``: the game itself (setup, Jack's move sheet, searches, arrests, an imported
  state); the registry finds it, and it hands on ``views``' ``view``.
- ``state``: the game's vocabulary, what is read from a state, and ``actions``; both
  ``rules`` and ``views`` read the state through it, and it imports neither.
- ``views``: what each seat sees, and the public facts the deduction reads.
- ``board``: board files, the graph of circles, roads, alleys and police crossings,
  Jack's legal moves, the roads policemen close.
- ``deduction``: where Jack may be, from public facts only.
- ``boardmap``: what a page's map draws, from that page's view.
- ``policemap``: the police map (police on the map): where the policemen stand, and
  the crossings a detective may tap, every target a thumb's size.
- ``boards/``: the board shipped with the companion and its sources' notices.

Pure like every game: nothing here imports Flask, SQL or the platform.
"""
