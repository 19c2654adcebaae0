"""Sphinx's configuration of the course's static site (scripts/build_site.py lays out the sources and builds).

Sphinx with myst-nb (the notebooks' stored outputs, never executed) and myst-parser (the Markdown pages),
themed by sphinx-book-theme: all from the Python package registry, so the site builds offline. Mermaid
diagrams are drawn in the reader's browser by the vendored _static/mermaid/mermaid.min.js; no page loads
anything from another host.
"""

import html
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive

HERE = Path(__file__).resolve().parent

project = "Agent loops, measured"
author = "the course's authors"
copyright = "the course's authors; code MIT, text and figures CC BY 4.0"
root_doc = "index"
extensions = ["myst_nb"]
exclude_patterns = ["_build", "**.ipynb_checkpoints"]

# the notebooks are shown as they were executed and committed (scripts/refresh_lessons.py)
nb_execution_mode = "off"
nb_output_stderr = "show"
# printed output is plain text (the course prints no colours): no ANSI lexer over every table, a faster build
nb_render_text_lexer = "text"
# a widget's stored view cannot be drawn without its kernel: scripts/build_site.py takes such outputs out,
# and no widget manager is loaded (it would come from a CDN)
nb_ipywidgets_js = {}
myst_enable_extensions = ["colon_fence", "html_image"]
myst_fence_as_directive = ["mermaid"]
myst_heading_anchors = 3
# myst.header: a lesson's headings may skip a level; myst.xref_missing: the glossary's anchors are its own
# <a id="..."></a>, which myst cannot see (the links are right: tests/test_site.py follows each in a browser)
suppress_warnings = ["myst.header", "myst.xref_missing"]

html_theme = "sphinx_book_theme"
html_title = project
html_static_path = [str(HERE / "_static")]
html_favicon = str(HERE / "_static" / "favicon.svg")  # else the browser asks for /favicon.ico, a 404
html_css_files = ["course.css"]
MERMAID_JS = ["mermaid/mermaid.min.js", "mermaid-init.js"]  # only on a page with a diagram (add_mermaid)
html_copy_source = False
html_show_sourcelink = False
html_theme_options = {
    "show_toc_level": 2,
    "use_download_button": False,
    "home_page_in_toc": True,
}
html_context = {"default_mode": "light"}
# Sphinx adds MathJax (from a CDN) only to a page with math; the lessons write none (tests/test_site.py
# fails on any request to another host)


class Mermaid(Directive):
    """A ```mermaid fence (myst_fence_as_directive): its text in <pre class="mermaid">, for mermaid.js."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True

    def run(self):
        text = "\n".join(self.content)
        return [nodes.raw("", f'<pre class="mermaid">{html.escape(text)}</pre>', format="html")]


def add_mermaid(app, pagename, templatename, context, doctree):
    """Load Mermaid (2.7 MB) on the pages that have a diagram, and on no other."""
    if doctree is not None and any('class="mermaid"' in node.astext() for node in doctree.findall(nodes.raw)):
        for script in MERMAID_JS:
            app.add_js_file(script)


def setup(app):
    app.add_directive("mermaid", Mermaid)
    app.connect("html-page-context", add_mermaid)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
