import { describe, expect, it, vi } from 'vitest';
import { createSimulator, signSimulatorFields, simulatedOutcome } from './simulator.ts';
import { modelledOutcome, SALES_FLOOR_MODEL, seededRandom } from './simulator.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the telephony simulator', () => {
  it('decides the outcome from the number, as the README says', () => {
    expect(simulatedOutcome('+1 (999) 555-0100')).toEqual({ error: expect.stringMatching(/not verified/) });
    expect(simulatedOutcome('+1 (996) 555-0100')).toEqual({ hang: true });
    const statuses = (to: string) => {
      const outcome = simulatedOutcome(to);
      return 'steps' in outcome ? outcome.steps.map((s) => s.status) : outcome;
    };
    expect(statuses('5550100010')).toEqual(['ringing', 'busy']);
    expect(statuses('5550100011')).toEqual(['ringing', 'no-answer']);
    expect(statuses('5550100012')).toEqual(['failed']);
    expect(statuses('5550100017')).toEqual(['ringing', 'in-progress', 'completed']);
    // Answering-machine detection: a machine on numbers ending in 3, a person otherwise, told after the answer.
    const detected = (to: string) => {
      const outcome = simulatedOutcome(to);
      return 'steps' in outcome ? outcome.detection?.answeredBy : null;
    };
    expect(statuses('5550100013')).toEqual(['ringing', 'in-progress', 'completed']);
    expect(detected('5550100013')).toBe('machine_end_beep');
    expect(detected('5550100017')).toBe('human');
    expect(detected('5550100010')).toBeUndefined();
  });

  it('signs its events so that only they verify', async () => {
    const delivered: { query: string; body: string; signature: string }[] = [];
    const simulator = createSimulator({
      secret: 's3cret',
      timeScale: 0.001,
      deliver: ({ query, body, signature }) => {
        delivered.push({ query, body, signature });
        return Promise.resolve();
      },
    });
    await simulator.placeCall({
      callId: 'c1',
      from: '+15550100000',
      to: '+15550100010',
      agentIdentity: 'agent_1',
    });
    await wait(50);
    expect(delivered.map((d) => new URLSearchParams(d.body).get('CallStatus'))).toEqual(['ringing', 'busy']);
    for (const d of delivered) {
      const fields = Object.fromEntries(new URLSearchParams(d.body));
      expect(
        simulator.verifyWebhook({
          url: `http://crm.example/api/telephony/simulator/status${d.query}`,
          headers: { 'x-simulator-signature': d.signature },
          body: fields,
        }),
      ).toBe(true);
      expect(d.query).toBe('?callId=c1');
      // The query is part of what is signed: the same event for another call does not verify.
      expect(
        simulator.verifyWebhook({
          url: 'http://crm.example/api/telephony/simulator/status?callId=c9',
          headers: { 'x-simulator-signature': d.signature },
          body: fields,
        }),
      ).toBe(false);
      expect(
        simulator.verifyWebhook({
          url: `http://crm.example/api/telephony/simulator/status${d.query}`,
          headers: { 'x-simulator-signature': signSimulatorFields('other', fields, d.query) },
          body: fields,
        }),
      ).toBe(false);
    }
  });

  it('sends a refused event again, as a provider retries its webhooks, and reports one it could not deliver', async () => {
    let tries = 0;
    const lost: string[] = [];
    const simulator = createSimulator({
      secret: 's',
      timeScale: 0.001,
      deliver: () => (++tries < 3 ? Promise.reject(new Error('refused')) : Promise.resolve()),
      onDeliveryFailure: (what) => lost.push(what),
    });
    await simulator.placeCall({
      callId: 'c2',
      from: '+15550100000',
      to: '+15550100012',
      agentIdentity: 'agent_1',
    });
    await vi.waitFor(() => expect(tries).toBe(3), { timeout: 5000 });
    expect(lost).toEqual([]);
    const failing = createSimulator({
      secret: 's',
      timeScale: 0.001,
      deliver: () => Promise.reject(new Error('down')),
      onDeliveryFailure: (what) => lost.push(what),
    });
    await failing.placeCall({
      callId: 'c3',
      from: '+15550100000',
      to: '+15550100012',
      agentIdentity: 'agent_1',
    });
    await vi.waitFor(() => expect(lost).toHaveLength(1), { timeout: 5000 });
    expect(lost[0]).toMatch(/failed$/);
  });
});

describe('the seeded call model for benchmarks', () => {
  const model = SALES_FLOOR_MODEL;
  it('draws the same calls from the same seed, in the shares and times asked', () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 10_000 }, () => modelledOutcome(model, random));
    };
    const calls = draw(42);
    expect(draw(42)).toEqual(calls);
    expect(draw(43)).not.toEqual(calls);
    const share = (what: string | undefined) =>
      calls.filter((c) => c.detection?.answeredBy === what).length / calls.length;
    expect(share('human')).toBeCloseTo(0.3, 1);
    expect(share('machine_end_beep')).toBeCloseTo(0.2, 1);
    expect(share(undefined)).toBeCloseTo(0.5, 1);
    const talks = calls
      .filter((c) => c.detection?.answeredBy === 'human')
      .map((c) => c.steps[2]!.afterMs - c.steps[1]!.afterMs)
      .sort((a, b) => a - b);
    const median = talks[Math.floor(talks.length / 2)]!;
    expect(median).toBeGreaterThan(85_000);
    expect(median).toBeLessThan(95_000);
    for (const c of calls.filter((x) => x.detection))
      expect(c.steps[1]!.afterMs).toBeGreaterThanOrEqual(5_000);
  });
});
