//! Checking that an uploaded body is a WAV file and reading what the recordings list
//! shows: sample rate, channels, and the duration of its `data` chunk. Only the head of the
//! file is read (the RIFF chunks before `data`), so a long recording costs nothing more.

/// What the head of a WAV file says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WavInfo {
    /// Samples per second.
    pub sample_rate: u32,
    /// Channels.
    pub channels: u16,
    /// Bits per sample.
    pub bits_per_sample: u16,
    /// Bytes of audio in the `data` chunk that the file really holds.
    pub data_bytes: u64,
    /// Length of the audio, in milliseconds.
    pub duration_ms: u64,
}

/// Why a body is not a WAV file this server keeps.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WavError {
    /// The first 12 bytes are not `RIFF….WAVE`.
    #[error("not a WAV file: it does not start with a RIFF/WAVE header")]
    NotRiffWave,
    /// No `fmt ` chunk before the audio.
    #[error("not a usable WAV file: no fmt chunk before the data")]
    NoFormat,
    /// The `fmt ` chunk is too short or says zero channels, rate or block size.
    #[error("not a usable WAV file: its fmt chunk is invalid")]
    BadFormat,
    /// No `data` chunk in the head of the file.
    #[error("not a usable WAV file: no data chunk")]
    NoData,
}

/// How many bytes of the file's head [`inspect`] is given at most.
pub const HEAD: usize = 64 * 1024;

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// The format fields of a `fmt ` chunk body: rate, channels, bits, bytes per frame.
fn format(body: &[u8]) -> Result<(u32, u16, u16, u16), WavError> {
    let channels = u16_at(body, 2).ok_or(WavError::BadFormat)?;
    let rate = u32_at(body, 4).ok_or(WavError::BadFormat)?;
    let block = u16_at(body, 12).ok_or(WavError::BadFormat)?;
    let bits = u16_at(body, 14).ok_or(WavError::BadFormat)?;
    if channels == 0 || rate == 0 || block == 0 {
        return Err(WavError::BadFormat);
    }
    Ok((rate, channels, bits, block))
}

/// Reads the head of a WAV file (`head`: its first bytes, up to [`HEAD`]) whose whole
/// length is `file_len`. The duration counts the audio the file really holds: a `data`
/// chunk cut short (a recorder that died before fixing its header up) counts up to the end
/// of the file, and a size of 0 or `0xFFFFFFFF` (a streaming writer's placeholder) means
/// "to the end of the file".
pub fn inspect(head: &[u8], file_len: u64) -> Result<WavInfo, WavError> {
    if head.get(0..4) != Some(b"RIFF") || head.get(8..12) != Some(b"WAVE") {
        return Err(WavError::NotRiffWave);
    }
    let mut at = 12usize;
    let mut fmt = None;
    while let (Some(id), Some(size)) = (head.get(at..at + 4), u32_at(head, at + 4)) {
        let body = at + 8;
        if id == b"fmt " {
            let end = body.saturating_add(size as usize).min(head.len());
            fmt = Some(format(&head[body..end])?);
        } else if id == b"data" {
            let (sample_rate, channels, bits_per_sample, block) = fmt.ok_or(WavError::NoFormat)?;
            let held = file_len.saturating_sub(body as u64);
            let declared = u64::from(size);
            let data_bytes = if size == 0 || size == u32::MAX {
                held
            } else {
                declared.min(held)
            };
            let frames = data_bytes / u64::from(block);
            return Ok(WavInfo {
                sample_rate,
                channels,
                bits_per_sample,
                data_bytes,
                duration_ms: frames * 1000 / u64::from(sample_rate),
            });
        }
        // Chunks are padded to an even length.
        at = body
            .saturating_add(size as usize)
            .saturating_add(size as usize % 2);
    }
    Err(if fmt.is_some() {
        WavError::NoData
    } else {
        WavError::NoFormat
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A 16-bit PCM WAV of `frames` silent frames, as hound or the audio crate writes it.
    pub(crate) fn wav(rate: u32, channels: u16, frames: u32) -> Vec<u8> {
        let block = channels * 2;
        let data = frames * u32::from(block);
        let mut v = Vec::new();
        v.extend_from_slice(b"RIFF");
        v.extend_from_slice(&(36 + data).to_le_bytes());
        v.extend_from_slice(b"WAVEfmt ");
        v.extend_from_slice(&16u32.to_le_bytes());
        v.extend_from_slice(&1u16.to_le_bytes());
        v.extend_from_slice(&channels.to_le_bytes());
        v.extend_from_slice(&rate.to_le_bytes());
        v.extend_from_slice(&(rate * u32::from(block)).to_le_bytes());
        v.extend_from_slice(&block.to_le_bytes());
        v.extend_from_slice(&16u16.to_le_bytes());
        v.extend_from_slice(b"data");
        v.extend_from_slice(&data.to_le_bytes());
        v.resize(v.len() + data as usize, 0);
        v
    }

    #[test]
    fn a_wav_file_gives_its_rate_and_duration() {
        let w = wav(22_050, 1, 22_050 * 3 / 2);
        let info = inspect(&w, w.len() as u64).unwrap();
        assert_eq!(
            (info.sample_rate, info.channels, info.bits_per_sample),
            (22_050, 1, 16)
        );
        assert_eq!(info.duration_ms, 1500);
        assert_eq!(info.data_bytes, 22_050 * 3);
    }

    #[test]
    fn a_cut_short_recording_counts_what_it_holds() {
        let mut w = wav(8_000, 2, 8_000);
        w.truncate(44 + 4 * 4_000);
        assert_eq!(inspect(&w, w.len() as u64).unwrap().duration_ms, 500);
    }

    #[test]
    fn other_chunks_before_the_data_are_skipped() {
        let w = wav(8_000, 1, 800);
        let mut v = w[..36].to_vec();
        v.extend_from_slice(b"LIST");
        v.extend_from_slice(&3u32.to_le_bytes());
        v.extend_from_slice(b"abc\0");
        v.extend_from_slice(&w[36..]);
        assert_eq!(inspect(&v, v.len() as u64).unwrap().duration_ms, 100);
    }

    #[test]
    fn what_is_not_a_wav_is_refused_with_a_reason() {
        assert_eq!(
            inspect(b"hello world, not audio", 22),
            Err(WavError::NotRiffWave)
        );
        assert_eq!(inspect(b"", 0), Err(WavError::NotRiffWave));
        let w = wav(8_000, 1, 10);
        assert_eq!(inspect(&w[..36], 36), Err(WavError::NoData));
        let mut no_fmt = b"RIFF\0\0\0\0WAVEdata".to_vec();
        no_fmt.extend_from_slice(&4u32.to_le_bytes());
        assert_eq!(inspect(&no_fmt, 24), Err(WavError::NoFormat));
        let mut zero_rate = w.clone();
        zero_rate[24..28].copy_from_slice(&0u32.to_le_bytes());
        assert_eq!(inspect(&zero_rate, 54), Err(WavError::BadFormat));
    }
}
