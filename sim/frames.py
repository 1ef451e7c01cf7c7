"""Pictures of a battle on its map: one PNG per round, and an animated GIF of them.

Each frame shows the terrain (walls dark grey, cover green with its points, hazards by kind),
the deployment zones faintly in each side's colour, and every fighter as a disc in its
side's colour: filled while active, ringed when fleeing, a cross when incapacitated or dead,
and left out once it has fled or surrendered. Drawn headless with matplotlib's object API.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from sim.records import atomic_write_bytes
from sim.space import Cell, MapSpec

SIDE_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
HAZARD_COLORS = {"cliff": "#5b3a1a", "quicksand": "#d8b365", "fire": "#fc4e2a"}
GONE = ("fled", "surrendered")


@dataclass(frozen=True, slots=True)
class Mark:
    """One fighter in a frame: its name, side, cell and status."""

    name: str
    side: str
    cell: Cell
    status: str = "active"


def draw(
    spec: MapSpec, marks: Sequence[Mark], title: str = "", sides: Sequence[str] = ()
) -> Figure:
    """One frame: the map and the fighters on it."""
    order = list(sides) or sorted({m.side for m in marks})
    color = {s: SIDE_COLORS[i % len(SIDE_COLORS)] for i, s in enumerate(order)}
    scale = min(0.5, 10 / max(spec.width, spec.height))
    fig = Figure(
        figsize=(max(4.0, spec.width * scale + 1.5), max(3.0, spec.height * scale + 1)),
        dpi=100,
        layout="constrained",
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
    for t in spec.terrain:
        for x, y in t.cells:
            if t.kind == "wall":
                ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, lw=0, color="#4d4d4d"))
            elif t.kind == "cover":
                ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, lw=0, color="#a6d96a", alpha=0.7))
                ax.text(x + 0.4, y + 0.4, t.name[0].upper(), fontsize=6, ha="right", va="bottom")
            else:
                hc = HAZARD_COLORS.get(t.name, "#7f7f7f")
                ax.add_patch(Rectangle((x - 0.5, y - 0.5), 1, 1, lw=0, color=hc, alpha=0.8))
    for m in marks:
        if m.status in GONE:
            continue
        c = color.get(m.side, "black")
        x, y = m.cell
        if m.status in ("incapacitated", "dead"):
            ax.plot(x, y, marker="x", color=c, markersize=8, mew=2)
        elif m.status == "fleeing":
            ax.plot(x, y, marker="o", mfc="none", mec=c, markersize=9, mew=2)
        else:
            ax.plot(x, y, marker="o", color=c, markersize=9)
    for s in order:
        ax.plot([], [], marker="o", ls="", color=color[s], label=s)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")
    ax.set_xticks(range(0, spec.width, max(1, spec.width // 10)))
    ax.set_yticks(range(0, spec.height, max(1, spec.height // 10)))
    ax.tick_params(labelsize=7)
    ax.set_title(title or f"{spec.width} x {spec.height} cells of {spec.cell_size:g} {spec.unit}")
    return fig


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
) -> list[Path]:
    """One PNG per round, ``folder/<name>-NNN.png``, each written atomically."""
    folder = Path(folder)
    out = []
    for r in sorted(rounds):
        path = folder / f"{name}-{r:03d}.png"
        atomic_write_bytes(path, png(draw(spec, rounds[r], f"round {r}", sides)))
        out.append(path)
    return out


def write_gif(
    spec: MapSpec,
    rounds: Mapping[int, Sequence[Mark]],
    path: str | Path,
    seconds_per_round: float = 0.8,
    sides: Sequence[str] = (),
) -> Path:
    """An animated GIF of the rounds, written atomically (Pillow, which matplotlib needs)."""
    from PIL import Image

    images = [
        Image.open(io.BytesIO(png(draw(spec, rounds[r], f"round {r}", sides)))).convert("RGB")
        for r in sorted(rounds)
    ]
    if not images:
        raise ValueError("no rounds to animate")
    buf = io.BytesIO()
    images[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=int(seconds_per_round * 1000),
        loop=0,
    )
    path = Path(path)
    atomic_write_bytes(path, buf.getvalue())
    return path
