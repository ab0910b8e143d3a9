//! Where a large document is cut into chunks, by its content (FastCDC), so
//! that an edit leaves the chunks before and after it as they were: a
//! publish then copies those within the store rather than send them again
//! (`publish::delta`). The build cuts each document it streams as it
//! writes it, and lists the chunks with the file (`objects`), so that a
//! publish need not read the file again to cut it; a publish cuts a file
//! the build did not. Both cut through [`Cutter`], which cuts the same
//! bytes the same way however they arrive.

use super::objects::Chunk;

// FastCDC's cuts: about a mebibyte apart, at content the edit did not
// touch. The parts a publish sends are larger: a cut is what can be found
// again, not what is sent.

/// The shortest chunk but the last.
const CUT_MIN: usize = 256 << 10;
/// About how far apart FastCDC cuts.
const CUT_AVERAGE: usize = 1 << 20;
/// The longest chunk, and so the most bytes held to find a cut.
pub const CUT_MAX: usize = 4 << 20;

/// Cuts bytes given a piece at a time into chunks, each with its hash,
/// and hashes the whole.
/// A cut is found in the next `CUT_MAX` bytes (or what is left at the
/// end), as FastCDC finds it in a buffer of that size: the pieces' sizes
/// change nothing.
pub struct Cutter {
    pending: Vec<u8>,
    /// How much of `pending`, from its start, is cut already.
    done: usize,
    /// The offset in the whole of `pending[done]`.
    at: u64,
    chunks: Vec<Chunk>,
    whole: blake3::Hasher,
}

impl Default for Cutter {
    fn default() -> Cutter {
        Cutter::new()
    }
}

impl Cutter {
    pub fn new() -> Cutter {
        Cutter {
            pending: Vec::new(),
            done: 0,
            at: 0,
            chunks: Vec::new(),
            whole: blake3::Hasher::new(),
        }
    }

    /// Takes the next bytes of the whole.
    pub fn update(&mut self, bytes: &[u8]) {
        self.whole.update(bytes);
        self.pending.extend_from_slice(bytes);
        while self.pending.len() - self.done >= CUT_MAX {
            self.cut_one();
        }
        // What is cut is dropped once it is most of the buffer, so that
        // the buffer stays about `CUT_MAX` long and is moved seldom.
        if self.done > CUT_MAX {
            self.pending.drain(..self.done);
            self.done = 0;
        }
    }

    /// The chunks of the whole, in order, and the hash of the whole.
    pub fn finish(mut self) -> (Vec<Chunk>, String) {
        while self.done < self.pending.len() {
            self.cut_one();
        }
        (self.chunks, self.whole.finalize().to_hex().to_string())
    }

    /// Cuts the next chunk of what is pending, which is not empty.
    fn cut_one(&mut self) {
        let rest = &self.pending[self.done..];
        let window = &rest[..rest.len().min(CUT_MAX)];
        let length = fastcdc::v2020::FastCDC::new(window, CUT_MIN, CUT_AVERAGE, CUT_MAX)
            .next()
            .map_or(window.len(), |chunk| chunk.length)
            .clamp(1, window.len());
        let bytes = &window[..length];
        self.chunks.push(Chunk {
            at: self.at,
            bytes: length as u64,
            hash: blake3::hash(bytes).to_hex().to_string(),
        });
        self.done += length;
        self.at += length as u64;
    }
}

/// Whether `chunks` are those of an object of `bytes` bytes: one after
/// another from its start to its end, none empty. A list read from a file
/// is checked before anything is copied by it.
pub fn covers(chunks: &[Chunk], bytes: u64) -> bool {
    let mut at = 0u64;
    for chunk in chunks {
        if chunk.at != at || chunk.bytes == 0 {
            return false;
        }
        at = match at.checked_add(chunk.bytes) {
            Some(end) => end,
            None => return false,
        };
    }
    !chunks.is_empty() && at == bytes
}

/// A stream that cuts and hashes what it passes on: the chunks and hash of
/// a document the build renders straight into its file.
pub struct Cutting<W> {
    pub inner: W,
    pub cutter: Cutter,
}

impl<W: std::io::Write> std::io::Write for Cutting<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(bytes)?;
        self.cutter.update(&bytes[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The chunks of the file `file`, and the hash of the whole (to check
/// that it is the file listed), read once.
pub fn of_file(file: &std::path::Path) -> std::io::Result<(Vec<Chunk>, String)> {
    use std::io::Read;
    let mut opened = std::fs::File::open(file)?;
    let mut cutter = Cutter::new();
    let mut piece = vec![0; 1 << 20];
    loop {
        match opened.read(&mut piece) {
            Ok(0) => break,
            Ok(read) => cutter.update(&piece[..read]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(cutter.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes of varied content, the same for a seed.
    fn bytes(length: usize, seed: u64) -> Vec<u8> {
        let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        (0..length)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (state >> 56) as u8
            })
            .collect()
    }

    fn cut_in_pieces(bytes: &[u8], piece: usize) -> Vec<Chunk> {
        let mut cutter = Cutter::new();
        for piece in bytes.chunks(piece) {
            cutter.update(piece);
        }
        cutter.finish().0
    }

    /// The same bytes are cut the same way whether they come in one piece
    /// or in many of any size, as FastCDC's own stream cuts them, and the
    /// chunks cover the whole, in order.
    #[test]
    fn the_same_bytes_are_cut_the_same_way_however_they_come() {
        let whole = bytes(23 << 20, 7);
        let at_once = cut_in_pieces(&whole, whole.len());
        assert!(at_once.len() > 5, "{} chunks", at_once.len());
        for piece in [1 << 10, 65_537, 1 << 20, 5 << 20] {
            assert_eq!(cut_in_pieces(&whole, piece), at_once, "pieces of {piece}");
        }
        let streamed: Vec<(u64, usize)> =
            fastcdc::v2020::StreamCDC::new(&whole[..], CUT_MIN, CUT_AVERAGE, CUT_MAX)
                .map(|c| c.map(|c| (c.offset, c.length)).unwrap())
                .collect();
        let ours: Vec<(u64, usize)> = at_once.iter().map(|c| (c.at, c.bytes as usize)).collect();
        assert_eq!(ours, streamed);
        let mut at = 0;
        for chunk in &at_once {
            assert_eq!(chunk.at, at);
            let end = (chunk.at + chunk.bytes) as usize;
            assert_eq!(
                chunk.hash,
                blake3::hash(&whole[at as usize..end]).to_hex().to_string()
            );
            at += chunk.bytes;
        }
        assert_eq!(at as usize, whole.len());
        assert!(covers(&at_once, whole.len() as u64));
        assert!(!covers(&at_once, whole.len() as u64 + 1));
        assert!(!covers(
            &at_once[1..],
            whole.len() as u64 - at_once[0].bytes
        ));
        assert!(!covers(&[], 0));
        assert!(Cutter::new().finish().0.is_empty());
        assert_eq!(cut_in_pieces(b"short", 2).len(), 1);
    }

    #[test]
    fn a_file_is_cut_as_its_bytes_are() {
        let dir = tempfile::tempdir().unwrap();
        let whole = bytes(9 << 20, 3);
        let file = dir.path().join("all");
        std::fs::write(&file, &whole).unwrap();
        let (chunks, hash) = of_file(&file).unwrap();
        assert_eq!(chunks, cut_in_pieces(&whole, 1 << 16));
        assert_eq!(hash, blake3::hash(&whole).to_hex().to_string());
    }
}
