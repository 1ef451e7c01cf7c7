"""What every chart of sim shares: its palette, text drawn as written, and exact bytes.

A ground-floor module (matplotlib only): the summary's charts (:mod:`sim.analysis.plots`),
the searches' (:mod:`sim.search`), the odds' and a map's frames draw with it.
"""

from __future__ import annotations

import functools
import io
import warnings
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import matplotlib
from matplotlib.figure import Figure

P = ParamSpec("P")
R = TypeVar("R")

COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
"""The palette, in the order groups and series take it."""


def literal(draw: Callable[P, R]) -> Callable[P, R]:
    """Draw every text of ``draw``'s figure as written, with no mathtext.

    A name or label holding ``$...$`` would otherwise be drawn as math (or end in a
    traceback when it is not valid math): inside, ``text.parse_math`` is off for every text
    made, tick labels included (they are made when the figure is drawn, so saving is
    wrapped too). A glyph the font lacks is drawn as a box without a warning.
    """

    @functools.wraps(draw)
    def literally(*args: P.args, **kwargs: P.kwargs) -> R:
        with matplotlib.rc_context({"text.parse_math": False}), warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Glyph .* missing from font", UserWarning)
            return draw(*args, **kwargs)

    return literally


def png_bytes(fig: Figure, dpi: float | None = None) -> bytes:
    """The figure as PNG bytes (at ``dpi`` dots per inch; default the figure's, 100)."""
    return image_bytes(fig, "png", dpi)


@literal
def image_bytes(fig: Figure, fmt: str, dpi: float | None = None) -> bytes:
    """The figure as ``png``, ``svg`` or ``pdf`` bytes; SVG and PDF are vector drawings.

    The same figure gives the same bytes (no date in the file, fixed SVG element ids).

    ``dpi`` sets a PNG's resolution (and that of any raster part of a vector file, such as
    a heatmap's cells); default the figure's own, 100.
    """
    buf = io.BytesIO()
    meta = {"Date": None} if fmt == "svg" else {"CreationDate": None} if fmt == "pdf" else {}
    with matplotlib.rc_context({"svg.hashsalt": "sim"}):  # the same figure, the same bytes
        fig.savefig(buf, format=fmt, dpi=dpi or fig.dpi, metadata=meta)
    return buf.getvalue()
