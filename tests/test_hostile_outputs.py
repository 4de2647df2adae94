"""Issue 31, round two of hostile input: what a record's own words may not
do to the outputs made of it (a Markdown summary running script, a table
broken by a `|`)."""

from __future__ import annotations

from strategies import SAMPLES

HOSTILE = {
    "Event": "<img src=x onerror=alert(1)>",
    "P1": "a|b [x](javascript:alert(1))",
    "P2": "<script>alert(2)</script>",
}


def _hostile_record() -> str:
    text = (SAMPLES / "classic-2.ord").read_text("utf-8")
    text = text.replace('[Event "Lyon club night"]', f'[Event "{HOSTILE["Event"]}"]')
    text = text.replace('[P1 "Anna Petrova"]', f'[P1 "{HOSTILE["P1"]}"]')
    text = text.replace('[P2 "Boris Lind"]', f'[P2 "{HOSTILE["P2"]}"]')
    comment = "{<script>alert(3)</script>\n<a href='javascript:x'>y</a>}"
    return text.replace("1. LH J\n", f"1. LH J {comment}\n")


def test_a_markdown_summary_renders_no_markup_of_the_records_words(ordo):
    from markdown_it import MarkdownIt

    result = ordo("summary", "--format", "markdown", "-", input=_hostile_record())
    assert result.exit_code == 0, result.output
    html = MarkdownIt("commonmark").enable("table").render(result.stdout)
    for tag in ("<script", "<img", "<a ", 'javascript:alert(1)"'):
        assert tag not in html
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in html  # shown, as written
    cells = [row.count("<td>") for row in html.split("<tr>")[1:] if "<td>" in row]
    assert len(cells) == 10 and set(cells) == {5}  # a `|` in a name makes no sixth cell
