//! Any bytes as a graph of nested templates: each byte pair `(i, j)` makes `t/{i % 16}.yaml`
//! name `t/{j % 16}.yaml` in a `type`. `hotfix_stack::Cycles` (the run-wide search X004 asks)
//! must say that a link leads back exactly when a plain search from its target reaches the
//! template naming it, whichever templates ask first.

#![no_main]

use std::collections::{BTreeMap, BTreeSet};

use hotfix_stack::{Cycles, MemorySource, StackPath};
use libfuzzer_sys::fuzz_target;

const FILES: u8 = 16;

fuzz_target!(|data: &[u8]| {
    let mut edges: BTreeMap<u8, BTreeSet<u8>> = BTreeMap::new();
    for pair in data.chunks_exact(2) {
        edges
            .entry(pair[0] % FILES)
            .or_default()
            .insert(pair[1] % FILES);
    }
    let mut source = MemorySource::new();
    for i in 0..FILES {
        let mut text = "heat_template_version: rocky\nresources:\n".to_owned();
        for j in edges.get(&i).into_iter().flatten() {
            text.push_str(&format!("  r{j}: {{type: {j}.yaml}}\n"));
        }
        source.insert(&format!("t/{i}.yaml"), &text);
    }
    let roots = [StackPath::new("t")];
    let reaches = |from: u8, to: u8| {
        let mut seen = BTreeSet::from([from]);
        let mut pending = vec![from];
        while let Some(at) = pending.pop() {
            if at == to {
                return true;
            }
            for &next in edges.get(&at).into_iter().flatten() {
                if seen.insert(next) {
                    pending.push(next);
                }
            }
        }
        false
    };
    let cycles = Cycles::new();
    // Ask in the order the input gives, so that searches start anywhere.
    for pair in data.chunks_exact(2) {
        let (from, to) = (pair[0] % FILES, pair[1] % FILES);
        let path = |i: u8| StackPath::new(&format!("t/{i}.yaml"));
        assert_eq!(
            cycles.leads_back(&source, &roots, &path(from), &path(to)),
            reaches(to, from),
            "{from} -> {to}"
        );
    }
});
