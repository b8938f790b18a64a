import { brotliCompressSync, constants } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { build } from 'esbuild';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium.ts';
import { allowUnknownLocalTime, signUpBenchUser, startBenchServer } from './bench-server.ts';
import type { BenchResult } from './session-check.bench.ts';

const TARGET_KB = 150;
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

type Load = { readyMs: number; scripts: number; transferred: number; decoded: number };

/** Every script the page fetched from navigation until the screen is up and the network is quiet. */
async function scriptsLoaded(
  page: Page,
  url: string,
  ready: (page: Page) => Promise<unknown>,
): Promise<Load> {
  const responses: Promise<{ transferred: number; decoded: number }>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    responses.push(
      (async () => ({
        transferred: (await response.request().sizes()).responseBodySize,
        decoded: (await response.body()).length,
      }))(),
    );
  });
  const started = Date.now();
  await page.goto(url);
  await ready(page).catch(async (error: unknown) => {
    await page.screenshot({ path: '/tmp/first-load-failure.png' });
    throw error;
  });
  // From navigation until the screen's content is on screen (its data included): an upper bound of first paint.
  const readyMs = Date.now() - started;
  await page.waitForLoadState('networkidle');
  const sizes = await Promise.all(responses);
  return {
    readyMs,
    scripts: sizes.length,
    transferred: sizes.reduce((sum, s) => sum + s.transferred, 0),
    decoded: sizes.reduce((sum, s) => sum + s.decoded, 0),
  };
}

/** The least any React app routed like ours ships: React, ReactDOM and React Router, minified and brotli'd. */
async function frameworkFloor(): Promise<number> {
  const result = await build({
    stdin: {
      contents:
        "import { createRoot } from 'react-dom/client'; import { createBrowserRouter, RouterProvider } from 'react-router';" +
        'export { createRoot, createBrowserRouter, RouterProvider };',
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.contents;
  return brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
}

/**
 * The first load (item 5): the JavaScript a browser with an empty cache downloads for one screen, as
 * transferred over HTTP from the running server (compressed) and once decoded, for the screens a person opens first.
 */
export async function benchFirstLoad(ownerUrl: string): Promise<BenchResult> {
  const { app, base } = await startBenchServer(ownerUrl);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const { cookie } = await signUpBenchUser(base, 'first-load@example.com');
    // The contacts' fictional numbers have no local time: the consent gate holds them unless the user allows it.
    await allowUnknownLocalTime(base, cookie);
    const cookies = cookie.split('; ').map((c) => {
      const [name = '', ...rest] = c.split('=');
      return { name, value: rest.join('='), url: base };
    });
    for (let i = 0; i < 30; i++) {
      const created = await fetch(`${base}/api/contacts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', cookie },
        body: JSON.stringify({
          firstName: `Person${i}`,
          lastName: 'Example',
          email: `person${i}@example.com`,
          phone: `(555) 010-${1000 + i}`,
        }),
      });
      if (created.status !== 201)
        throw new Error(`contact not created: ${created.status} ${await created.text()}`);
    }
    const floor = await frameworkFloor();

    const defaultQueue = (
      (await (await fetch(`${base}/api/queues`, { headers: { cookie } })).json()) as {
        queues: { id: string; queueId: string }[];
      }
    ).queues.find((q) => q.queueId === 'default-all-contacts')!.id;
    const screens: {
      label: string;
      path: string;
      signedIn: boolean;
      ready: (page: Page) => Promise<unknown>;
    }[] = [
      {
        label: 'Landing page `/` (a new visitor)',
        path: '/',
        signedIn: false,
        ready: (p) => p.getByRole('link', { name: 'Get Started' }).waitFor(),
      },
      {
        label: 'Sign in `/auth`',
        path: '/auth',
        signedIn: false,
        ready: (p) => p.getByLabel('Email').first().waitFor(),
      },
      {
        label: 'Contacts `/contacts` (signed in)',
        path: '/contacts',
        signedIn: true,
        ready: (p) => p.getByRole('table', { name: 'Contacts' }).waitFor(),
      },
      {
        label: 'Power dialer `/power-dialer` (signed in)',
        path: '/power-dialer',
        signedIn: true,
        ready: (p) => p.getByRole('heading', { level: 1 }).first().waitFor(),
      },
      {
        label: 'Projects, Campaigns tab `/projects?tab=campaigns` (signed in)',
        path: '/projects?tab=campaigns',
        signedIn: true,
        ready: (p) => p.getByRole('table', { name: 'Call Queues' }).waitFor(),
      },
      {
        label: 'Create call queue `/projects/queue/create` (signed in)',
        path: '/projects/queue/create',
        signedIn: true,
        ready: (p) => p.getByRole('heading', { name: 'Create Call Queue' }).waitFor(),
      },
      {
        label: 'Pop-out dialer `/dialer-window?queue=…` as the dashboard opens it (signed in)',
        path: `/dialer-window?queue=${defaultQueue}`,
        signedIn: true,
        ready: (p) => p.getByRole('region', { name: 'Current contact' }).waitFor(),
      },
    ];
    const rows: string[] = [];
    let firstRoute = 0;
    for (const screen of screens) {
      const context = await browser.newContext();
      if (screen.signedIn) await context.addCookies(cookies);
      const load = await scriptsLoaded(await context.newPage(), `${base}${screen.path}`, screen.ready);
      await context.close();
      // Time until ready: the median of five cold loads (one load alone swings by hundreds of ms on this machine).
      const times = [load.readyMs];
      for (let i = 0; i < 4; i++) {
        const again = await browser.newContext();
        if (screen.signedIn) await again.addCookies(cookies);
        times.push(
          (await scriptsLoaded(await again.newPage(), `${base}${screen.path}`, screen.ready)).readyMs,
        );
        await again.close();
      }
      const readyMs = [...times].sort((a, b) => a - b)[2]!;
      if (screen.path === '/') firstRoute = load.transferred;
      rows.push(
        `| ${screen.label} | ${load.scripts} | ${kb(load.transferred)} | ${kb(load.decoded)} | ${kb(floor)} | ${(load.transferred / floor).toFixed(1)}× | ${load.transferred / 1024 <= TARGET_KB ? 'yes' : 'no'} | ${readyMs} ms ${readyMs <= 1000 ? '' : '(**over 1 s**)'} |`,
      );
    }
    rows.push(
      '',
      `Transferred: the bytes of JavaScript as sent (brotli, chosen by Chromium's Accept-Encoding), empty cache, until the screen is up and the network is idle. Decoded: the same files uncompressed. Floor: React, ReactDOM and React Router alone, minified and brotli'd at quality 11, the least any app built like this one ships.`,
      `Before this change every screen downloaded one 825 KB chunk, uncompressed. The first route now transfers ${kb(firstRoute)} KB (target ≤ ${TARGET_KB} KB: ${firstRoute / 1024 <= TARGET_KB ? 'met' : '**not met**'}).`,
    );
    return {
      name: 'First load: JavaScript per screen',
      dataSize:
        'the production build (`vite build`) served by the server; one signed-in account with 30 contacts (all with a phone, in All Synced Contacts)',
      header:
        '| screen | scripts | transferred KB | decoded KB | floor KB | ratio | ≤ 150 KB | ready, median of 5 cold loads |',
      rows,
    };
  } finally {
    await browser.close();
    await app.close();
  }
}
