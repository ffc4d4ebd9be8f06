//! Which bytes of the original text survive an upgrade unchanged, and where they end up.
//!
//! The upgraded text is tracked as a sequence of segments: runs of original bytes, and runs of
//! bytes that edits wrote. Tests use it to prove that everything outside the edited ranges is
//! byte for byte the original.

use std::ops::Range;

use hotfix_diagnostics::Edit;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Segment {
    /// Bytes copied from the original text.
    Original(Range<usize>),
    /// Bytes written by edits.
    Written(usize),
}

impl Segment {
    fn len(&self) -> usize {
        match self {
            Segment::Original(range) => range.len(),
            Segment::Written(len) => *len,
        }
    }
}

/// The current text as original and written runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segments {
    segments: Vec<Segment>,
}

impl Segments {
    /// An unedited text of `len` bytes.
    pub fn new(len: usize) -> Self {
        Segments {
            segments: if len == 0 {
                Vec::new()
            } else {
                vec![Segment::Original(0..len)]
            },
        }
    }

    /// Records a batch of non-overlapping edits, given in the current text's coordinates.
    pub fn apply(&mut self, edits: &[Edit]) {
        let mut edits: Vec<&Edit> = edits.iter().collect();
        // Back to front, so that earlier coordinates stay valid.
        edits.sort_by_key(|e| std::cmp::Reverse((e.span.start, e.span.end)));
        for edit in edits {
            self.replace(edit.span.start..edit.span.end, edit.content.len());
        }
    }

    fn replace(&mut self, range: Range<usize>, written: usize) {
        self.split_at(range.start);
        self.split_at(range.end);
        let mut offset = 0;
        let mut first = None;
        let mut last = 0;
        for (i, segment) in self.segments.iter().enumerate() {
            if offset >= range.start && offset + segment.len() <= range.end && segment.len() > 0 {
                first.get_or_insert(i);
                last = i + 1;
            }
            if offset >= range.end {
                break;
            }
            offset += segment.len();
        }
        let at = match first {
            Some(first) => {
                self.segments.drain(first..last);
                first
            }
            None => self.index_at(range.start),
        };
        if written > 0 {
            self.segments.insert(at, Segment::Written(written));
        }
        self.merge();
    }

    /// The index of the segment that starts at `offset` (after `split_at`).
    fn index_at(&self, offset: usize) -> usize {
        let mut position = 0;
        for (i, segment) in self.segments.iter().enumerate() {
            if position >= offset {
                return i;
            }
            position += segment.len();
        }
        self.segments.len()
    }

    fn split_at(&mut self, offset: usize) {
        let mut position = 0;
        for i in 0..self.segments.len() {
            let len = self.segments[i].len();
            if offset > position && offset < position + len {
                let cut = offset - position;
                let (a, b) = match &self.segments[i] {
                    Segment::Original(r) => (
                        Segment::Original(r.start..r.start + cut),
                        Segment::Original(r.start + cut..r.end),
                    ),
                    Segment::Written(n) => (Segment::Written(cut), Segment::Written(n - cut)),
                };
                self.segments[i] = a;
                self.segments.insert(i + 1, b);
                return;
            }
            position += len;
        }
    }

    fn merge(&mut self) {
        let mut merged: Vec<Segment> = Vec::with_capacity(self.segments.len());
        for segment in self.segments.drain(..) {
            match (merged.last_mut(), segment) {
                (Some(Segment::Written(a)), Segment::Written(b)) => *a += b,
                (Some(Segment::Original(a)), Segment::Original(b)) if a.end == b.start => {
                    a.end = b.end;
                }
                (_, segment) => merged.push(segment),
            }
        }
        self.segments = merged;
    }

    /// Runs of original bytes that survived: `(range in the original, start in the current
    /// text)`.
    pub fn kept(&self) -> Vec<(Range<usize>, usize)> {
        let mut out = Vec::new();
        let mut position = 0;
        for segment in &self.segments {
            if let Segment::Original(range) = segment {
                out.push((range.clone(), position));
            }
            position += segment.len();
        }
        out
    }

    /// Where a position of the current text was in the original: exact inside original runs;
    /// inside written text, the start of what the edit replaced.
    pub fn to_original(&self, offset: usize) -> usize {
        let mut position = 0;
        let mut original = 0;
        for segment in &self.segments {
            let len = segment.len();
            match segment {
                Segment::Original(range) => {
                    if offset < position + len {
                        return range.start + (offset - position);
                    }
                    original = range.end;
                }
                Segment::Written(_) => {
                    if offset < position + len {
                        return original;
                    }
                }
            }
            position += len;
        }
        original
    }

    /// Where a position of the original text is in the current text: exact where the byte
    /// survived; inside a range edits replaced, the start of what was written there.
    pub fn to_current(&self, offset: usize) -> usize {
        let mut position = 0;
        // Where the text after the last original run starts: a replacement written there.
        let mut after_original = 0;
        for segment in &self.segments {
            position += segment.len();
            if let Segment::Original(range) = segment {
                if offset < range.start {
                    return after_original;
                }
                if offset < range.end {
                    return position - (range.end - offset);
                }
                after_original = position;
            }
        }
        // At or past the end: the end, or the start of what replaced the original's end.
        if matches!(self.segments.last(), Some(Segment::Original(_))) {
            position
        } else {
            after_original
        }
    }

    /// The ranges of the current text that edits wrote.
    pub fn written(&self) -> Vec<hotfix_diagnostics::Span> {
        let mut out = Vec::new();
        let mut position = 0;
        for segment in &self.segments {
            if let Segment::Written(len) = segment {
                out.push(hotfix_diagnostics::Span::new(position, position + len));
            }
            position += segment.len();
        }
        out
    }

    /// The ranges of the original text that edits replaced (possibly empty, for insertions).
    pub fn edited(&self, original_len: usize) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        let mut cursor = 0;
        for (range, _) in self.kept() {
            if range.start > cursor {
                out.push(cursor..range.start);
            }
            cursor = range.end;
        }
        if cursor < original_len {
            out.push(cursor..original_len);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use hotfix_diagnostics::Span;

    use super::*;

    #[test]
    fn tracks_kept_bytes_through_batches() {
        let original = "a: Fn::Join\nb: keep\n";
        let mut segments = Segments::new(original.len());
        let mut text = original.to_owned();
        let batches = [
            vec![Edit::replace(Span::new(3, 11), "list_join")],
            vec![
                Edit::insert(0, "# new\n"),
                Edit::replace(Span::new(13, 14), "B"),
            ],
        ];
        for batch in &batches {
            segments.apply(batch);
            let mut sorted: Vec<&Edit> = batch.iter().collect();
            sorted.sort_by_key(|e| std::cmp::Reverse(e.span.start));
            for e in sorted {
                text.replace_range(e.span.range(), &e.content);
            }
        }
        assert_eq!(text, "# new\na: list_join\nB: keep\n");
        for (range, at) in segments.kept() {
            assert_eq!(&text[at..at + range.len()], &original[range.clone()]);
        }
        // The insertion replaced no original byte.
        assert_eq!(segments.edited(original.len()), vec![3..11, 12..13]);
        // Original positions in the current text: kept bytes exactly, replaced ones at the
        // start of their replacement.
        assert_eq!(segments.to_current(0), 6);
        assert_eq!(&text[segments.to_current(5)..][..9], "list_join");
        assert_eq!(&text[segments.to_current(15)..][..4], "keep");
        assert_eq!(&text[segments.to_current(12)..][..1], "B");
        assert_eq!(segments.to_current(original.len()), text.len());
    }
}
