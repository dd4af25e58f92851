"""Letters from Whitechapel, the one game that needs several rooms.

- ``rules``: the game itself (Jack's move sheet, searches, arrests); the registry finds it.
- ``board``: board files, the graph of circles, roads and alleys, Jack's legal moves.
- ``deduction``: where Jack may be, from public facts only.
- ``boardmap``: what a page's map draws, from that page's view.

Pure like every game: nothing here imports Flask, SQL or the platform.
"""
