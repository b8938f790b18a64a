/**
 * WAV (RIFF, PCM) files: what the browser records a greeting as and the simulator's voicemails are. Pure, on bytes,
 * so the browser encodes with it and the server checks an upload with it.
 */

/** What a WAV file's header says: enough to check an upload and know its length. */
export type WavInfo = {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Where the samples start, and how many bytes of them there are. */
  dataOffset: number;
  dataBytes: number;
  durationSeconds: number;
};

const ascii = (view: DataView, offset: number, length: number) =>
  String.fromCharCode(...Array.from({ length }, (_, i) => view.getUint8(offset + i)));

/**
 * Reads a PCM WAV header (chunks in any order, 'fmt ' before 'data'), or null when the bytes are not one: not RIFF
 * WAVE, not PCM, an odd format, or a data chunk longer than the file.
 */
export function readWavInfo(bytes: Uint8Array): WavInfo | null {
  if (bytes.byteLength < 44) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (ascii(view, 0, 4) !== 'RIFF' || ascii(view, 8, 4) !== 'WAVE') return null;
  let offset = 12;
  let format: { channels: number; sampleRate: number; bitsPerSample: number } | null = null;
  while (offset + 8 <= bytes.byteLength) {
    const id = ascii(view, offset, 4);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.byteLength) return null;
      const audioFormat = view.getUint16(body, true);
      const channels = view.getUint16(body + 2, true);
      const sampleRate = view.getUint32(body + 4, true);
      const bitsPerSample = view.getUint16(body + 14, true);
      // PCM (1), or WAVE_FORMAT_EXTENSIBLE (0xfffe) carrying PCM, in the sizes browsers and phones use.
      if (audioFormat !== 1 && audioFormat !== 0xfffe) return null;
      if (channels < 1 || channels > 2 || ![8, 16, 24, 32].includes(bitsPerSample)) return null;
      if (sampleRate < 4000 || sampleRate > 192_000) return null;
      format = { channels, sampleRate, bitsPerSample };
    } else if (id === 'data') {
      if (!format || body + size > bytes.byteLength) return null;
      const bytesPerSecond = format.sampleRate * format.channels * (format.bitsPerSample / 8);
      return { ...format, dataOffset: body, dataBytes: size, durationSeconds: size / bytesPerSecond };
    }
    offset = body + size + (size % 2);
  }
  return null;
}

/** Encodes mono samples (-1…1) as a 16-bit PCM WAV file. */
export function encodeWav(samples: Float32Array, sampleRate: number): Uint8Array {
  const dataBytes = samples.length * 2;
  const bytes = new Uint8Array(44 + dataBytes);
  const view = new DataView(bytes.buffer);
  const write = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(offset + i, text.charCodeAt(i));
  };
  write(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  write(8, 'WAVE');
  write(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  write(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < samples.length; i++) {
    const sample = Math.max(-1, Math.min(1, samples[i] ?? 0));
    view.setInt16(44 + i * 2, Math.round(sample < 0 ? sample * 0x8000 : sample * 0x7fff), true);
  }
  return bytes;
}

/**
 * Resamples mono samples to another rate by linear interpolation (a browser records at 44.1 or 48 kHz; a greeting
 * is kept at 16 kHz, plenty for a voice on a phone line and a third of the size).
 */
export function resample(samples: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (fromRate === toRate) return samples;
  const length = Math.floor((samples.length * toRate) / fromRate);
  const out = new Float32Array(length);
  const step = fromRate / toRate;
  for (let i = 0; i < length; i++) {
    const at = i * step;
    const before = Math.floor(at);
    const after = Math.min(before + 1, samples.length - 1);
    const weight = at - before;
    out[i] = (samples[before] ?? 0) * (1 - weight) + (samples[after] ?? 0) * weight;
  }
  return out;
}
