"""Pictures of a battle on its map: one PNG per round, and an animated GIF of them.

Each frame shows the terrain (walls dark grey, cover green with its initial, hazards by
kind), the deployment zones faintly in each side's colour, and every fighter as a disc in
its side's colour with its name beside it: filled while active, a ring while fleeing, a
cross when incapacitated or dead, and left out once it has fled or surrendered. The title
gives the round and how many fighters each side still has up (active); the legend, outside
the map on the right, names the sides, the marker shapes and the terrain once.

Every frame of one battle has the same size in pixels (the figure's size depends only on
the map and the sides), so the frames line up as a flip-book and as a GIF. Drawn headless
with matplotlib's object API (no pyplot). :func:`draw_run` draws every battle of a run
(``sim run`` and ``sim replay`` with ``--frames``/``--gif``).
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from matplotlib import patheffects
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.textpath import TextPath

from sim import files
from sim.analysis.plots import literal
from sim.errors import SimError
from sim.space.map import SIDE_COLORS, MapSpec, Mark

if TYPE_CHECKING:
    from sim.battle.battle import Battle
    from sim.run.core import Fought

HAZARD_COLORS = {"cliff": "#5b3a1a", "quicksand": "#d8b365", "fire": "#fc4e2a"}
WALL_COLOR = "#4d4d4d"
COVER_COLOR = "#a6d96a"
GONE = ("fled", "surrendered")
DOWN = ("incapacitated", "dead")
MAX_LABELS = 40
"""Fighters on the map above which names are left out (they would only clutter it)."""
MIN_LABEL_CELL_PT = 14.0
"""Cells smaller than this (in points) get no names: the text would be unreadable."""
LEGEND_INCHES = 1.9
"""Room on the right of the map for the legend."""


def side_order(marks: Sequence[Mark], sides: Sequence[str] = ()) -> list[str]:
    """The sides as given, then any other side of ``marks`` in name order."""
    order = list(sides)
    return order + sorted({m.side for m in marks} - set(order))


def tally(marks: Sequence[Mark], sides: Sequence[str] = ()) -> str:
    """Fighters still up (active) per side, e.g. ``guards 4 up, bandits 2 up``."""
    up = Counter(m.side for m in marks if m.status == "active")
    return ", ".join(f"{s} {up[s]} up" for s in side_order(marks, sides))


def round_title(r: int, marks: Sequence[Mark], sides: Sequence[str] = (), label: str = "") -> str:
    """A frame's title: ``round 3 — guards 4 up, bandits 2 up`` (round 0 is deployment)."""
    head = "round 0 (deployment)" if r == 0 else f"round {r}"
    text = f"{head} — {tally(marks, sides)}" if marks else head
    return f"{label}: {text}" if label else text


def _cell_scale(spec: MapSpec) -> float:
    """Inches per cell: half an inch, less on big maps (at most ~10 inches a side)."""
    return min(0.5, 10 / max(spec.width, spec.height))


def _text_width(text: str, font: float) -> float:
    """The width of ``text`` in points at ``font`` points (matplotlib's default face)."""
    return float(TextPath((0, 0), text, size=font).get_extents().width)


def _short(name: str, font: float, room_pt: float) -> str:
    """``name``, cut with an ellipsis until it is at most ``room_pt`` points wide."""
    if _text_width(name, font) <= room_pt:
        return name
    for n in range(len(name) - 1, 0, -1):
        cut = name[:n].rstrip() + "…"
        if _text_width(cut, font) <= room_pt:
            return cut
    return name[:1] + "…"


def _labels(ax: Any, shown: Sequence[Mark], cell_pt: float) -> None:
    """Each fighter's name under its marker, in one text size.

    Where two fighters stand side by side in a row, the one in an odd column has its name
    above its marker instead, so neighbours' names sit in different bands and each may be
    nearly two cells wide; a longer name is cut short with an ellipsis. A white halo keeps
    the names readable on any terrain.
    """
    font = max(5.0, min(6.5, cell_pt * 0.2))
    taken = {m.cell for m in shown}
    halo = [patheffects.withStroke(linewidth=1.8, foreground="white")]
    for m in shown:
        x, y = m.cell
        beside = (x - 1, y) in taken or (x + 1, y) in taken
        above = beside and x % 2 == 1
        ax.text(
            x,
            y - 0.2 if above else y + 0.2,
            _short(m.name, font, cell_pt * 1.85),
            fontsize=font,
            ha="center",
            va="bottom" if above else "top",
            color="#555555" if m.status in DOWN else "black",
            path_effects=halo,
            zorder=5,
        )


@literal
def draw(
    spec: MapSpec, marks: Sequence[Mark], title: str = "", sides: Sequence[str] = ()
) -> Figure:
    """One frame: the map, the fighters on it with their names, and a legend beside it."""
    order = side_order(marks, sides)
    color = {s: SIDE_COLORS[i % len(SIDE_COLORS)] for i, s in enumerate(order)}
    scale = _cell_scale(spec)
    cell_pt = scale * 72
    # wide enough for the longest title any round can have, so every frame is the same size
    longest = len("round 999 — " + ", ".join(f"{s} 99 up" for s in order))
    width = max(4.0, spec.width * scale + LEGEND_INCHES + 0.6, 0.075 * longest + 0.4)
    fig = Figure(
        figsize=(width, max(3.0, spec.height * scale + 1.1)), dpi=120, layout="constrained"
    )
    ax = fig.add_subplot()
    ax.set_xlim(-0.5, spec.width - 0.5)
    ax.set_ylim(spec.height - 0.5, -0.5)  # row 0 at the top, as the scenario lists it
    ax.set_aspect("equal")
    ax.set_facecolor("#f7f4ea")
    for side, cells in spec.zones.items():
        for x, y in cells:
            ax.add_patch(
                Rectangle((x - 0.5, y - 0.5), 1, 1, lw=0, color=color.get(side, "grey"), alpha=0.12)
            )
    terrain_keys = _draw_terrain(ax, spec, cell_pt)
    _draw_fighters(ax, marks, color, cell_pt)
    ax.legend(
        handles=_legend_handles(order, color, terrain_keys),
        loc="upper left",
        bbox_to_anchor=(1.02, 1.0),
        fontsize=7,
        frameon=False,
        borderaxespad=0,
        handlelength=1.2,
    )
    ax.set_xticks(range(0, spec.width, max(1, spec.width // 10)))
    ax.set_yticks(range(0, spec.height, max(1, spec.height // 10)))
    ax.tick_params(labelsize=7)
    ax.set_title(
        title or f"{spec.width} x {spec.height} cells of {spec.cell_size:g} {spec.unit}",
        fontsize=10,
        loc="left",
        wrap=True,  # a long label wraps rather than runs off the frame
    )
    return fig


def _draw_terrain(ax: Any, spec: MapSpec, cell_pt: float) -> dict[str, Patch]:
    """Walls, cover and hazards on ``ax``; the legend's key of each kind drawn."""
    terrain_keys: dict[str, Patch] = {}
    for t in spec.terrain:
        if t.kind == "wall":
            terrain_keys.setdefault("wall", Patch(color=WALL_COLOR, label="wall"))
        elif t.kind == "cover":
            terrain_keys.setdefault(
                t.name,
                Patch(
                    color=COVER_COLOR,
                    alpha=0.7,
                    label=f"cover: {t.name.replace('_', ' ')} ({t.name[0].upper()})",
                ),
            )
        else:
            hc = HAZARD_COLORS.get(t.name, "#7f7f7f")
            terrain_keys.setdefault(
                t.name, Patch(color=hc, alpha=0.8, label=t.name.replace("_", " "))
            )
        for x, y in t.cells:
            if t.kind == "wall":
                ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, lw=0, color=WALL_COLOR))
            elif t.kind == "cover":
                ax.add_patch(
                    Rectangle((x - 0.5, y - 0.5), 1, 1, lw=0, color=COVER_COLOR, alpha=0.7)
                )
                if cell_pt >= MIN_LABEL_CELL_PT:
                    ax.text(
                        x - 0.44, y - 0.44, t.name[0].upper(), fontsize=6, ha="left", va="top",
                        color="#33691e",
                    )  # fmt: skip
            else:
                hc = HAZARD_COLORS.get(t.name, "#7f7f7f")
                ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, lw=0, color=hc, alpha=0.8))
    return terrain_keys


def _draw_fighters(
    ax: Any, marks: Sequence[Mark], color: Mapping[str, str], cell_pt: float
) -> None:
    """The fighters still on the map (a cross for the fallen, a ring for the fleeing)."""
    shown = [m for m in marks if m.status not in GONE]
    size = min(9.0, max(3.0, cell_pt * 0.3))
    for m in shown:
        c = color.get(m.side, "black")
        x, y = m.cell
        if m.status in DOWN:
            ax.plot(x, y, marker="x", color=c, markersize=size * 0.85, mew=2)
        elif m.status == "fleeing":
            ax.plot(x, y, marker="o", mfc="none", mec=c, markersize=size, mew=2)
        else:
            ax.plot(x, y, marker="o", color=c, markersize=size, mec="white", mew=0.6)
    if shown and len(shown) <= MAX_LABELS and cell_pt >= MIN_LABEL_CELL_PT:
        # one name a cell: whoever stands there now, not the fallen beneath
        standing = {m.cell for m in shown if m.status not in DOWN}
        named = [m for m in shown if m.status not in DOWN or m.cell not in standing]
        _labels(ax, named, cell_pt)


def _legend_handles(
    order: Sequence[str], color: Mapping[str, str], terrain: Mapping[str, Patch]
) -> list[Any]:
    """Sides by colour, the marker shapes once (in grey), then the map's terrain."""

    def dot(label: str, c: str, **kw: Any) -> Line2D:
        return Line2D([], [], ls="", marker="o", color=c, markersize=7, label=label, **kw)

    grey = "#666666"
    return [
        *(dot(s, color[s]) for s in order),
        dot("active", grey),
        dot("fleeing", grey, mfc="none", mew=1.8),
        Line2D([], [], ls="", marker="x", color=grey, markersize=6, mew=2, label="down"),
        *terrain.values(),
    ]


@literal
def png(fig: Figure) -> bytes:
    """The figure as PNG bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def write_frames(
    spec: MapSpec,
    rounds: Mapping[int, Sequence[Mark]],
    folder: str | Path,
    name: str = "round",
    sides: Sequence[str] = (),
    label: str = "",
) -> list[Path]:
    """One PNG per round, ``folder/<name>-NNN.png``, each written atomically.

    ``label`` starts every title (e.g. a campaign battle's name).
    """
    folder = Path(folder)
    out = []
    for r in sorted(rounds):
        path = folder / f"{name}-{r:03d}.png"
        title = round_title(r, rounds[r], sides, label)
        data = png(draw(spec, rounds[r], title, sides))
        files.write_file(path, data, replace=True, within=folder, flag="--frames")
        out.append(path)
    return out


def write_gif(
    spec: MapSpec,
    rounds: Mapping[int, Sequence[Mark]],
    path: str | Path,
    seconds_per_round: float = 0.8,
    sides: Sequence[str] = (),
    label: str = "",
    replace: files.Replace = False,
) -> Path:
    """An animated GIF of the rounds, written whole (Pillow, which matplotlib needs).

    Every frame is padded with white to the largest frame's size (they are the same size
    already, but a GIF's frames must be); the last frame stays up three times as long. An
    existing file is replaced only as ``replace`` allows (:func:`sim.files.write_file`).
    """
    images = [
        _image(spec, rounds[r], round_title(r, rounds[r], sides, label), sides)
        for r in sorted(rounds)
    ]
    if not images:
        raise ValueError("no rounds to animate")
    images = same_size(images)
    buf = io.BytesIO()
    ms = int(seconds_per_round * 1000)
    images[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=[ms] * (len(images) - 1) + [3 * ms],
        loop=0,
        comment=GIF_COMMENT,
    )
    path = Path(path)
    files.write_file(path, buf.getvalue(), replace=replace, flag="--gif")
    return path


def _image(spec: MapSpec, marks: Sequence[Mark], title: str, sides: Sequence[str]) -> Any:
    from PIL import Image

    return Image.open(io.BytesIO(png(draw(spec, marks, title, sides)))).convert("RGB")


def same_size(images: Sequence[Any]) -> list[Any]:
    """Pillow RGB images padded with white (at the bottom right) to the largest's size."""
    from PIL import Image

    w = max(im.width for im in images)
    h = max(im.height for im in images)
    out = []
    for im in images:
        if im.size != (w, h):
            canvas = Image.new("RGB", (w, h), "white")
            canvas.paste(im, (0, 0))
            im = canvas
        out.append(im)
    return out


# ---------------------------------------------------------------------------------------
# every battle of a run


MARKER = ".sim-frames"
"""The file that marks a ``--frames`` folder as sim's: its old frames may be replaced."""
GIF_COMMENT = b"drawn by sim"
"""The comment in every GIF sim draws: a file with it may be overwritten."""


def ours(gif: Path) -> bool:
    """True if the file ``gif`` is a GIF that sim drew (its comment says so)."""
    head = files.read_head(gif, 4096)
    return head is not None and head.startswith(b"GIF8") and GIF_COMMENT in head


def check_targets(folder: str | None, gif: str | None, force: bool = False) -> None:
    """Refuse to draw where files that sim did not write would be replaced or deleted.

    ``--frames DIR`` must be new, empty or marked as sim's (:data:`MARKER`); ``--gif FILE``
    must be new or a GIF sim drew. ``force`` allows both (no file of another is deleted).
    """
    if folder is not None:
        p = Path(folder)
        if files.is_link(p):
            raise files.link_error(p, "--frames")
        if p.exists() and not p.is_dir():
            raise SimError(f"--frames {folder}: not a directory")
        if not force and p.is_dir() and any(p.iterdir()) and not (p / MARKER).exists():
            raise SimError(
                f"--frames {folder}: holds files that sim did not draw (no {MARKER} file); "
                "choose a new or empty folder, or add --force to draw into it anyway"
            )
    if gif is not None:
        check_gif(Path(gif), force)


def check_gif(path: Path, force: bool) -> None:
    """Refuse to write the GIF ``path`` over a link or a folder, or a file sim did not draw."""
    if files.is_link(path):
        raise files.link_error(path, "--gif")
    if path.is_dir():
        raise SimError(f"--gif {path}: is a directory, not a file name")
    if not force and path.exists() and not ours(path):
        raise SimError(
            f"--gif {path}: is a file that sim did not draw; choose another name, or add "
            "--force to overwrite it"
        )


FRAME_FILE = re.compile(r"^(battle-\d+-)?round-\d{3,}\.png$")
"""Names of the frames :func:`draw_run` writes (older ones of these names are removed)."""


def draw_run(
    fought: Fought,
    folder: str | None,
    gif: str | None,
    say: Callable[[str], None],
    force: bool = False,
) -> None:
    """Draw a run's battles on their maps: PNG frames in ``folder`` and/or an animated ``gif``.

    A plain battle: ``folder/round-NNN.png`` (round 000 is the deployment) and ``gif``. A
    campaign: every battle with a map, ``folder/battle-N-round-NNN.png`` and
    ``GIF-battle-N.gif`` (N from 1), each titled with the battle's name. Only a folder that
    is new, empty or sim's (:data:`MARKER`) and GIFs that are new or sim's are written
    (:func:`check_targets`; ``force`` allows others). In a folder that was sim's, frames an
    earlier run left under those names are removed, so it holds this run's frames only.
    ``say`` gets one line per battle drawn (or skipped: no map) as soon as it is.
    """
    check_targets(folder, gif, force)
    was_ours = folder is not None and (Path(folder) / MARKER).exists()
    if folder is not None:
        try:
            if not (Path(folder) / MARKER).exists() or files.is_link(Path(folder) / MARKER):
                files.write_file(Path(folder) / MARKER, b"", within=folder, flag="--frames")
        except OSError as err:
            raise SimError(f"--frames {folder}: cannot write: {err.strerror or err}") from None
    campaign = bool(fought.campaign)
    labels = {r["battle"]: r["battle_label"] for r in fought.campaign}
    written: set[Path] = set()
    for i, battle in enumerate(fought.battles, start=1):
        what = f"battle {i} ({labels.get(i, '?')}): " if campaign else ""
        if battle.field is None:
            say(f"frames: {what}no map, nothing drawn")
            continue
        label = labels.get(i, "") if campaign else ""
        try:
            written |= _draw_battle(
                battle, i if campaign else 0, label, folder, gif, what, say, force
            )
        except OSError as err:
            raise SimError(f"cannot write the pictures: {err}") from err
    if folder is not None and was_ours:
        names = {p.name for p in written}

        def stale(name: str) -> bool:
            return bool(FRAME_FILE.match(name)) and name not in names

        files.remove_matching(folder, folder, stale)


def _draw_battle(
    battle: Battle,
    number: int,
    label: str,
    folder: str | None,
    gif: str | None,
    what: str,
    say: Callable[[str], None],
    force: bool = False,
) -> set[Path]:
    """Draw one battle of a run (``number`` 0: the run's only battle); the frames written."""
    assert battle.field is not None
    spec, rounds = battle.field.spec, battle.field.snapshots
    sides = [s.name for s in battle.spec.sides]
    paths: list[Path] = []
    if folder is not None:
        name = f"battle-{number}-round" if number else "round"
        paths = write_frames(spec, rounds, Path(folder), name, sides, label)
        say(f"frames: {what}{len(paths)} PNGs in {folder} ({paths[0].name} .. {paths[-1].name})")
    if gif:
        path = Path(gif)
        if number:
            path = path.with_name(f"{path.stem}-battle-{number}{path.suffix or '.gif'}")
            check_gif(path, force)
        write_gif(spec, rounds, path, sides=sides, label=label, replace=force or ours)
        say(f"gif: {what}{path} ({max(rounds)} rounds)")
    return set(paths)
