//! Pictures of what the commands print, as SVG files (`--svg FILE`): a solved puzzle with
//! its path drawn on the start position, and charts of a tournament's ratings and of a
//! benchmark's nodes. SVG is text that every browser and image viewer shows, so the pictures
//! need no image library; the file is written whole (a temporary name, then renamed).

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;

/// Colours shared by every picture.
mod colour {
    pub(super) const INK: &str = "#222222";
    pub(super) const GRID: &str = "#bbbbbb";
    pub(crate) const TILE: &str = "#f3e2b3";
    pub(crate) const BLANK: &str = "#ffffff";
    pub(crate) const PATH: &str = "#d2452c";
    pub(crate) const WALL: &str = "#555555";
    pub(crate) const BALL: &str = "#2f6fb3";
    pub(crate) const BOX: &str = "#c99a2e";
    pub(crate) const PLAYER: &str = "#2e9e4f";
    pub(super) const BAR: &str = "#4a7fb5";
}

/// An SVG picture being drawn: its size and its elements so far.
pub(crate) struct Svg {
    width: f64,
    height: f64,
    body: String,
}

/// `text` with the characters XML gives a meaning escaped.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Svg {
    /// An empty picture of `width` x `height` user units (pixels at 100 %).
    pub(crate) fn new(width: f64, height: f64) -> Svg {
        Svg {
            width,
            height,
            body: String::new(),
        }
    }

    /// A rectangle, filled with `fill` and outlined with `stroke`.
    pub(crate) fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, stroke: &str) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}" stroke="{stroke}"/>"#
        );
    }

    /// A circle.
    pub(crate) fn circle(&mut self, cx: f64, cy: f64, r: f64, fill: &str) {
        let _ = writeln!(
            self.body,
            r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}"/>"#
        );
    }

    /// A straight line.
    pub(crate) fn line(&mut self, from: (f64, f64), to: (f64, f64), stroke: &str, width: f64) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{stroke}" stroke-width="{width:.1}"/>"#,
            from.0, from.1, to.0, to.1
        );
    }

    /// A line through `points`, ending in an arrow head.
    pub(crate) fn path(&mut self, points: &[(f64, f64)], stroke: &str, width: f64) {
        if points.len() < 2 {
            return;
        }
        let list: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect();
        let _ = writeln!(
            self.body,
            r#"<polyline points="{}" fill="none" stroke="{stroke}" stroke-width="{width:.1}" stroke-linejoin="round" stroke-opacity="0.8" marker-end="url(#arrow)"/>"#,
            list.join(" ")
        );
    }

    /// Text at (`x`, `y`) (its baseline), `size` high, anchored `start`, `middle` or `end`.
    pub(crate) fn text(&mut self, x: f64, y: f64, size: f64, anchor: &str, text: &str) {
        let _ = writeln!(
            self.body,
            r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" text-anchor="{anchor}" fill="{}">{}</text>"#,
            colour::INK,
            escaped(text)
        );
    }

    /// Lines of text under what is drawn, the picture made taller to hold them (a legend, a
    /// list that labels on the picture refer to).
    pub(crate) fn append_lines(&mut self, lines: &[String]) {
        const LINE: f64 = 16.0;
        for line in lines {
            self.height += LINE;
            let baseline = self.height - 4.0;
            self.text(MARGIN, baseline, 12.0, "start", line);
            let wide = MARGIN * 2.0 + line.chars().count() as f64 * 12.0 * 0.6;
            self.width = self.width.max(wide);
        }
        if !lines.is_empty() {
            self.height += MARGIN / 2.0;
        }
    }

    /// A label on top of lines: text centred on (`cx`, `cy`), `size` high, with a white halo
    /// so that the lines under it do not hide it.
    pub(crate) fn label(&mut self, cx: f64, cy: f64, size: f64, text: &str) {
        let _ = writeln!(
            self.body,
            r#"<text x="{cx:.1}" y="{:.1}" font-size="{size:.1}" text-anchor="middle" fill="{}" stroke="white" stroke-width="3" stroke-linejoin="round" paint-order="stroke">{}</text>"#,
            cy + size * LABEL_BASELINE,
            colour::INK,
            escaped(text)
        );
    }

    /// The picture as an SVG document.
    pub(crate) fn document(&self) -> String {
        format!(
            concat!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="sans-serif">"#,
                "\n<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" ",
                "markerWidth=\"5\" markerHeight=\"5\" orient=\"auto-start-reverse\">",
                "<path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"{path}\"/></marker></defs>\n",
                r#"<rect width="100%" height="100%" fill="white"/>"#,
                "\n{body}</svg>\n"
            ),
            w = self.width,
            h = self.height,
            path = colour::PATH,
            body = self.body
        )
    }

    /// Writes the picture to `path` whole.
    ///
    /// # Errors
    /// The file cannot be written, named.
    pub(crate) fn save(&self, path: &Path) -> Result<()> {
        crate::format::write_whole(path, self.document().as_bytes())
    }
}

/// The side of a board cell at full size.
pub(crate) const CELL: f64 = 36.0;
/// The margin around a panel.
const MARGIN: f64 = 16.0;
/// The height of a chart's title line.
const TITLE: f64 = 24.0;

/// Draws cell (row, col) of a grid with its top-left corner at (x, y).
pub(crate) type DrawCell<'a> = dyn Fn(&mut Svg, usize, usize, f64, f64) + 'a;

/// Where a cell's centre is, by its (row, col).
pub(crate) type Centre<'a> = dyn Fn(usize, usize) -> (f64, f64) + 'a;

/// Draws over a finished grid, given the centre of each cell.
pub(crate) type DrawOver<'a> = dyn Fn(&mut Svg, &Centre<'_>) + 'a;

/// A panel of a picture: its title and a `rows` x `cols` grid drawn by `cell`, which may also
/// draw over the grid once every cell is drawn (`over`).
pub(crate) struct Grid<'a> {
    /// The panel's title.
    pub title: String,
    /// The side of a cell ([`CELL`] for a full-size board, less for a thumbnail).
    pub size: f64,
    /// Rows of cells.
    pub rows: usize,
    /// Columns of cells.
    pub cols: usize,
    /// Draws cell (row, col) with its top-left corner at (x, y).
    pub cell: &'a DrawCell<'a>,
    /// Draws over the finished grid, given the centre of a cell by its (row, col).
    pub over: &'a DrawOver<'a>,
}

/// A title's font size in a panel whose cells are `size` wide.
fn title_font(size: f64) -> f64 {
    (size * 0.4).clamp(9.0, 14.0)
}

/// The width a panel takes: its grid, or its title if that is wider (a character is about
/// 0.6 of the font's size).
fn panel_width(grid: &Grid<'_>) -> f64 {
    let title = grid.title.chars().count() as f64 * title_font(grid.size) * 0.6;
    (grid.cols as f64 * grid.size).max(title)
}

/// Panels side by side, a row of them under another row: `rows` of panels.
pub(crate) fn grids(rows: &[Vec<Grid<'_>>]) -> Svg {
    let width = rows
        .iter()
        .map(|row| row.iter().map(|g| panel_width(g) + MARGIN).sum::<f64>())
        .fold(0.0, f64::max)
        + MARGIN;
    let heights: Vec<f64> = rows
        .iter()
        .map(|row| {
            row.iter()
                .map(|g| g.rows as f64 * g.size + title_font(g.size) + 10.0 + MARGIN)
                .fold(0.0, f64::max)
        })
        .collect();
    let mut svg = Svg::new(width.max(200.0), heights.iter().sum::<f64>() + MARGIN);
    let mut top = MARGIN;
    for (row, height) in rows.iter().zip(&heights) {
        let mut left = MARGIN;
        for grid in row {
            let font = title_font(grid.size);
            svg.text(left, top + font, font, "start", &grid.title);
            let (x0, y0) = (left, top + font + 10.0);
            let size = grid.size;
            for r in 0..grid.rows {
                for c in 0..grid.cols {
                    (grid.cell)(&mut svg, r, c, x0 + c as f64 * size, y0 + r as f64 * size);
                }
            }
            let centre =
                |r: usize, c: usize| (x0 + (c as f64 + 0.5) * size, y0 + (r as f64 + 0.5) * size);
            (grid.over)(&mut svg, &centre);
            left += panel_width(grid) + MARGIN;
        }
        top += height;
    }
    svg
}

/// Draws a plain cell `size` wide: a square of `fill` with `label` in its middle.
pub(crate) fn cell(svg: &mut Svg, x: f64, y: f64, size: f64, fill: &str, label: &str) {
    svg.rect(x, y, size, size, fill, colour::GRID);
    if !label.is_empty() {
        let font = size * 0.4;
        svg.text(
            x + size / 2.0,
            y + size / 2.0 + font * 0.35,
            font,
            "middle",
            label,
        );
    }
}

/// Where a label's baseline sits below its centre, as a share of its size: digits rise
/// about 0.7 of the font's size above the baseline.
const LABEL_BASELINE: f64 = 0.35;

/// The rectangle a label's text takes (the width a character is taken to need, 0.6 of the
/// font's size, is a sans-serif digit's with room to spare), with a pixel of clearance all
/// round so that neighbouring labels do not touch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LabelBox {
    /// Its left edge.
    pub left: f64,
    /// Its top edge.
    pub top: f64,
    /// Its right edge.
    pub right: f64,
    /// Its bottom edge.
    pub bottom: f64,
}

impl LabelBox {
    /// The box of `text`, `size` high, centred on `centre`.
    pub(crate) fn around(centre: (f64, f64), text: &str, size: f64) -> LabelBox {
        let half_width = text.chars().count() as f64 * size * 0.6 / 2.0 + 1.0;
        let half_height = size / 2.0 + 1.0;
        LabelBox {
            left: centre.0 - half_width,
            top: centre.1 - half_height,
            right: centre.0 + half_width,
            bottom: centre.1 + half_height,
        }
    }

    /// Whether the two boxes share any area.
    pub(crate) fn overlaps(&self, other: &LabelBox) -> bool {
        self.left < other.right
            && other.left < self.right
            && self.top < other.bottom
            && other.top < self.bottom
    }
}

/// Where a label of an arrow went: its centre, and whether it sits on or beside its arrow
/// (otherwise it was moved away for want of room and needs a leader line to it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Placed {
    /// The label's centre.
    pub centre: (f64, f64),
    /// Whether the label touches its arrow's neighbourhood.
    pub on_arrow: bool,
}

/// An arrow drawn from its first point to its second.
pub(crate) type Segment = ((f64, f64), (f64, f64));

/// Lays out one label per arrow so that no two overlap: each label, in order, takes the
/// first free place among points along its arrow (the middle, then nearer either end) at
/// growing distances to either side of it; when none is free (arrows drawn over each other
/// many times) it takes the nearest free place around the arrow's middle, further out ring
/// by ring. `arrows` are (from, to) points, `texts` the labels, `size` their height.
pub(crate) fn place_labels(arrows: &[Segment], texts: &[String], size: f64) -> Vec<Placed> {
    let mut taken: Vec<LabelBox> = Vec::new();
    let mut out = Vec::new();
    for (&(from, to), text) in arrows.iter().zip(texts) {
        let free = |centre: (f64, f64)| {
            let candidate = LabelBox::around(centre, text, size);
            !taken.iter().any(|b| b.overlaps(&candidate))
        };
        let placed = beside_arrow(from, to, size)
            .find(|&c| free(c))
            .map(|centre| Placed {
                centre,
                on_arrow: true,
            })
            .unwrap_or_else(|| Placed {
                centre: around_point(midpoint(from, to), size)
                    .find(|&c| free(c))
                    .expect("the rings around a point reach beyond every label"),
                on_arrow: false,
            });
        taken.push(LabelBox::around(placed.centre, text, size));
        out.push(placed);
    }
    out
}

/// The point halfway between `a` and `b`.
fn midpoint(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)
}

/// The places beside an arrow a label may take, best first: along it at the middle, then a
/// third of the way from either end, each on the arrow and then further to either side of it
/// (up to two label heights).
fn beside_arrow(from: (f64, f64), to: (f64, f64), size: f64) -> impl Iterator<Item = (f64, f64)> {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = dx.hypot(dy).max(1e-9);
    // The unit normal: to the arrow's left, then its right.
    let normal = (-dy / length, dx / length);
    [0.0, 1.0, -1.0, 2.0, -2.0]
        .into_iter()
        .flat_map(move |side| {
            [0.5, 1.0 / 3.0, 2.0 / 3.0].into_iter().map(move |along| {
                (
                    from.0 + dx * along + normal.0 * side * size,
                    from.1 + dy * along + normal.1 * side * size,
                )
            })
        })
}

/// Places around `centre` ring by ring (squares of growing side, a label height a step),
/// nearest first within a ring; endless, so a free place is always found.
fn around_point(centre: (f64, f64), size: f64) -> impl Iterator<Item = (f64, f64)> {
    (1i32..).flat_map(move |ring| {
        let mut points: Vec<(i32, i32)> = (-ring..=ring)
            .flat_map(|i| (-ring..=ring).map(move |j| (i, j)))
            .filter(|&(i, j)| i.abs().max(j.abs()) == ring)
            .collect();
        points.sort_by_key(|&(i, j)| (i * i + j * j, j, i));
        points.into_iter().map(move |(i, j)| {
            (
                centre.0 + f64::from(i) * size * 1.2,
                centre.1 + f64::from(j) * size,
            )
        })
    })
}

/// The colours of the pictures, for the commands that draw their own cells.
pub(crate) use colour::{BALL, BLANK, BOX, PATH, PLAYER, TILE, WALL};

/// A horizontal chart of one value per row with its interval (a rating and its 95 %
/// interval, say): `rows` of (label, value, low, high), the axis named `axis`.
pub(crate) fn interval_chart(title: &str, axis: &str, rows: &[(String, f64, f64, f64)]) -> Svg {
    let label_width = 8.0 * rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(4) as f64;
    let plot = 480.0;
    let row_height = 28.0;
    let height = TITLE + MARGIN * 3.0 + row_height * rows.len() as f64 + 30.0;
    let mut svg = Svg::new(MARGIN * 3.0 + label_width + plot, height);
    svg.text(MARGIN, MARGIN + 14.0, 14.0, "start", title);
    // The scale: every value and every finite end of an interval, with a margin.
    let finite = rows
        .iter()
        .flat_map(|r| [r.1, r.2, r.3])
        .filter(|v| v.is_finite());
    let (mut lo, mut hi) = finite.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if hi - lo < 1.0 {
        (lo, hi) = (lo - 1.0, hi + 1.0);
    }
    let pad = (hi - lo) * 0.05;
    let (lo, hi) = (lo - pad, hi + pad);
    let x0 = MARGIN * 2.0 + label_width;
    let at = |v: f64| x0 + (v.clamp(lo, hi) - lo) / (hi - lo) * plot;
    let top = MARGIN + TITLE;
    let bottom = top + row_height * rows.len() as f64;
    // Ticks at a round step, and the zero line.
    let step = round_step((hi - lo) / 6.0);
    let mut tick = (lo / step).ceil() * step;
    while tick <= hi {
        svg.line((at(tick), top), (at(tick), bottom), colour::GRID, 0.5);
        let label = if tick.abs() < step / 2.0 {
            "0".to_string()
        } else {
            format!("{tick:+.0}")
        };
        svg.text(at(tick), bottom + 16.0, 11.0, "middle", &label);
        tick += step;
    }
    if lo < 0.0 && hi > 0.0 {
        svg.line((at(0.0), top), (at(0.0), bottom), colour::INK, 1.0);
    }
    svg.text(x0 + plot / 2.0, bottom + 32.0, 12.0, "middle", axis);
    for (i, (label, value, low, high)) in rows.iter().enumerate() {
        let y = top + row_height * (i as f64 + 0.5);
        svg.text(x0 - 8.0, y + 4.0, 12.0, "end", label);
        svg.line((at(*low), y), (at(*high), y), colour::BAR, 2.0);
        for end in [low, high].into_iter().filter(|v| v.is_finite()) {
            svg.line((at(*end), y - 6.0), (at(*end), y + 6.0), colour::BAR, 2.0);
        }
        svg.circle(at(*value), y, 5.0, colour::PATH);
    }
    svg
}

/// A round step near `raw` (1, 2 or 5 times a power of ten).
fn round_step(raw: f64) -> f64 {
    let power = 10f64.powf(raw.max(1e-9).log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * power)
}

/// A bar chart of one count per label on a logarithmic scale (nodes per instance, say).
pub(crate) fn log_bars(title: &str, axis: &str, bars: &[(String, u64)]) -> Svg {
    let plot_height = 240.0;
    let bar = 14.0_f64.min(720.0 / bars.len().max(1) as f64).max(2.0);
    let width = MARGIN * 2.0 + 60.0 + bar * bars.len() as f64 + MARGIN;
    let text = 8.0 * title.chars().count().max(axis.chars().count()) as f64 + 60.0 + MARGIN * 2.0;
    let mut svg = Svg::new(width.max(text), TITLE + MARGIN * 3.0 + plot_height + 40.0);
    svg.text(MARGIN, MARGIN + 14.0, 14.0, "start", title);
    let top = MARGIN + TITLE;
    let bottom = top + plot_height;
    let x0 = MARGIN + 60.0;
    let most = bars.iter().map(|b| b.1).max().unwrap_or(1).max(10);
    let decades = (most as f64).log10().ceil().max(1.0);
    let at = |v: u64| bottom - (v.max(1) as f64).log10() / decades * plot_height;
    for decade in 0..=decades as u32 {
        let y = at(10u64.saturating_pow(decade));
        svg.line(
            (x0, y),
            (x0 + bar * bars.len() as f64, y),
            colour::GRID,
            0.5,
        );
        svg.text(x0 - 6.0, y + 4.0, 11.0, "end", &format!("1e{decade}"));
    }
    for (i, (label, value)) in bars.iter().enumerate() {
        let x = x0 + bar * i as f64;
        let y = at(*value);
        svg.rect(x + 1.0, y, bar - 2.0, bottom - y, colour::BAR, "none");
        if bars.len() <= 40 {
            svg.text(x + bar / 2.0, bottom + 14.0, 9.0, "middle", label);
        }
    }
    svg.text(x0, bottom + 32.0, 12.0, "start", axis);
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tags of `svg`, opened and closed in order (a check that the document is well
    /// formed: every tag closed, text escaped).
    fn balanced(svg: &str) -> bool {
        let mut open: Vec<String> = Vec::new();
        let mut rest = svg;
        while let Some(start) = rest.find('<') {
            let Some(end) = rest[start..].find('>') else {
                return false;
            };
            let tag = &rest[start + 1..start + end];
            rest = &rest[start + end + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                if open.pop().as_deref() != Some(name) {
                    return false;
                }
            } else if !tag.ends_with('/') {
                open.push(tag.split_whitespace().next().unwrap_or("").to_string());
            }
        }
        open.is_empty()
    }

    #[test]
    fn text_is_escaped_and_the_document_well_formed() {
        let mut svg = Svg::new(100.0, 50.0);
        svg.text(1.0, 2.0, 10.0, "start", "a<b & \"c\"");
        let doc = svg.document();
        assert!(doc.contains("a&lt;b &amp; &quot;c&quot;"), "{doc}");
        assert!(balanced(&doc), "{doc}");
    }

    #[test]
    fn charts_are_well_formed_with_infinite_intervals_and_zero_counts() {
        let rows = vec![
            ("deep".to_string(), 120.0, 40.0, 200.0),
            (
                "random".to_string(),
                -120.0,
                f64::NEG_INFINITY,
                f64::INFINITY,
            ),
        ];
        let doc = interval_chart("Elo", "Elo (95 %)", &rows).document();
        assert!(balanced(&doc) && doc.contains(">deep<"), "{doc}");
        let bars = vec![("1".to_string(), 0), ("2".to_string(), 2_031_102_635)];
        let doc = log_bars("nodes", "instance", &bars).document();
        assert!(balanced(&doc) && doc.contains(">1e10<"), "{doc}");
    }

    #[test]
    fn labels_of_arrows_drawn_over_each_other_do_not_overlap() {
        // Five arrows along one segment, two crossing it, and one elsewhere.
        let mut arrows = vec![((100.0, 100.0), (136.0, 100.0)); 5];
        arrows.push(((118.0, 80.0), (118.0, 120.0)));
        arrows.push(((136.0, 82.0), (100.0, 118.0)));
        arrows.push(((300.0, 300.0), (300.0, 264.0)));
        let texts: Vec<String> = (1..=arrows.len()).map(|n| (n * 3).to_string()).collect();
        let placed = place_labels(&arrows, &texts, 9.0);
        let boxes: Vec<LabelBox> = placed
            .iter()
            .zip(&texts)
            .map(|(p, t)| LabelBox::around(p.centre, t, 9.0))
            .collect();
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                assert!(!a.overlaps(b), "{a:?} and {b:?}");
            }
        }
        // The first label sits at its arrow's middle, a lone one too.
        assert_eq!(placed[0].centre, (118.0, 100.0));
        assert_eq!(placed[7].centre, (300.0, 282.0));
        assert!(placed[7].on_arrow);
        // Twenty labels on one short arrow: the last ones are moved off it.
        let crowd = vec![((0.0, 0.0), (36.0, 0.0)); 20];
        let texts: Vec<String> = (1..=20).map(|n| n.to_string()).collect();
        let placed = place_labels(&crowd, &texts, 9.0);
        assert!(placed.iter().any(|p| !p.on_arrow));
        let boxes: Vec<LabelBox> = placed
            .iter()
            .zip(&texts)
            .map(|(p, t)| LabelBox::around(p.centre, t, 9.0))
            .collect();
        for (i, a) in boxes.iter().enumerate() {
            assert!(boxes[i + 1..].iter().all(|b| !a.overlaps(b)), "{placed:?}");
        }
    }

    #[test]
    fn round_steps() {
        assert_eq!(round_step(0.7), 1.0);
        assert_eq!(round_step(37.0), 50.0);
        assert_eq!(round_step(120.0), 200.0);
    }
}
