import iconv from 'iconv-lite';

/**
 * The encoding of a text file from its first bytes: a byte-order mark says so; otherwise UTF-8 when the sample is
 * valid UTF-8, else Windows-1252 (what spreadsheet programs on Windows write). A multi-byte character cut by the
 * end of the sample does not count against UTF-8.
 */
export function detectEncoding(sample: Buffer): 'utf8' | 'utf16le' | 'utf16be' | 'windows-1252' {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return 'utf8';
  if (sample[0] === 0xff && sample[1] === 0xfe) return 'utf16le';
  if (sample[0] === 0xfe && sample[1] === 0xff) return 'utf16be';
  for (let cut = 0; cut <= 3 && cut < sample.length; cut++) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(0, sample.length - cut));
      return 'utf8';
    } catch {
      // try again without the last bytes, which may be half a character
    }
  }
  return 'windows-1252';
}

/** Decodes bytes in a named charset (vCard CHARSET parameters); unknown charsets fall back to UTF-8. */
export function decodeBytes(bytes: Buffer, charset: string | undefined): string {
  const name = (charset ?? 'utf-8').toLowerCase();
  return iconv.encodingExists(name) ? iconv.decode(bytes, name) : bytes.toString('utf8');
}

/** An incremental decoder: bytes in, text out, a character split across chunks kept for the next one. */
export function createDecoder(encoding: string): { write: (bytes: Buffer) => string; end: () => string } {
  const decoder = iconv.getDecoder(encoding);
  return { write: (bytes) => decoder.write(bytes), end: () => decoder.end() ?? '' };
}
