import { describe, expect, it } from 'vitest';
import { encodeWav, readWavInfo, resample } from './wav.ts';
import { formatRecordingLength } from './voicemail.ts';

describe('WAV files', () => {
  it('reads back the length and format of what it encodes', () => {
    const samples = new Float32Array(8000 * 3).map((_, i) => Math.sin(i / 10));
    const info = readWavInfo(encodeWav(samples, 8000));
    expect(info).toMatchObject({ sampleRate: 8000, channels: 1, bitsPerSample: 16, dataOffset: 44 });
    expect(info?.durationSeconds).toBe(3);
    expect(info?.dataBytes).toBe(48_000);
  });

  it('clips samples outside -1…1 instead of wrapping them round', () => {
    const bytes = encodeWav(Float32Array.from([2, -2]), 8000);
    const view = new DataView(bytes.buffer);
    expect([view.getInt16(44, true), view.getInt16(46, true)]).toEqual([32767, -32768]);
  });

  it.each([
    ['an empty file', new Uint8Array()],
    ['text', new TextEncoder().encode('x'.repeat(100))],
    ['a data chunk longer than the file', truncate(encodeWav(new Float32Array(100), 8000), 60)],
    ['a compressed format', withFormat(encodeWav(new Float32Array(100), 8000), 0x55)],
    ['three channels', withChannels(encodeWav(new Float32Array(100), 8000), 3)],
  ])('refuses %s', (_name, bytes) => {
    expect(readWavInfo(bytes)).toBeNull();
  });

  it('skips chunks it does not know before the samples (LIST metadata from recorders)', () => {
    const plain = encodeWav(new Float32Array(16_000), 16_000);
    const list = new Uint8Array(8 + 4);
    list.set(new TextEncoder().encode('LIST'), 0);
    new DataView(list.buffer).setUint32(4, 4, true);
    const withList = new Uint8Array(plain.length + list.length);
    withList.set(plain.subarray(0, 36), 0);
    withList.set(list, 36);
    withList.set(plain.subarray(36), 36 + list.length);
    expect(readWavInfo(withList)?.durationSeconds).toBe(1);
  });
});

describe('resample', () => {
  it('keeps the length in time and the shape of the signal', () => {
    const rate = 48_000;
    const second = Float32Array.from({ length: rate }, (_, i) => Math.sin((2 * Math.PI * 440 * i) / rate));
    const down = resample(second, rate, 16_000);
    expect(down.length).toBe(16_000);
    // The same 440 Hz sine, sampled at the new rate.
    for (const i of [0, 1234, 9999, 15_999])
      expect(down[i]).toBeCloseTo(Math.sin((2 * Math.PI * 440 * i) / 16_000), 1);
  });

  it('returns the samples as they are when the rate does not change', () => {
    const samples = new Float32Array([0.1, 0.2]);
    expect(resample(samples, 16_000, 16_000)).toBe(samples);
  });
});

describe('formatRecordingLength', () => {
  it.each([
    [0, '0:00'],
    [6.6, '0:07'],
    [65, '1:05'],
    [3600, '60:00'],
  ])('%s seconds read %s', (seconds, text) => expect(formatRecordingLength(seconds)).toBe(text));
});

function truncate(bytes: Uint8Array, length: number) {
  return bytes.slice(0, length);
}
function withFormat(bytes: Uint8Array, format: number) {
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint16(20, format, true);
  return copy;
}
function withChannels(bytes: Uint8Array, channels: number) {
  const copy = bytes.slice();
  new DataView(copy.buffer).setUint16(22, channels, true);
  return copy;
}
