"""Letters from Whitechapel, the one game that needs several rooms.

- ``rules``: the game itself (Jack's move sheet, searches, arrests); the registry finds it.
- ``board``: board files, the graph of circles, roads, alleys and police crossings,
  Jack's legal moves, the roads policemen close.
- ``deduction``: where Jack may be, from public facts only.
- ``boardmap``: what a page's map draws, from that page's view.
- ``policemap``: the police map (police on the map): where the policemen stand, and
  the crossings a detective may tap, every target a thumb's size.
- ``boards/``: the board shipped with the companion and its sources' notices.

Pure like every game: nothing here imports Flask, SQL or the platform.
"""
