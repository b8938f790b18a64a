import { describe, expect, it } from 'vitest';
import {
  formatPhoneForDisplay,
  isSamePhone,
  normalizePhone,
  phoneCountries,
  PhoneCountrySchema,
  phoneDigits,
  parsePhone,
} from './phone.ts';

describe('phone normalisation (decision 000)', () => {
  it.each([
    ['(555) 123-4567', '+15551234567'],
    ['555.123.4567', '+15551234567'],
    ['1-555-123-4567', '+15551234567'],
    ['+1 555 123 4567', '+15551234567'],
    ['+44 20 7946 0000', '+442079460000'],
    ['12345', '+12345'],
    ['21234567890', '+21234567890'],
  ])('%s → %s', (raw, e164) => expect(normalizePhone(raw)).toBe(e164));

  it('has no normalised form without digits', () => {
    expect(normalizePhone('')).toBeNull();
    expect(normalizePhone('ext.')).toBeNull();
    expect(normalizePhone(null)).toBeNull();
  });

  it('keeps only digits', () => expect(phoneDigits('+1 (555) 010-9999 x')).toBe('15550109999'));
});

describe('phone display', () => {
  it('shows 10 digits as (xxx) xxx-xxxx and 11 with a leading 1 as +1 (xxx) xxx-xxxx', () => {
    expect(formatPhoneForDisplay('5551234567')).toBe('(555) 123-4567');
    expect(formatPhoneForDisplay('1 555 123 4567')).toBe('+1 (555) 123-4567');
  });

  it('shows anything else as typed', () => {
    expect(formatPhoneForDisplay('+44 20 7946 0000')).toBe('+44 20 7946 0000');
    expect(formatPhoneForDisplay('25551234567')).toBe('25551234567');
    expect(formatPhoneForDisplay(null)).toBe('');
  });

  it('calls two numbers different when their digits differ', () => {
    expect(isSamePhone('(555) 123-4567', '555-123-4567')).toBe(true);
    expect(isSamePhone('5551234567', '15551234567')).toBe(false);
  });
});

describe('parsePhone', () => {
  it.each([
    ['(303) 296-1234', 'US', '+13032961234', true],
    ['303.296.1234', 'US', '+13032961234', true],
    ['020 7946 0958', 'GB', '+442079460958', true],
    ['+44 20 7946 0958', 'US', '+442079460958', true],
    ['0044 20 7946 0958', 'US', '+442079460958', true],
    ['020 7946 0958', 'US', '+02079460958', false],
    ['(555) 010-0017', 'US', '+15550100017', false],
    ['123-456-789', 'US', '+123456789', false],
  ])('reads %s in %s as %s (valid: %s)', (raw, country, e164, valid) => {
    expect(parsePhone(raw, country)).toMatchObject({ e164, valid });
  });

  it('has nothing to read without digits', () => {
    expect(parsePhone('  ')).toBeNull();
    expect(parsePhone('call me')).toBeNull();
  });
});

describe('normalizePhone agrees with parsePhone on every shape of number', () => {
  it.each([
    '(303) 296-1237',
    '303.296.1237',
    '1 303 296 1237',
    '13032961237',
    '5550100017',
    '(555) 010-0017',
    '1234567890',
    '0207946095',
    '+1 303 296 1237',
    '+44 20 7946 0958',
    '0044 20 7946 0958',
    '303-296-1237 ext 5',
    '12345',
    '020 7946 0958',
  ])('%s', (raw) => {
    expect(normalizePhone(raw)).toBe(parsePhone(raw)?.e164 ?? null);
  });
});

describe('the country numbers are read in', () => {
  it.each([
    ['020 7946 0958', 'GB', '+442079460958', true],
    ['020 7946 0958', 'US', null, false],
    ['01 42 68 53 00', 'FR', '+33142685300', true],
    ['555 0100', 'GB', null, false],
    ['+1 303 296 1237', 'GB', '+13032961237', true],
  ])('%s read in %s', (raw, country, e164, valid) => {
    const parsed = parsePhone(raw, country);
    if (e164) expect(parsed).toMatchObject({ e164, valid });
    else expect(parsed?.valid ?? false).toBe(false);
    expect(normalizePhone(raw, country)).toBe(parsed?.e164 ?? null);
  });

  it('accepts the numbering plan’s countries only, and lists them with their calling codes', () => {
    expect(PhoneCountrySchema.safeParse('GB').success).toBe(true);
    expect(PhoneCountrySchema.safeParse('ZZ').success).toBe(false);
    expect(PhoneCountrySchema.safeParse('gb').success).toBe(false);
    expect(phoneCountries()).toContainEqual({ code: 'GB', callingCode: '44' });
    expect(phoneCountries().length).toBeGreaterThan(200);
  });
});
