"""Checks of figure files for the tests: PDF header, SVG parsed as XML, its
text and element ids."""
import os
import xml.etree.ElementTree as ET

SVG_NS = "{http://www.w3.org/2000/svg}"


def svg_root(path):
    root = ET.parse(path).getroot()
    if root.tag not in ("svg", SVG_NS + "svg"):
        raise AssertionError(f"{path}: root element is {root.tag}, not <svg>")
    return root


def svg_texts(path):
    """The text of every <text> element (with svg.fonttype none, matplotlib keeps text as text)."""
    return ["".join(t.itertext()).strip() for t in svg_root(path).iter(SVG_NS + "text")]


def svg_ids(path):
    return {e.get("id") for e in svg_root(path).iter() if e.get("id")}


def check_formats(test, stem):
    """stem.png, stem.pdf (starts with %PDF) and stem.svg (XML with an <svg> root) exist."""
    for ext in ("png", "pdf", "svg"):
        p = f"{stem}.{ext}"
        test.assertTrue(os.path.exists(p) and os.path.getsize(p) > 1000, f"{p} is missing or tiny")
    with open(f"{stem}.png", "rb") as f:
        test.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", f"{stem}.png")
    with open(f"{stem}.pdf", "rb") as f:
        test.assertEqual(f.read(5), b"%PDF-", f"{stem}.pdf")
    svg_root(f"{stem}.svg")
