#!/usr/bin/env python3
"""Renders a `tmux capture-pane -e -p` capture (text with SGR colour codes) to a PNG.

Used to make the screenshots in docs/images from real skycast runs:

    tmux capture-pane -N -e -p -t SESSION > capture.ansi
    python3 docs/render_screenshot.py capture.ansi docs/images/table.png

Needs Pillow and the DejaVu Sans Mono font (Debian: fonts-dejavu-core).
"""
import re
import sys
import unicodedata

from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
FONT_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
SIZE = 16
BACKGROUND = (30, 30, 30)
FOREGROUND = (220, 220, 220)
BASIC = [(0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16), (36, 114, 200), (188, 63, 188), (17, 168, 205),
         (229, 229, 229), (102, 102, 102), (241, 76, 76), (35, 209, 139), (245, 245, 67), (59, 142, 234), (214, 112, 214),
         (41, 184, 219), (255, 255, 255)]


def palette(index):
    if index < 16:
        return BASIC[index]
    if index >= 232:
        level = 8 + (index - 232) * 10
        return (level, level, level)
    cube = index - 16
    steps = [0, 95, 135, 175, 215, 255]
    return (steps[cube // 36], steps[(cube // 6) % 6], steps[cube % 6])


def cells(line):
    """Yields (character, style) for each character of one captured line."""
    style = {"fg": None, "bg": None, "bold": False, "dim": False, "reverse": False}
    for token in re.split(r"(\x1b\[[0-9;]*m)", line):
        if token.startswith("\x1b["):
            codes = [int(code) if code else 0 for code in token[2:-1].split(";")]
            index = 0
            while index < len(codes):
                code = codes[index]
                if code == 0:
                    style = {"fg": None, "bg": None, "bold": False, "dim": False, "reverse": False}
                elif code == 1:
                    style["bold"] = True
                elif code == 2:
                    style["dim"] = True
                elif code == 7:
                    style["reverse"] = True
                elif code == 22:
                    style["bold"] = style["dim"] = False
                elif code == 27:
                    style["reverse"] = False
                elif 30 <= code <= 37:
                    style["fg"] = code - 30
                elif 90 <= code <= 97:
                    style["fg"] = code - 90 + 8
                elif code == 39:
                    style["fg"] = None
                elif 40 <= code <= 47:
                    style["bg"] = code - 40
                elif 100 <= code <= 107:
                    style["bg"] = code - 100 + 8
                elif code == 49:
                    style["bg"] = None
                elif code in (38, 48) and index + 2 < len(codes) and codes[index + 1] == 5:
                    style["fg" if code == 38 else "bg"] = codes[index + 2]
                    index += 2
                index += 1
            continue
        for character in token:
            yield character, dict(style)


def main(source, target):
    lines = open(source, encoding="utf-8").read().rstrip("\n").split("\n")
    regular = ImageFont.truetype(FONT, SIZE)
    bold = ImageFont.truetype(FONT_BOLD, SIZE)
    cell_width = round(regular.getlength("M"))
    cell_height = SIZE + 5
    columns = 100
    image = Image.new("RGB", (columns * cell_width + 16, len(lines) * cell_height + 16), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        column = 0
        for character, style in cells(line):
            width = 2 if unicodedata.east_asian_width(character) in "WF" else 1
            foreground = palette(style["fg"]) if style["fg"] is not None else FOREGROUND
            background = palette(style["bg"]) if style["bg"] is not None else None
            if style["reverse"]:
                foreground, background = background or BACKGROUND, foreground
            if style["dim"]:
                foreground = tuple(channel * 6 // 10 for channel in foreground)
            x = 8 + column * cell_width
            y = 8 + row * cell_height
            if background is not None:
                draw.rectangle([x, y, x + width * cell_width - 1, y + cell_height - 1], fill=background)
            code = ord(character)
            if 0x2581 <= code <= 0x2588:  # lower eighth blocks: fill the cell as a terminal does
                top = y + cell_height - (code - 0x2580) * cell_height // 8
                draw.rectangle([x, top, x + cell_width - 1, y + cell_height - 1], fill=foreground)
            elif 0x2591 <= code <= 0x2593:  # light, medium, dark shade
                shade = tuple((c * (code - 0x2590) + b * (4 - (code - 0x2590))) // 4 for c, b in zip(foreground, background or BACKGROUND))
                draw.rectangle([x, y, x + cell_width - 1, y + cell_height - 1], fill=shade)
            else:
                draw.text((x, y + 2), character, font=bold if style["bold"] else regular, fill=foreground)
            column += width
    image.save(target)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
