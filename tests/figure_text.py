"""Where a figure's text lands: every visible text's extent, drawn with the figure's own renderer.

`text_problems(fig)` lists the texts that lie outside the figure, overlap another text, or are
smaller than a projector can show; the panel figure test (tests/test_panel_figures.py) uses it.
"""

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from sim.presentation.figures import course_style

MIN_POINTS = 9.0  # the smallest font a projector shows readably at the panel's size
SLACK = 1.0  # pixels: extents touching at an edge do not count as overlapping


def drawn_texts(fig: Figure) -> list[Text]:
    """Every non-empty text drawn when `fig` is drawn (in the course's style, laid out as for a PNG
    but with no pixels made: Figure.draw_without_rendering): titles, labels, the tick labels
    inside the axes' limits, legends, annotations. Ticks that the axis does not draw and
    invisible texts are left out."""
    drawn = []
    original = Text.draw

    def draw(text, renderer):
        if text.get_visible() and text.get_text().strip():
            drawn.append(text)
        return original(text, renderer)

    FigureCanvasAgg(fig)  # text is measured with Agg's metrics, as the lessons' PNGs are drawn
    Text.draw = draw
    try:
        with course_style():
            fig.draw_without_rendering()  # layout and text placement as in a full draw, no pixels
    finally:
        Text.draw = original
    return list(dict.fromkeys(drawn))


def text_problems(fig: Figure, min_points: float = MIN_POINTS) -> list[str]:
    """What is wrong with the figure's text: outside the figure, overlapping other text, or too small.

    Parameters
    ----------
    fig : Figure
        A drawn or undrawn figure; it is drawn here (with its layout engine, if any).
    min_points : float
        The smallest font size allowed, in points.

    Returns
    -------
    list[str]
        One line per problem, naming the text; empty when the figure's text is all readable.
    """
    texts = drawn_texts(fig)
    renderer = fig.canvas.get_renderer()
    frame = fig.bbox
    boxes = [text.get_window_extent(renderer) for text in texts]
    problems = []
    for text, box in zip(texts, boxes, strict=True):
        if box.width == 0 or box.height == 0:
            continue
        if (box.x0 < frame.x0 - SLACK or box.y0 < frame.y0 - SLACK or box.x1 > frame.x1 + SLACK
                or box.y1 > frame.y1 + SLACK):  # fmt: skip
            problems.append(f"outside the figure: {text.get_text()!r}")
        if text.get_fontsize() < min_points:
            problems.append(
                f"smaller than {min_points:g} pt ({text.get_fontsize():g} pt): {text.get_text()!r}"
            )
    for i in range(len(texts)):
        for j in range(i + 1, len(texts)):
            if _overlap(boxes[i], boxes[j]):
                problems.append(f"overlapping: {texts[i].get_text()!r} and {texts[j].get_text()!r}")
    for legend in _legends(fig):
        own = {id(text) for text in legend.get_texts()} | {id(legend.get_title())}
        frame = legend.get_window_extent(renderer)
        for text, box in zip(texts, boxes, strict=True):
            if id(text) not in own and _overlap(frame, box):
                problems.append(f"under the legend: {text.get_text()!r}")
    return problems


def _legends(fig: Figure) -> list:
    legends = list(fig.legends)
    legends += [ax.get_legend() for ax in fig.get_axes() if ax.get_legend() is not None]
    return [legend for legend in legends if legend.get_visible()]


def _overlap(a, b) -> bool:
    if min(a.width, a.height, b.width, b.height) == 0:
        return False
    return min(a.x1, b.x1) - max(a.x0, b.x0) > SLACK and min(a.y1, b.y1) - max(a.y0, b.y0) > SLACK
