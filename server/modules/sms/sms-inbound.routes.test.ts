import { afterEach, describe, expect, it } from 'vitest';
import { SMS_REPLIES } from '#domain/sms/sms-keywords.ts';
import { insertContact } from '../../test/contact-factory.ts';
import { createSmsKit } from '../../test/sms-test-kit.ts';
import { createAccount, allowUnknownLocalTime } from '../../test/test-app.ts';

const kit = createSmsKit();
const { onSimulator, call, create, settled, accepted, until, inbound, optOuts } = kit;
afterEach(() => kit.close());

describe('messages received', () => {
  it('applies each received message once: a replayed START after a STOP changes nothing', async () => {
    await onSimulator();
    const from = { From: '+15550100017', To: '+15550100000' };
    expect((await inbound({ MessageSid: 'SMstart1', ...from, Body: 'START' })).statusCode).toBe(200);
    expect((await inbound({ MessageSid: 'SMstop2', ...from, Body: 'STOP' })).statusCode).toBe(200);
    expect(await optOuts()).toEqual([{ phone: '+15550100017' }]);
    // The same signed request again (a replay, or a provider retrying): still opted out.
    expect((await inbound({ MessageSid: 'SMstart1', ...from, Body: 'START' })).statusCode).toBe(200);
    expect(await optOuts()).toEqual([{ phone: '+15550100017' }]);
    // A replayed HELP is answered again, as a provider retrying expects, and records nothing more.
    const help = { MessageSid: 'SMhelp3', ...from, Body: 'HELP' };
    expect((await inbound(help)).body).toBe(SMS_REPLIES.help);
    expect((await inbound(help)).body).toBe(SMS_REPLIES.help);
    const received = await kit.ctx.db.admin.query('select count(*)::int as n from sms_inbound_messages');
    expect(received.rows[0].n).toBe(3);
  });

  it("a reply simulated by one user reaches that user's records only", async () => {
    await onSimulator();
    const other = await createAccount(kit.ctx, 'user');
    await allowUnknownLocalTime(kit.ctx.app, other);
    const mine = await insertContact(kit.ctx.app, kit.rep, { firstName: 'Ann', phone: '5550100017' });
    const theirs = await insertContact(kit.ctx.app, other, { firstName: 'Ann', phone: '5550100017' });
    const myFirst = (await create([mine.id])).json().campaign.id;
    await call('POST', `/api/sms-campaigns/${myFirst}/send`);
    await settled(myFirst);
    const body = { name: 'Theirs', message: 'Hello', perMinute: 3000 };
    const theirFirst = (
      await call('POST', '/api/sms-campaigns', { ...body, selection: { ids: [theirs.id] } }, other)
    ).json().campaign.id;
    await call('POST', `/api/sms-campaigns/${theirFirst}/send`, undefined, other);
    await until(async () => accepted().length === 2);

    const stop = await call('POST', `/api/sms-campaigns/${myFirst}/recipients/${mine.id}/simulate-reply`, {
      text: 'STOP',
    });
    expect(stop.statusCode).toBe(200);
    // Mine: opted out, the reply on my recipient. Theirs: untouched, and their next campaign still sends.
    expect((await call('GET', `/api/contacts/${mine.id}/calling`)).json().smsOptedOut).toBe(true);
    expect(
      (await call('GET', `/api/contacts/${theirs.id}/calling`, undefined, other)).json().smsOptedOut,
    ).toBe(false);
    const theirReplies = (
      await call('GET', `/api/sms-campaigns/${theirFirst}/recipients`, undefined, other)
    ).json();
    expect(theirReplies.recipients[0].reply).toBeNull();
    const theirNext = (
      await call('POST', '/api/sms-campaigns', { ...body, selection: { ids: [theirs.id] } }, other)
    ).json().campaign.id;
    await call('POST', `/api/sms-campaigns/${theirNext}/send`, undefined, other);
    await until(async () => accepted().length === 3);
    expect(accepted()).toHaveLength(3);
    const myNext = (await create([mine.id], { name: 'Mine again' })).json().campaign.id;
    await call('POST', `/api/sms-campaigns/${myNext}/send`);
    expect(await settled(myNext)).toMatchObject({ counts: { skipped: 1 } });
  });
});
