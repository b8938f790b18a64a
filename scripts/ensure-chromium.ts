import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { CHROMIUM_PATH } from '../e2e/chromium.ts';

/**
 * The journeys and the browser benchmarks need Chromium. `npm test` runs this first: Chromium present, nothing to do;
 * missing and we are root on Debian, install Debian's package (what CI needs on a fresh machine); otherwise stop at
 * once with the one command to run, instead of failing after the unit tests.
 */
const INSTALL = 'apt-get update && apt-get install -y chromium';

const runnable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const has = (command: string) =>
  spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

function install(): boolean {
  console.log('Chromium is missing: installing it from Debian (apt-get install chromium)...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  if (update.status !== 0) return false;
  const add = spawnSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  return add.status === 0;
}

if (!runnable(CHROMIUM_PATH)) {
  const custom = process.env.CHROMIUM_PATH !== undefined;
  const root = process.getuid?.() === 0;
  if (custom) {
    console.error(
      `CHROMIUM_PATH is ${CHROMIUM_PATH}, which is not an executable file. Point it at Chromium.`,
    );
    process.exit(1);
  }
  if (!(root && has('apt-get') && install() && runnable(CHROMIUM_PATH))) {
    console.error(
      `The end-to-end journeys need Chromium at ${CHROMIUM_PATH}. Install it with:\n\n  sudo sh -c '${INSTALL}'\n\n` +
        '(or set CHROMIUM_PATH to a Chromium or Chrome you already have), then run the tests again.',
    );
    process.exit(1);
  }
}
