#!/usr/bin/env python3
"""Reads a screenshot's pixels for chart_clicks.sh (no PIL here: ImageMagick's raw RGB).

  chart_pixels.py swatch IMG RRGGBB   x y of the lowest legend swatch of that colour
  chart_pixels.py count IMG RRGGBB [X0 Y1]   pixels close to that colour (with x >= X0, y < Y1:
                                             the chart above its legend, not the tables)
  chart_pixels.py maxx IMG RRGGBB [X0 Y1]    rightmost x of such pixels (-1 if none)
  chart_pixels.py within IMG RRGGBB X Y W H  pixels close to that colour in that rectangle
  chart_pixels.py ink IMG X0 X1 Y0 Y1        pixels clearly darker than the white background in
                                             that rectangle (text, swatches, lines)
  chart_pixels.py kept IMG1 IMG2 RRGGBB X0 Y1  per cent of IMG1's such pixels that IMG2 has at
                                             the same place, within 2 px (a redrawn curve: low)
"""
import subprocess
import sys


def load(path):
    size = subprocess.run(["convert", path, "-format", "%w %h", "info:"], check=True,
                          capture_output=True, text=True).stdout.split()
    width, height = int(size[0]), int(size[1])
    raw = subprocess.run(["convert", path, "-depth", "8", "rgb:-"], check=True,
                         capture_output=True).stdout
    return width, height, raw


def near(raw, i, rgb, tolerance):
    return (abs(raw[i] - rgb[0]) + abs(raw[i + 1] - rgb[1]) + abs(raw[i + 2] - rgb[2])
            <= tolerance)


def main():
    what, path = sys.argv[1], sys.argv[2]
    width, height, raw = load(path)
    if what == "ink":
        x0, x1, y0, y1 = (int(v) for v in sys.argv[3:7])
        print(sum(1 for y in range(max(0, y0), min(y1, height))
                  for x in range(max(0, x0), min(x1, width))
                  if sum(raw[3 * (y * width + x):3 * (y * width + x) + 3]) < 600))
        return
    colour = sys.argv[4] if what == "kept" else sys.argv[3]
    rgb = tuple(int(colour[k:k + 2], 16) for k in (0, 2, 4))
    if what == "within":
        x0, y0, w, h = (int(v) for v in sys.argv[4:8])
        print(sum(1 for y in range(max(0, y0), min(y0 + h, height))
                  for x in range(max(0, x0), min(x0 + w, width))
                  if near(raw, 3 * (y * width + x), rgb, 40)))
        return
    if what == "swatch":
        # A legend swatch: an exact-colour horizontal stroke of 24 px or more (an antialiased
        # curve is hardly ever that long and flat); the legend lies under the plot: the lowest.
        found = None
        for y in range(height):
            run = 0
            for x in range(width):
                if near(raw, 3 * (y * width + x), rgb, 6):
                    run += 1
                    if run == 24:
                        found = (x - 12, y)
                else:
                    run = 0
        print(*(found or (-1, -1)))
    elif what in ("count", "maxx"):
        x0 = int(sys.argv[4]) if len(sys.argv) > 4 else 0
        y1 = int(sys.argv[5]) if len(sys.argv) > 5 else height
        count, rightmost = 0, -1
        for y in range(min(y1, height)):
            row = 3 * y * width
            for x in range(max(0, x0), width):
                if near(raw, row + 3 * x, rgb, 40):
                    count += 1
                    rightmost = max(rightmost, x)
        print(count if what == "count" else rightmost)
    elif what == "kept":
        # IMG1 is sys.argv[2]; the colour and region follow IMG2.
        other = sys.argv[3]
        rgb = tuple(int(sys.argv[4][k:k + 2], 16) for k in (0, 2, 4))
        x0, y1 = int(sys.argv[5]), int(sys.argv[6])
        w2, h2, raw2 = load(other)
        if (w2, h2) != (width, height):
            sys.exit("the screenshots differ in size")

        def places(img):
            return {(x, y) for y in range(min(y1, height)) for x in range(max(0, x0), width)
                    if near(img, 3 * (y * width + x), rgb, 40)}

        before, after = places(raw), places(raw2)
        kept = sum(1 for (x, y) in before
                   if any((x + dx, y + dy) in after for dx in (-2, -1, 0, 1, 2)
                          for dy in (-2, -1, 0, 1, 2)))
        print(100 * kept // max(1, len(before)))
    else:
        sys.exit("unknown command " + what)


if __name__ == "__main__":
    main()
