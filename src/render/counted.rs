//! A stream that only counts what is written to it: a document's size
//! without keeping it (`check --host`, the dump's estimate).

#[derive(Debug, Default)]
pub struct Counted {
    pub bytes: u64,
}

impl std::io::Write for Counted {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.bytes += bytes.len() as u64;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
