"""Gymnasium environments of the single-agent puzzles (registered by ``import ply_games.envs``).

Every environment draws its puzzle from ply's own generators with a seed taken from
``self.np_random``, so ``reset(seed=s)`` gives the same puzzle every time; ``options`` may
give one instead. Each step's ``info`` holds ``action_mask`` (``int8``, 1 for each action that
changes the position), and a step whose action changes nothing costs like a move. Every
environment renders as text (``render_mode="ansi"``) or as an image (``render_mode="rgb_array"``:
a ``uint8`` array of shape (height, width, 3), the same shape for every frame of an
environment, drawn with NumPy alone).

An action is an int (a Python int, a NumPy integer or a 0-d integer array) of the action
space; anything else (a float, a string, a bool, an int outside the space) raises
``ValueError: action -1 is not in Discrete(4)`` and plays nothing. Once an episode has ended
(``terminated``), ``step`` raises ``gymnasium.error.ResetNeeded`` until ``reset`` is called.
"""

from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np
import numpy.typing as npt

from ._extras import explain

try:
    import gymnasium as gym
    from gymnasium import spaces
except ModuleNotFoundError as missing:
    explain(missing, __name__, "gymnasium", "gymnasium")
    raise

from .. import npuzzle, sokoboru
from ._actions import action_index
from ._draw import BLACK, WHITE, Canvas, Color, Frame
from ..mines import EXPLODED, HIDDEN, ClassicGame
from ..mines import Game as MinesGame
from ..mines import Map as MinesMap
from ..mines import generate as generate_map
from ..ewn import solo

Obs = npt.NDArray[Any]
Info = dict[str, Any]

_NPUZZLE_MOVES = "ULRD"
_SOKOBORU_MOVES = "^v<>"
# The eight king steps of single-player EWN, as (row, col) offsets.
_KING_STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def _seed_from(rng: np.random.Generator) -> int:
    """A generator seed drawn from the environment's own random stream."""
    return int(rng.integers(0, 2**63))


RENDER_MODES = ["ansi", "rgb_array"]

# Colours of the frames.
_FLOOR: Color = (226, 222, 210)
_WALL: Color = (90, 90, 96)
_TILE: Color = (236, 196, 128)
_TILE_HOME: Color = (170, 214, 150)
_GOAL_CELL: Color = (150, 210, 140)
_PIECE: Color = (100, 130, 190)
_GOAL_PIECE: Color = (235, 170, 40)
_PLAYER: Color = (50, 110, 220)
_BALL: Color = (240, 130, 30)
_BOX: Color = (140, 90, 50)
_CLOSED: Color = (150, 150, 150)
_OPEN: Color = (228, 228, 228)
_MINE: Color = (220, 60, 60)
# Minesweeper's numbers 1-8 in the usual colours.
_NUMBER_COLORS: list[Color] = [
    BLACK,
    (20, 40, 220),
    (20, 130, 20),
    (210, 30, 30),
    (20, 20, 120),
    (120, 20, 20),
    (20, 130, 130),
    BLACK,
    (100, 100, 100),
]


class _Puzzle(gym.Env[Obs, np.int64]):
    """What the puzzles share: actions checked against the space, the end of an episode, and
    rendering."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}
    action_space: spaces.Discrete
    _ended = False

    def _set_render_mode(self, render_mode: Optional[str]) -> None:
        """Takes ``render_mode`` (``None``, ``ansi`` or ``rgb_array``), or ``ValueError``."""
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode {render_mode!r:.40} is not one of {', '.join(RENDER_MODES)}"
            )
        self.render_mode = render_mode

    def render(self) -> Optional[Union[str, Frame]]:
        """The text (``ansi``) or the image (``rgb_array``) of the position; ``None`` without a
        render mode."""
        if self.render_mode == "ansi":
            return self._text()
        if self.render_mode == "rgb_array":
            return self._frame()
        return None

    def _text(self) -> str:
        raise NotImplementedError

    def _frame(self) -> Frame:
        raise NotImplementedError

    def _start(self) -> None:
        """A new episode begins."""
        self._ended = False

    def _action(self, action: object) -> int:
        """The action of a step as an int of the space; ``ResetNeeded`` after the end."""
        if self._ended:
            raise gym.error.ResetNeeded(
                "the episode has ended (terminated): call reset() before step()"
            )
        return action_index(action, int(self.action_space.n), str(self.action_space))

    def _end(self, terminated: bool) -> bool:
        """Records whether the step ended the episode, and returns it."""
        self._ended = terminated
        return terminated


class NPuzzleEnv(_Puzzle):
    """The sliding-tile puzzle of width 3, 4 or 5 (``ply_games/NPuzzle-v0``).

    Observation: the tiles row-major (``int8``, 0 for the blank). Action: the blank's move,
    0-3 for ``U L R D``. Reward: -1 a step, so the return is minus the moves used; the episode
    ends at the goal ``0 1 2 ...``. ``reset`` draws a uniformly random solvable board, or one
    ``scramble`` random moves from the goal; ``options={"board": tiles}`` sets it.

    An action outside the space raises ``ValueError``; a step after the episode has ended
    raises ``gymnasium.error.ResetNeeded``. Renders as text (``ansi``) or as an image
    (``rgb_array``: W x W cells of 32 pixels, tiles numbered, a tile on its goal cell green).
    """

    def __init__(
        self, width: int = 3, scramble: Optional[int] = None, render_mode: Optional[str] = None
    ) -> None:
        self.width = npuzzle.Board.goal(width).width
        self.scramble = scramble
        self._set_render_mode(render_mode)
        cells = width * width
        self.observation_space = spaces.Box(0, cells - 1, shape=(cells,), dtype=np.int8)
        self.action_space = spaces.Discrete(4)
        self.board = npuzzle.Board.goal(width)

    def _observation(self) -> Obs:
        return np.array(self.board.tiles, dtype=np.int8)

    def _info(self) -> Info:
        mask = np.array([self.board.moved(m) is not None for m in _NPUZZLE_MOVES], np.int8)
        return {"action_mask": mask}

    def _random_board(self) -> npuzzle.Board:
        if self.scramble is not None:
            board, last = npuzzle.Board.goal(self.width), ""
            for _ in range(self.scramble):
                back = {"U": "D", "D": "U", "L": "R", "R": "L"}.get(last, "")
                moves = [m for m in board.moves() if m != back]
                last = moves[int(self.np_random.integers(len(moves)))]
                board = board.moved(last) or board
            return board
        tiles = [int(t) for t in self.np_random.permutation(self.width * self.width)]
        board = npuzzle.Board(tiles)
        if not board.is_solvable():
            # Swapping two tiles (not the blank) flips the parity.
            i, j = tiles.index(1), tiles.index(2)
            tiles[i], tiles[j] = tiles[j], tiles[i]
            board = npuzzle.Board(tiles)
        return board

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[Obs, Info]:
        super().reset(seed=seed)
        if options and "board" in options:
            board = npuzzle.Board(options["board"])
            if board.width != self.width or not board.is_solvable():
                raise ValueError(f"options['board'] is not a solvable {self.width}x{self.width} board")
            self.board = board
        else:
            self.board = self._random_board()
        self._start()
        return self._observation(), self._info()

    def step(self, action: np.int64) -> tuple[Obs, float, bool, bool, Info]:
        moved = self.board.moved(_NPUZZLE_MOVES[self._action(action)])
        if moved is not None:
            self.board = moved
        terminated = self._end(self.board.is_goal())
        return self._observation(), -1.0, terminated, False, self._info()

    def _text(self) -> str:
        return str(self.board)

    def _frame(self) -> Frame:
        canvas = Canvas(self.width, self.width)
        for cell, tile in enumerate(self.board.tiles):
            if tile:
                r, c = divmod(cell, self.width)
                canvas.fill(r, c, _TILE_HOME if tile == cell else _TILE)
                canvas.number(r, c, tile, BLACK)
        return canvas.image


class EwnSoloEnv(_Puzzle):
    """Single-player EWN with 30 known dice (``ply_games/EwnSolo-v0``).

    Observation (``float32``, 786): for each piece 1-6 a one-hot plane of its cell on the
    10 x 10 board (all zero once removed), the goal piece one-hot (6), then the dice from the
    move to play on, one-hot over 1-6 (30 x 6, zero past the 30th die). Action (16): which of
    the die's movable pieces (the lower-numbered first) times the eight king steps (up-left,
    up, up-right, left, right, down-left, down, down-right). Reward: -1 a step; the move
    that loses (the goal piece removed, or the dice used up) costs 30 more, so any solution
    beats any failure. ``reset`` draws an instance whose optimum lies in
    ``min_moves..max_moves`` (``info["optimum"]``); ``options={"instance": Instance}`` sets it.

    An action outside the space raises ``ValueError``; a step after the episode has ended
    raises ``gymnasium.error.ResetNeeded``. Renders as text (``ansi``) or as an image
    (``rgb_array``: the 10 x 10 board, the goal piece gold, cell 0 green, then a row of the
    next ten dice).
    """

    OBSERVATION_SIZE = 6 * 100 + 6 + solo.DICE * 6

    def __init__(
        self, min_moves: int = 5, max_moves: int = 30, render_mode: Optional[str] = None
    ) -> None:
        self.min_moves, self.max_moves = min_moves, max_moves
        self._set_render_mode(render_mode)
        self.observation_space = spaces.Box(
            0.0, 1.0, shape=(self.OBSERVATION_SIZE,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(16)
        self.instance = solo.Instance.parse("1\n1 2 3 4 5 6\n" + "1" * solo.DICE + "\n")
        self.state = solo.State(self.instance)

    def _moves(self) -> dict[int, tuple[int, int]]:
        """The legal moves by action."""
        cells = self.state.cells
        legal = self.state.legal_moves()
        pieces = sorted({cells.index(source) for source, _ in legal})
        out = {}
        for source, target in legal:
            step = (target // 10 - source // 10, target % 10 - source % 10)
            slot = pieces.index(cells.index(source))
            out[slot * 8 + _KING_STEPS.index(step)] = (source, target)
        return out

    def _observation(self) -> Obs:
        obs = np.zeros(self.OBSERVATION_SIZE, np.float32)
        for piece, cell in enumerate(self.state.cells):
            if cell is not None:
                obs[piece * 100 + cell] = 1.0
        obs[600 + self.instance.goal - 1] = 1.0
        for i, die in enumerate(self.instance.dice[self.state.moves_played :]):
            obs[606 + i * 6 + die - 1] = 1.0
        return obs

    def _info(self) -> Info:
        mask = np.zeros(16, np.int8)
        mask[list(self._moves())] = 1
        info: Info = {"action_mask": mask}
        if self.instance.known_optimum is not None:
            info["optimum"] = self.instance.known_optimum
        return info

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[Obs, Info]:
        super().reset(seed=seed)
        if options and "instance" in options:
            self.instance = options["instance"]
        else:
            seed = _seed_from(self.np_random)
            self.instance = solo.generate(
                seed, 1, min_moves=self.min_moves, max_moves=self.max_moves
            )[0]
        self.state = solo.State(self.instance)
        self._start()
        return self._observation(), self._info()

    def step(self, action: np.int64) -> tuple[Obs, float, bool, bool, Info]:
        move = self._moves().get(self._action(action))
        reward = -1.0
        if move is not None:
            self.state.play(*move)
        terminated = self._end(self.state.is_over())
        if terminated and not self.state.is_solved():
            reward -= solo.DICE
        return self._observation(), reward, terminated, False, self._info()

    def _frame(self) -> Frame:
        # The 10 x 10 board, then a row of the next ten dice (the next one framed in white).
        canvas = Canvas(11, 10)
        cells = self.state.cells
        for cell in range(100):
            r, c = divmod(cell, 10)
            if cell != 33:
                canvas.fill(r, c, _GOAL_CELL if cell == 0 else _FLOOR)
            if cell in cells:
                piece = cells.index(cell) + 1
                goal = piece == self.instance.goal
                canvas.disc(r, c, _GOAL_PIECE if goal else _PIECE, 0.42)
                canvas.number(r, c, piece, BLACK if goal else WHITE)
        dice = self.instance.dice[self.state.moves_played :]
        for i, die in enumerate(dice[:10]):
            canvas.fill(10, i, WHITE if i == 0 else _FLOOR)
            canvas.number(10, i, die, BLACK)
        return canvas.image

    def _text(self) -> str:
        rows = []
        for r in range(10):
            row = ""
            for c in range(10):
                cell = 10 * r + c
                piece = self.state.cells.index(cell) + 1 if cell in self.state.cells else 0
                row += "#" if cell == 33 else (str(piece) if piece else ".")
            rows.append(row)
        die = self.state.die
        return "\n".join(rows) + f"\ngoal piece {self.instance.goal}, die {die}\n"


class SokoboruEnv(_Puzzle):
    """Sokoban with sliding balls (``ply_games/Sokoboru-v0``).

    Observation: the board as codes (``int8``: 0 floor, 1 wall, 2 player, 3 ball, 4 empty
    box, 5 full box), ``rows`` x ``cols``, a smaller puzzle padded with walls. Action: 0-3
    for ``^ v < >``. Reward: minus the move's penalty (1, or 2 for pushing a full box), so the
    return is minus the penalty paid; the episode ends when no empty box is left. ``reset``
    draws a puzzle of ``balls`` pairs with a proven optimum (``info["optimum"]``) from
    ply's generator; ``options={"puzzle": Puzzle}`` sets it.

    An action outside the space raises ``ValueError``; a step after the episode has ended
    raises ``gymnasium.error.ResetNeeded``. Renders as text (``ansi``) or as an image
    (``rgb_array``: ``rows`` x ``cols`` cells, walls grey, the player a blue disc, balls
    orange discs, boxes brown).
    """

    def __init__(
        self,
        rows: int = 4,
        cols: int = 5,
        balls: int = 2,
        min_penalty: int = 0,
        render_mode: Optional[str] = None,
    ) -> None:
        self.rows, self.cols, self.balls = rows, cols, balls
        self.min_penalty = min_penalty
        self._set_render_mode(render_mode)
        self.observation_space = spaces.Box(0, 5, shape=(rows, cols), dtype=np.int8)
        self.action_space = spaces.Discrete(4)
        self.game = sokoboru.Game(sokoboru.Puzzle("1 3\n@O$\n"))
        self.optimum: Optional[int] = None

    def _observation(self) -> Obs:
        grid = self.game.to_numpy()
        obs = np.ones((self.rows, self.cols), np.int8)
        obs[: grid.shape[0], : grid.shape[1]] = grid
        return obs

    def _info(self) -> Info:
        legal = self.game.legal_moves()
        info: Info = {
            "action_mask": np.array([m in legal for m in _SOKOBORU_MOVES], np.int8),
            "penalty": self.game.cost,
        }
        if self.optimum is not None:
            info["optimum"] = self.optimum
        return info

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[Obs, Info]:
        super().reset(seed=seed)
        if options and "puzzle" in options:
            puzzle = options["puzzle"]
            if puzzle.rows > self.rows or puzzle.cols > self.cols:
                raise ValueError(
                    f"options['puzzle'] is {puzzle.rows}x{puzzle.cols}, "
                    f"larger than this environment's {self.rows}x{self.cols}"
                )
            self.optimum = None
        else:
            ((puzzle, penalty, _),) = sokoboru.generate(
                _seed_from(self.np_random),
                1,
                rows=self.rows,
                cols=self.cols,
                balls=self.balls,
                min_penalty=self.min_penalty,
                max_nodes=200_000,
            )
            self.optimum = penalty
        self.game = sokoboru.Game(puzzle)
        self._start()
        return self._observation(), self._info()

    def step(self, action: np.int64) -> tuple[Obs, float, bool, bool, Info]:
        move = _SOKOBORU_MOVES[self._action(action)]
        try:
            cost = self.game.step(move)
        except ValueError:
            cost = 1
        terminated = self._end(self.game.is_solved())
        return self._observation(), -float(cost), terminated, False, self._info()

    def _text(self) -> str:
        return str(self.game)

    def _frame(self) -> Frame:
        codes = self._observation()
        canvas = Canvas(self.rows, self.cols)
        for (r, c), code in np.ndenumerate(codes):
            canvas.fill(r, c, _WALL if code == 1 else _FLOOR)
            if code == 2:
                canvas.disc(r, c, _PLAYER, 0.4)
            elif code == 3:
                canvas.disc(r, c, _BALL, 0.3)
            elif code in (4, 5):
                canvas.fill(r, c, _BOX, canvas.cell // 8)
                canvas.fill(r, c, _FLOOR if code == 4 else _BOX, canvas.cell // 4)
                if code == 5:
                    canvas.disc(r, c, _BALL, 0.22)
        return canvas.image


# How often a reset draws a new classic game when its first click at ``start`` ended it.
_REDRAWS = 100


class _Minesweeper(_Puzzle):
    """What both Minesweeper environments share: the board as ``ClassicGame.view`` shows it
    (``uint8``: 0-8 an open cell's number, 9 (``mines.HIDDEN``) a hidden cell, 10
    (``mines.EXPLODED``) the mine opened), the rewards, the action mask and the frames."""

    width: int
    height: int

    def _view(self) -> Obs:
        """The board, (height, width) ``uint8`` in ``ClassicGame.view``'s codes."""
        raise NotImplementedError

    def _status(self) -> str:
        """``playing``, ``won`` or ``lost``."""
        raise NotImplementedError

    def _opened(self) -> int:
        """Safe cells open."""
        raise NotImplementedError

    def _click(self, row: int, col: int) -> bool:
        """Clicks (row, col); whether that opened a cell (a mine included)."""
        raise NotImplementedError

    def _info(self) -> Info:
        # A finished game offers no move.
        hidden = (self._view() == HIDDEN).reshape(-1) & (self._status() == "playing")
        return {"action_mask": hidden.astype(np.int8), "opened": self._opened()}

    def step(self, action: np.int64) -> tuple[Obs, float, bool, bool, Info]:
        row, col = divmod(self._action(action), self.width)
        opened = self._click(row, col)
        status = self._status()
        if status == "lost":
            reward = -1.0
        elif status == "won":
            reward = 1.0
        else:
            reward = 0.0 if opened else -0.01
        terminated = self._end(status != "playing")
        return self._view(), reward, terminated, False, self._info()

    def _frame(self) -> Frame:
        view = self._view()
        canvas = Canvas(self.height, self.width)
        palette = np.array([*[_OPEN] * 9, _CLOSED, _MINE], np.uint8)
        canvas.fill_grid(palette[view.astype(np.int64)])
        for r, c in zip(*np.nonzero((view > 0) & (view != HIDDEN))):
            value = int(view[r, c])
            if value == EXPLODED:
                canvas.disc(r, c, BLACK, 0.3)
            else:
                canvas.number(r, c, value, _NUMBER_COLORS[value])
        return canvas.image

    def _text(self) -> str:
        symbols = {HIDDEN: "#", EXPLODED: "*", 0: "."}
        rows = ("".join(symbols.get(int(v), str(int(v))) for v in row) for row in self._view())
        return "".join(row + "\n" for row in rows)


class MinesweeperEnv(_Minesweeper):
    """Minesweeper on an ``n`` x ``n`` board of the contest's maps (``ply_games/Minesweeper-v0``).

    Observation (``uint8``, n x n), as in ``MinesweeperClassic-v0``: 0-8 for an open cell's
    number, 9 (``mines.HIDDEN``) for a hidden cell, 10 (``mines.EXPLODED``) for the mine
    opened. Action: the cell ``row * n + col`` to click; a zero opens its whole opening.
    Reward, as in ``MinesweeperClassic-v0``: +1 for the click that wins (every safe cell
    open), -1 for a mine (the episode ends either way), 0 for any other click that opens
    cells, -0.01 for a click on an open cell (which changes nothing). ``info`` holds
    ``action_mask`` (``int8``, 1 for each hidden cell; all zero once the game is over) and
    ``opened`` (safe cells open). ``reset`` draws a map of ``mines`` mines (default n*n/8)
    with ply's generator; ``options={"map": Map}`` sets it.

    An action outside the space raises ``ValueError``; a step after the episode has ended
    raises ``gymnasium.error.ResetNeeded``. Renders as text (``ansi``: ``#`` hidden, ``.`` a
    zero, ``*`` the mine) or as an image (``rgb_array``: n x n cells of 32 pixels at n = 16,
    smaller ones on larger boards to keep within 512 pixels a side, down to 2 pixels; numbers
    are drawn in cells of 10 pixels or more).
    """

    def __init__(
        self, n: int = 16, mines: Optional[int] = None, render_mode: Optional[str] = None
    ) -> None:
        self.n = self.width = self.height = n
        self.mines = n * n // 8 if mines is None else mines
        self._set_render_mode(render_mode)
        self.observation_space = spaces.Box(0, EXPLODED, shape=(n, n), dtype=np.uint8)
        self.action_space = spaces.Discrete(n * n)
        self.map = MinesMap(n, [])
        self.game = MinesGame(self.map)

    def _view(self) -> Obs:
        # The contest game's view: -1 closed, 0-8, 9 a mine opened.
        view = self.game.view()
        return np.where(view < 0, HIDDEN, np.where(view == 9, EXPLODED, view)).astype(np.uint8)

    def _status(self) -> str:
        safe, mines = self.game.counts()
        if mines:
            return "lost"
        return "won" if safe == self.n * self.n - self.map.mines else "playing"

    def _opened(self) -> int:
        return self.game.counts()[0]

    def _click(self, row: int, col: int) -> bool:
        if self.game.is_open(row, col):
            return False
        self.game.click(row, col)
        return True

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[Obs, Info]:
        super().reset(seed=seed)
        if options and "map" in options:
            self.map = options["map"]
            if self.map.n != self.n:
                raise ValueError(f"options['map'] is {self.map.n}x{self.map.n}, not {self.n}x{self.n}")
        else:
            self.map = generate_map(self.n, self.mines, seed=_seed_from(self.np_random))
        self.game = MinesGame(self.map)
        self._start()
        return self._view(), self._info()


class MinesweeperClassicEnv(_Minesweeper):
    """Classic Minesweeper on a rectangular board under a first-click rule
    (``ply_games/MinesweeperClassic-v0``).

    The board is a ``level`` (``beginner`` 9 x 9 with 10 mines, the default; ``intermediate``
    16 x 16 with 40; ``expert`` 30 x 16 with 99) or ``width`` x ``height`` with ``mines`` mines;
    ``rule`` is the first click's promise (``safe``: the clicked cell is no mine; ``zero``:
    nor are its neighbours, so it opens a region). The mines are placed at the first click,
    wherever it goes, from a seed drawn from ``self.np_random``. With ``start=(row, col)``,
    ``reset`` makes that first click itself, so episodes begin on an opened board; a first
    click that ends the game (its region opened every safe cell) is no episode, and the game
    is drawn again from the next seed of the stream (``ValueError`` after 100 such games in
    a row). Without ``start`` the agent's first action is the first click.

    Observation (``uint8``, height x width): ``ClassicGame.view()``, 0-8 for an open cell's
    number, 9 (``mines.HIDDEN``) for a hidden cell, 10 (``mines.EXPLODED``) for the mine
    opened, as in ``Minesweeper-v0``. Action: the cell ``row * width + col`` to click; a zero
    opens its whole region. Reward, as in ``Minesweeper-v0``: +1 for the click that wins
    (every safe cell open), -1 for a mine (the episode ends either way), 0 for any other
    click that opens cells, -0.01 for a click on an open cell (which changes nothing).
    ``info`` holds ``action_mask`` (``int8``, 1 for each hidden cell; all zero once the game
    is over) and ``opened`` (safe cells open); ``ply_games.mines.probabilities(obs,
    env.mines)`` gives each cell's chance to be a mine. ``options={"game": ClassicGame}``
    plays a copy of that game (of this environment's size, not over) instead of a new one.

    An action outside the space raises ``ValueError``; a step after the episode has ended
    raises ``gymnasium.error.ResetNeeded``. Renders as text (``ansi``: ``#`` hidden, ``.`` a
    zero, ``*`` the mine) or as an image (``rgb_array``: height x width cells of 32 pixels,
    smaller on large boards, hidden cells grey, the mine opened red).
    """

    def __init__(
        self,
        level: Optional[str] = None,
        width: Optional[int] = None,
        height: Optional[int] = None,
        mines: Optional[int] = None,
        rule: str = "safe",
        start: Optional[tuple[int, int]] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        if level is None and width is None and height is None and mines is None:
            level = "beginner"
        self._board: dict[str, Any] = {
            "level": level,
            "width": width,
            "height": height,
            "mines": mines,
            "rule": rule,
            "start": start,
        }
        self.first_click = start
        self._set_render_mode(render_mode)
        # The rules, checked by the library (ValueError with its message).
        self.game = ClassicGame(**self._new_game_args(0))
        self.width, self.height, self.mines = self.game.width, self.game.height, self.game.mines
        self.rule = self.game.rule
        self.observation_space = spaces.Box(
            0, EXPLODED, shape=(self.height, self.width), dtype=np.uint8
        )
        self.action_space = spaces.Discrete(self.width * self.height)

    def _new_game_args(self, seed: int) -> dict[str, Any]:
        board = self._board
        args: dict[str, Any] = {"rule": board["rule"], "start": board["start"], "seed": seed}
        for name in ("level", "width", "height", "mines"):
            if board[name] is not None:
                args[name] = board[name]
        return args

    def _view(self) -> Obs:
        return self.game.view()

    def _status(self) -> str:
        return self.game.status

    def _opened(self) -> int:
        return self.game.opened

    def _click(self, row: int, col: int) -> bool:
        clicked = self.game.click(row, col)
        return clicked is None or len(clicked) > 0

    def _new_game(self) -> ClassicGame:
        """A game from the random stream, its first click at ``start`` made when given; one
        that first click ended is drawn again."""
        for _ in range(_REDRAWS):
            game = ClassicGame(**self._new_game_args(_seed_from(self.np_random)))
            if self.first_click is None:
                return game
            game.click(*self.first_click)
            if game.status == "playing":
                return game
        raise ValueError(
            f"the first click at start={self.first_click} ended {_REDRAWS} games in a row "
            "(it opened every safe cell): these rules leave no game to play"
        )

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[Obs, Info]:
        super().reset(seed=seed)
        if options and "game" in options:
            game = options["game"]
            if not isinstance(game, ClassicGame):
                raise TypeError(f"options['game'] must be a ClassicGame, not {type(game).__name__}")
            if (game.height, game.width, game.mines) != (self.height, self.width, self.mines):
                raise ValueError(
                    f"options['game'] is {game.width} x {game.height} with {game.mines} mines, "
                    f"not {self.width} x {self.height} with {self.mines}"
                )
            if game.status != "playing":
                raise ValueError(f"options['game'] is over ({game.status}): an episode needs a game to play")
            self.game = game.clone()
        else:
            self.game = self._new_game()
        self._start()
        return self._view(), self._info()


__all__ = ["EwnSoloEnv", "MinesweeperClassicEnv", "MinesweeperEnv", "NPuzzleEnv", "SokoboruEnv"]
