import type { LegalView } from '@felt/protocol';
import { describe, expect, it } from 'vitest';
import { typedAmount } from '../src/components/ActionBar';
import { hotkey, type HotkeyContext } from '../src/hotkeys';

const FACING_BET: LegalView = {
  seat: 0,
  fold: true,
  check: false,
  call: 50,
  bringIn: null,
  raise: { min: 100, max: 500 },
  raiseTos: null,
  discard: null,
  split: false,
};
const FREE_CHECK: LegalView = { ...FACING_BET, check: true, call: null };

const context = (patch: Partial<HotkeyContext> = {}): HotkeyContext => ({
  legal: FACING_BET,
  prefs: { hotkeys: true, freeFold: 'ask' },
  armed: null,
  raiseAction: { type: 'raise', to: 200 },
  drawAction: { type: 'stand-pat' },
  money: (amount) => String(amount),
  ...patch,
});

describe('hotkeys: a key that puts chips in needs a deliberate press', () => {
  it('a single C facing a bet only asks; a second C or Shift+C calls', () => {
    const first = hotkey('c', false, context());
    expect(first).toMatchObject({ kind: 'arm', key: 'c' });
    expect(hotkey('c', false, context({ armed: 'c' }))).toEqual({ kind: 'send', action: { type: 'call' } });
    expect(hotkey('C', true, context())).toEqual({ kind: 'send', action: { type: 'call' } });
  });

  it('R and B arm before they bet, raise or bring in', () => {
    expect(hotkey('r', false, context())).toMatchObject({ kind: 'arm', key: 'r' });
    expect(hotkey('r', false, context({ armed: 'r' }))).toEqual({
      kind: 'send',
      action: { type: 'raise', to: 200 },
    });
    const bringIn = context({ legal: { ...FACING_BET, call: null, bringIn: 5 } });
    expect(hotkey('b', false, bringIn)).toMatchObject({ kind: 'arm', key: 'b' });
    expect(hotkey('b', true, bringIn)).toEqual({ kind: 'send', action: { type: 'bring-in' } });
  });

  it('another key between the two presses does not count as the second', () => {
    expect(hotkey('r', false, context({ armed: 'c' }))).toMatchObject({ kind: 'arm', key: 'r' });
  });

  it('R sends nothing while the amount box holds no valid amount', () => {
    expect(hotkey('r', true, context({ raiseAction: null }))).toEqual({ kind: 'none' });
  });

  it('a check costs nothing and goes at once', () => {
    expect(hotkey('c', false, context({ legal: FREE_CHECK }))).toEqual({
      kind: 'send',
      action: { type: 'check' },
    });
  });
});

describe('hotkeys: folding when checking is free asks first, or checks as a setting', () => {
  it('a single F with a free check only asks; F again folds', () => {
    const first = hotkey('f', false, context({ legal: FREE_CHECK }));
    expect(first).toMatchObject({ kind: 'arm', key: 'f' });
    expect(hotkey('f', false, context({ legal: FREE_CHECK, armed: 'f' }))).toEqual({
      kind: 'send',
      action: { type: 'fold' },
    });
  });

  it('Shift does not skip the question: the fold of a free hand is asked about', () => {
    expect(hotkey('F', true, context({ legal: FREE_CHECK }))).toMatchObject({ kind: 'arm', key: 'f' });
  });

  it('with the setting, F checks when checking is free', () => {
    const prefs = { hotkeys: true, freeFold: 'check' } as const;
    expect(hotkey('f', false, context({ legal: FREE_CHECK, prefs }))).toEqual({
      kind: 'send',
      action: { type: 'check' },
    });
  });

  it('facing a bet, F folds at once', () => {
    expect(hotkey('f', false, context())).toEqual({ kind: 'send', action: { type: 'fold' } });
  });
});

describe('hotkeys: can be switched off', () => {
  it('with shortcuts off no key does anything', () => {
    const off = context({ prefs: { hotkeys: false, freeFold: 'ask' } });
    for (const key of ['f', 'c', 'r', 'a', 'd']) expect(hotkey(key, true, off)).toEqual({ kind: 'none' });
  });
});

describe('the amount box: a bad entry holds no amount, never the one typed before', () => {
  const raise = { min: 100, max: 500 };
  it('an amount in range is taken; text, or one out of range, is no amount', () => {
    expect(typedAmount('2.50', raise, 'play')).toBe(250);
    for (const text of ['2.5x', '', '0.50', '9']) expect(typedAmount(text, raise, 'real')).toBeNull();
  });
});
