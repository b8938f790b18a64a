/**
 * Debian's Chromium, as root, on a machine whose only network is the package registries: no sandbox, and none of
 * Chromium's own background connections (they are refused here, many at a time).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // A microphone that plays a tone, granted without asking: recording a voicemail greeting.
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
];
