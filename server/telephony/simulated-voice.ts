import { encodeWav } from '#domain/recordings/wav.ts';

const SAMPLE_RATE = 8000;

/**
 * A simulated caller's message: `seconds` of a soft tone that rises and falls in syllable-length bursts, at phone
 * quality (8 kHz, 16-bit mono WAV). No voice is involved; it lets a voicemail be played and seeked like a real one.
 */
export function simulatedVoiceWav(seconds: number): Uint8Array {
  const samples = new Float32Array(Math.round(seconds * SAMPLE_RATE));
  for (let i = 0; i < samples.length; i++) {
    const t = i / SAMPLE_RATE;
    const syllable = Math.max(0, Math.sin(Math.PI * 4 * t)) ** 2;
    const pitch = 180 + 40 * Math.sin(2 * Math.PI * 0.7 * t);
    samples[i] = 0.3 * syllable * Math.sin(2 * Math.PI * pitch * t);
  }
  return encodeWav(samples, SAMPLE_RATE);
}
