"""Frames for ``render_mode="rgb_array"``, drawn with NumPy alone: a grid of coloured cells,
discs, and numbers in a 3 x 5 bitmap font. A frame is a ``uint8`` array of shape
``(rows * cell, cols * cell, 3)``, its shape fixed by the board's size."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

Frame = npt.NDArray[np.uint8]
Color = tuple[int, int, int]

# Pixels per cell on a board of up to 16 cells a side; larger boards get smaller cells, at
# least MIN_CELL (numbers are left out below TEXT_CELL).
CELL = 32
MIN_CELL = 2
TEXT_CELL = 10
# Frames are at most this many pixels a side where the cells allow it.
MAX_SIDE = 512

GRID: Color = (40, 40, 40)
WHITE: Color = (255, 255, 255)
BLACK: Color = (0, 0, 0)

# The digits 0-9, three columns by five rows.
_FONT = np.array(
    [
        [[1, 1, 1], [1, 0, 1], [1, 0, 1], [1, 0, 1], [1, 1, 1]],
        [[0, 1, 0], [1, 1, 0], [0, 1, 0], [0, 1, 0], [1, 1, 1]],
        [[1, 1, 1], [0, 0, 1], [1, 1, 1], [1, 0, 0], [1, 1, 1]],
        [[1, 1, 1], [0, 0, 1], [1, 1, 1], [0, 0, 1], [1, 1, 1]],
        [[1, 0, 1], [1, 0, 1], [1, 1, 1], [0, 0, 1], [0, 0, 1]],
        [[1, 1, 1], [1, 0, 0], [1, 1, 1], [0, 0, 1], [1, 1, 1]],
        [[1, 1, 1], [1, 0, 0], [1, 1, 1], [1, 0, 1], [1, 1, 1]],
        [[1, 1, 1], [0, 0, 1], [0, 0, 1], [0, 0, 1], [0, 0, 1]],
        [[1, 1, 1], [1, 0, 1], [1, 1, 1], [1, 0, 1], [1, 1, 1]],
        [[1, 1, 1], [1, 0, 1], [1, 1, 1], [0, 0, 1], [1, 1, 1]],
    ],
    dtype=bool,
)


def cell_size(rows: int, cols: int) -> int:
    """The pixels per cell of a ``rows`` x ``cols`` board."""
    return max(MIN_CELL, min(CELL, MAX_SIDE // max(rows, cols)))


class Canvas:
    """A board's frame being drawn, cell by cell."""

    def __init__(self, rows: int, cols: int, cell: int = 0) -> None:
        self.cell = cell or cell_size(rows, cols)
        self.image: Frame = np.empty((rows * self.cell, cols * self.cell, 3), np.uint8)
        self.image[:] = GRID
        # A cell's border: one pixel between neighbours once cells are large enough.
        self.inset = 1 if self.cell >= 6 else 0

    def _box(self, r: int, c: int, inset: int) -> Any:
        top, left = r * self.cell + inset, c * self.cell + inset
        size = self.cell - 2 * inset
        return self.image[top : top + size, left : left + size]

    def fill(self, r: int, c: int, color: Color, inset: int = 0) -> None:
        """Fills cell (r, c), less ``inset`` pixels on each side within its border."""
        self._box(r, c, self.inset + inset)[:] = color

    def fill_grid(self, colors: npt.NDArray[np.uint8]) -> None:
        """Fills every cell at once: ``colors`` is (rows, cols, 3)."""
        cell, inset = self.cell, self.inset
        big = np.repeat(np.repeat(colors, cell, axis=0), cell, axis=1)
        if inset:
            inside = np.zeros(cell, bool)
            inside[inset : cell - inset] = True
            rows = np.tile(inside, colors.shape[0])
            cols = np.tile(inside, colors.shape[1])
            mask = rows[:, None] & cols[None, :]
            self.image[mask] = big[mask]
        else:
            self.image[:] = big

    def disc(self, r: int, c: int, color: Color, radius: float = 0.36) -> None:
        """A disc of ``radius`` cells at the centre of cell (r, c)."""
        box = self._box(r, c, 0)
        size = box.shape[0]
        y, x = np.ogrid[:size, :size]
        middle = (size - 1) / 2
        box[(y - middle) ** 2 + (x - middle) ** 2 <= (radius * size) ** 2] = color

    def number(self, r: int, c: int, value: int, color: Color) -> None:
        """``value`` (0 or more) in the font, centred in cell (r, c); left out when the cell is
        too small to read."""
        digits = [int(d) for d in str(value)]
        width = 4 * len(digits) - 1
        scale = int(min(0.7 * self.cell / width, 0.6 * self.cell / 5))
        if self.cell < TEXT_CELL or scale < 1:
            return
        glyphs = np.zeros((5, width), bool)
        for i, d in enumerate(digits):
            glyphs[:, 4 * i : 4 * i + 3] = _FONT[d]
        mask = np.kron(glyphs, np.ones((scale, scale), bool)).astype(bool)
        box = self._box(r, c, 0)
        top = (box.shape[0] - mask.shape[0]) // 2
        left = (box.shape[1] - mask.shape[1]) // 2
        box[top : top + mask.shape[0], left : left + mask.shape[1]][mask] = color
