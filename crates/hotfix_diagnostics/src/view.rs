//! What a code frame shows of a file: the lines around the labels, a long line cut to windows
//! around the places the labels start and end, every character a terminal could act on
//! escaped. miette is handed this view, not the file: it never sees more than a window of a
//! line (a minified one-line JSON template is one line of any length), and the underlines it
//! draws line up with the escaped text.

use std::fmt::Write as _;

use hotfix_yaml::{LineIndex, Span};
use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use crate::escape::escape;

/// Bytes shown either side of a place where a label starts or ends, on a long line.
const AROUND: usize = 40;
/// A line of at most this many bytes is shown whole.
const LONG_LINE: usize = 160;
/// Lines shown before the first line and after the last line of each label (as miette does).
const CONTEXT_LINES: usize = 1;

/// The text a frame shows, with the labels' spans placed in it.
pub(crate) struct View {
    name: String,
    text: String,
    groups: Vec<Group>,
    places: Vec<Place>,
}

/// A run of consecutive lines of the file, as they stand in the view.
struct Group {
    /// The 0-based number of its first line in the file.
    line: usize,
    /// The line breaks from the file's start to the end of its last line (what miette calls
    /// the line count of a span's contents).
    breaks: usize,
    /// Where it starts and ends in the view.
    start: usize,
    end: usize,
}

/// A label: its span in the view, and where it starts in the file (0-based line, 0-based
/// column in characters).
#[derive(Clone, Copy)]
struct Place {
    span: SourceSpan,
    line: usize,
    column: usize,
}

/// One line of the file in the view.
struct Shown {
    /// Where its text ends (before the line break) in the file, and where the next line starts.
    content_end: usize,
    next: usize,
    /// The parts of the line kept: where each starts and ends in the file, and where it starts
    /// in the view.
    kept: Vec<(usize, usize, usize)>,
    /// Where its text ends in the view, and where its line break ends.
    view_end: usize,
    view_next: usize,
}

impl View {
    /// The view of `source` (named `name`, its lines indexed by `lines`) for labels at `spans`;
    /// spans past the end are placed at the end.
    pub(crate) fn new(name: &str, source: &str, lines: &LineIndex, spans: &[Span]) -> View {
        let spans: Vec<Span> = spans.iter().map(|&s| clamped(s, source)).collect();
        // 0-based lines.
        let line = |offset: usize| lines.position(source, offset).line - 1;
        let last_line = lines.line_count() - 1;
        // The line breaks up to the end of `line` (the last line may have none).
        let breaks = |line: usize| {
            if lines.line_start(line + 2).is_some() {
                line + 1
            } else {
                line
            }
        };
        // The lines around each label, joined as miette joins them: in the order the labels
        // start, a label's lines join the frame before when that frame's first line plus the
        // line breaks up to its end reach them (miette compares a line number with a count of
        // lines from the file's start, which joins all but distant labels: frames look as they
        // always have).
        let mut order = spans.clone();
        order.sort_by_key(|s| s.start);
        let mut merged: Vec<(usize, usize)> = Vec::new();
        for s in order {
            let first = line(s.start).saturating_sub(CONTEXT_LINES);
            let last = (line(s.end) + CONTEXT_LINES).min(last_line);
            match merged.last_mut() {
                Some(prev) if prev.0 + breaks(prev.1) >= first => prev.1 = prev.1.max(last),
                _ => merged.push((first, last)),
            }
        }
        let points: Vec<usize> = spans.iter().flat_map(|s| [s.start, s.end]).collect();
        let mut text = String::new();
        let mut groups = Vec::with_capacity(merged.len());
        let mut shown: Vec<(usize, Shown)> = Vec::new();
        for (first, last) in merged {
            let start = text.len();
            for line in first..=last {
                let begin = lines.line_start(line + 1).unwrap_or(source.len());
                let next = lines.line_start(line + 2).unwrap_or(source.len());
                shown.push((
                    begin,
                    show_line(source, lines, begin, next, &points, &mut text),
                ));
            }
            groups.push(Group {
                line: first,
                breaks: breaks(last),
                start,
                end: text.len(),
            });
        }
        let places = spans
            .iter()
            .map(|s| {
                let (start, end) = (place(&shown, source, s.start), place(&shown, source, s.end));
                let at = lines.position(source, s.start);
                Place {
                    span: SourceSpan::from(start..end.max(start)),
                    line: at.line - 1,
                    column: at.char_col - 1,
                }
            })
            .collect();
        View {
            name: escape(name).into_owned(),
            text,
            groups,
            places,
        }
    }

    /// The spans of the labels in the view, in the order given to [`View::new`].
    pub(crate) fn span(&self, index: usize) -> SourceSpan {
        self.places
            .get(index)
            .map_or_else(|| SourceSpan::from(0..0), |p| p.span)
    }

    /// The group of lines that holds `offset` of the view.
    fn group(&self, offset: usize) -> usize {
        self.groups
            .iter()
            .position(|g| g.start <= offset && offset < g.end)
            .or_else(|| self.groups.iter().position(|g| g.end == offset))
            .unwrap_or(0)
    }
}

impl SourceCode for View {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let (start, end) = (span.offset(), span.offset() + span.len());
        if end > self.text.len() {
            return Err(MietteError::OutOfBounds);
        }
        // Without context lines miette asks where a label starts, for the frame's header.
        if before == 0
            && after == 0
            && let Some(place) = self.places.iter().find(|p| p.span.offset() == start)
        {
            return Ok(Box::new(MietteSpanContents::new_named(
                self.name.clone(),
                &self.text.as_bytes()[start..end],
                *span,
                place.line,
                place.column,
                1,
            )));
        }
        let Some(first) = self.groups.get(self.group(start)) else {
            return Ok(Box::new(MietteSpanContents::new_named(
                self.name.clone(),
                &[],
                SourceSpan::from(0..0),
                0,
                0,
                0,
            )));
        };
        let last = &self.groups[self.group(end).max(self.group(start))];
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            &self.text.as_bytes()[first.start..last.end],
            SourceSpan::from(first.start..last.end),
            first.line,
            0,
            last.breaks,
        )))
    }
}

/// A span within `source`, on character boundaries.
fn clamped(span: Span, source: &str) -> Span {
    let start = floor(source, span.start.min(source.len()));
    let end = floor(source, span.end.clamp(start, source.len()));
    Span::new(start, end)
}

/// Appends the line of `source` from `begin` to `next` (the start of the next line) to `text`,
/// cut around the `points` it holds when it is long, and says what was kept.
fn show_line(
    source: &str,
    lines: &LineIndex,
    begin: usize,
    next: usize,
    points: &[usize],
    text: &mut String,
) -> Shown {
    let bytes = source.as_bytes();
    let mut content_end = next;
    if content_end > begin && bytes[content_end - 1] == b'\n' {
        content_end -= 1;
    }
    if content_end > begin && bytes[content_end - 1] == b'\r' {
        content_end -= 1;
    }
    let windows = windows(source, begin, content_end, points);
    let mut kept = Vec::with_capacity(windows.len());
    let mut at = begin;
    for (from, to) in windows {
        if from > at {
            cut(source, lines, at, from, text);
        }
        kept.push((from, to, text.len()));
        text.push_str(&escape(&source[from..to]));
        at = to;
    }
    if content_end > at {
        cut(source, lines, at, content_end, text);
    }
    let view_end = text.len();
    if next > content_end {
        text.push('\n');
    }
    Shown {
        content_end,
        next,
        kept,
        view_end,
        view_next: text.len(),
    }
}

/// The parts of the line from `begin` to `end` to show: all of a short line; else windows
/// around the `points` in it (the first bytes when none is), merged where they come close.
fn windows(source: &str, begin: usize, end: usize, points: &[usize]) -> Vec<(usize, usize)> {
    if end - begin <= LONG_LINE {
        return vec![(begin, end)];
    }
    let mut around: Vec<(usize, usize)> = points
        .iter()
        .filter(|&&p| begin <= p && p <= end)
        .map(|&p| (p.saturating_sub(AROUND).max(begin), (p + AROUND).min(end)))
        .collect();
    if around.is_empty() {
        around.push((begin, begin + 2 * AROUND));
    }
    around.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::new();
    for (from, to) in around {
        match merged.last_mut() {
            // A gap shorter than two windows is not worth a cut.
            Some(prev) if from <= prev.1 + 2 * AROUND => prev.1 = prev.1.max(to),
            _ => merged.push((from, to)),
        }
    }
    // Stretch a window that comes close to either end of the line to it.
    if let Some(first) = merged.first_mut()
        && first.0 - begin <= 2 * AROUND
    {
        first.0 = begin;
    }
    if let Some(last) = merged.last_mut()
        && end - last.1 <= 2 * AROUND
    {
        last.1 = end;
    }
    merged
        .into_iter()
        .map(|(from, to)| (floor(source, from), ceil(source, to)))
        .collect()
}

/// Appends the mark of a cut: `…[N chars cut]…` (counted through the line index: not again
/// for each finding on a long line).
fn cut(source: &str, lines: &LineIndex, from: usize, to: usize, text: &mut String) {
    let chars = lines.chars_between(source, from, to);
    let unit = if chars == 1 { "char" } else { "chars" };
    let _ = write!(text, "…[{chars} {unit} cut]…");
}

/// Where `offset` of the file stands in the view: in a kept part of its line, where its
/// escaped text puts it; in a cut, right after the cut's mark; in a line break, at the line's
/// end; at the start of a line the view leaves out, after the line before.
fn place(shown: &[(usize, Shown)], source: &str, offset: usize) -> usize {
    let index = shown.partition_point(|(begin, _)| *begin <= offset);
    let Some((_, line)) = index.checked_sub(1).and_then(|i| shown.get(i)) else {
        return 0;
    };
    if offset >= line.next {
        return line.view_next;
    }
    if offset >= line.content_end {
        return line.view_end;
    }
    for &(from, to, at) in &line.kept {
        if offset < from {
            // In the cut before this part: at the cut's mark, which ends where the part starts.
            return at;
        }
        if offset < to {
            return at + escape(&source[from..offset]).len();
        }
    }
    line.view_end
}

/// `offset` moved back to a character boundary.
fn floor(source: &str, mut offset: usize) -> usize {
    offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// `offset` moved on to a character boundary.
fn ceil(source: &str, mut offset: usize) -> usize {
    offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset += 1;
    }
    offset
}
