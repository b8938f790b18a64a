import { describe, expect, it } from 'vitest';
import { DialerContactInputSchema, dialerContactProblem } from './dialer-contact.ts';

const problem = (input: object) => dialerContactProblem(DialerContactInputSchema.parse(input))?.title ?? null;

describe("the dialer's Add Contact rules", () => {
  it('needs both names first, then a phone or an e-mail, then an e-mail to send to', () => {
    expect(problem({ lastName: 'Lee', phone: '5550100042' })).toBe('Required fields missing');
    expect(problem({ firstName: ' ', lastName: 'Lee', phone: '5550100042' })).toBe('Required fields missing');
    expect(problem({ firstName: 'Ann', lastName: 'Lee' })).toBe('Contact information required');
    expect(problem({ firstName: 'Ann', lastName: 'Lee', phone: '5550100042', sendEmail: true })).toBe(
      'Email required',
    );
  });

  it('accepts a phone alone or an e-mail alone, and an e-mail to send with its template', () => {
    expect(problem({ firstName: 'Ann', lastName: 'Lee', phone: '(555) 010-0042' })).toBeNull();
    expect(problem({ firstName: 'Ann', lastName: 'Lee', email: 'ann@lee.example' })).toBeNull();
    const templateId = '5f0c1c3e-8a43-4b7e-9d7e-3b1f2a7c9e10';
    expect(
      problem({ firstName: 'Ann', lastName: 'Lee', email: 'ann@lee.example', sendEmail: true, templateId }),
    ).toBeNull();
    expect(problem({ firstName: 'Ann', lastName: 'Lee', email: 'ann@lee.example', sendEmail: true })).toBe(
      'Template required',
    );
  });

  it('refuses a phone that is too short or too long and an e-mail that is not one', () => {
    expect(problem({ firstName: 'Ann', lastName: 'Lee', phone: '555-01' })).toBe('Invalid phone number');
    expect(problem({ firstName: 'Ann', lastName: 'Lee', phone: '1234567890123456' })).toBe(
      'Invalid phone number',
    );
    expect(problem({ firstName: 'Ann', lastName: 'Lee', email: 'ann.lee.example' })).toBe('Invalid email');
  });
});
