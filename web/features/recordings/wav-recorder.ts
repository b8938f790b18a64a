import { encodeWav, resample } from '#domain/recordings/wav.ts';

/** What a greeting is kept at: a voice on a phone line needs no more. */
const GREETING_SAMPLE_RATE = 16_000;

export type WavRecording = { stop: () => Promise<Blob>; cancel: () => void };

/**
 * Records the microphone as a WAV file, the format every telephony provider plays (a browser's own MediaRecorder
 * makes WebM, which Twilio does not). Web Audio hands over the samples; they are resampled to 16 kHz and encoded by
 * the domain's WAV encoder. Throws the browser's own error when there is no microphone or it is refused.
 */
export async function startWavRecording(): Promise<WavRecording> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { channelCount: 1, echoCancellation: true },
  });
  const context = new AudioContext();
  const source = context.createMediaStreamSource(stream);
  // ScriptProcessorNode is deprecated in favour of AudioWorklet, but needs no separate module and works everywhere
  // for a two-minute greeting.
  const processor = context.createScriptProcessor(4096, 1, 1);
  const chunks: Float32Array[] = [];
  processor.onaudioprocess = (event) => chunks.push(new Float32Array(event.inputBuffer.getChannelData(0)));
  source.connect(processor);
  processor.connect(context.destination);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    processor.disconnect();
    source.disconnect();
    stream.getTracks().forEach((track) => track.stop());
    void context.close();
  };
  return {
    stop: async () => {
      const rate = context.sampleRate;
      release();
      const samples = new Float32Array(chunks.reduce((n, c) => n + c.length, 0));
      let at = 0;
      for (const chunk of chunks) {
        samples.set(chunk, at);
        at += chunk.length;
      }
      const wav = encodeWav(resample(samples, rate, GREETING_SAMPLE_RATE), GREETING_SAMPLE_RATE);
      return Promise.resolve(new Blob([wav.buffer as ArrayBuffer], { type: 'audio/wav' }));
    },
    cancel: release,
  };
}
