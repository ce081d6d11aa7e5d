"""Reading and writing the project's files safely, for every layer: the lowest package, which
imports nothing of the project.

- `safeio.yamlfile`: the bounded YAML reader behind every file format a table writes by hand
  (boards, event decks, house rules, vision settings): size, depth and alias limits, and errors
  that name the file, the line and the field.
- `safeio.files`: file operations that never follow a link planted in a data folder, the ones the
  save store and the card downloads share.

They lived in `boards` and `companion.game` before; neither is about the physical board or the
game, and the card downloads had to import the game's journal to reach them.
"""
