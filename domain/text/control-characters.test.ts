import { describe, expect, it } from 'vitest';
import {
  hasForbiddenControlCharacter,
  isStorableText,
  NOT_TEXT,
  notTextReason,
  stripControlCharacters,
} from './control-characters.ts';

describe('text that may be stored', () => {
  it('allows tab, line breaks and every printable character of any script', () => {
    for (const text of ['Ann\tLee', 'line\r\nline', 'Zoë Ørsted – 東京 🙂', '', '"quoted", ; $ { } \\'])
      expect(hasForbiddenControlCharacter(text), JSON.stringify(text)).toBe(false);
  });

  it('refuses U+0000, the other C0 controls, DEL and C1 controls', () => {
    for (const code of [0, 1, 7, 8, 11, 12, 14, 27, 31, 127, 128, 150, 159])
      expect(hasForbiddenControlCharacter(`a${String.fromCharCode(code)}b`), String(code)).toBe(true);
  });

  it('stores whole characters only: half of a surrogate pair is refused, emoji are fine', () => {
    expect(isStorableText('ok 😀 東京')).toBe(true);
    for (const text of ['\ud800', 'a\udc00', '\udfff\ud800', 'x\ud83d'])
      expect(isStorableText(text), JSON.stringify(text)).toBe(false);
    expect(isStorableText('a\u0000')).toBe(false);
  });

  it('strips them from imported cells, keeping the rest', () => {
    expect(stripControlCharacters('+1 (555)\u0000 010\u001b-0001')).toBe('+1 (555) 010-0001');
    expect(stripControlCharacters('notes\nsecond line\ttab')).toBe('notes\nsecond line\ttab');
  });
});

describe('a file that is not text', () => {
  it('is recognised by U+0000 or by many control characters', () => {
    expect(notTextReason('name,phone\nAnn,\u0000555', false)).toBe(NOT_TEXT);
    const noisy = Array.from({ length: 200 }, (_, i) => (i % 10 === 0 ? '\u0001' : 'a')).join('');
    expect(notTextReason(noisy, false)).toBe(NOT_TEXT);
  });

  it('is recognised when bytes read as Windows-1252 are mostly accented letters', () => {
    expect(notTextReason('ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞßàáâã,b', true)).toBe(NOT_TEXT);
    expect(notTextReason('ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖ×ØÙÚÛÜÝÞßàáâã,b', false)).toBeNull();
  });

  it('leaves real spreadsheet exports alone, accented names and form feeds included', () => {
    expect(notTextReason('First Name,Last Name\r\nJosé,Müller\r\nRenée,Ørsted\f\r\n', true)).toBeNull();
    expect(notTextReason('', false)).toBeNull();
  });
});
