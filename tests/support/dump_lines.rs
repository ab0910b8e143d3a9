//! A text like an N-Triples dump, each line unlike the others: what the
//! publish tests cut into chunks and edit, with no site to build.

/// `lines` N-Triples lines, about 80 bytes each, from `seed`.
pub fn lines_of_a_dump(lines: usize, seed: u64) -> Vec<u8> {
    let mut out = Vec::new();
    let mut state = seed;
    for n in 0..lines {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let line = format!("<https://example.org/{n}> <https://example.org/p> \"{state:x}\" .\n");
        out.extend(line.as_bytes());
    }
    out
}
