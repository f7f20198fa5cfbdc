/**
 * The betting shortcuts, as a pure decision: what one key press does given the legal actions, the key
 * armed by the press before it and the player's settings. A key that puts chips in (call, bring-in,
 * bet/raise) needs a deliberate press: Shift with it, or the same key twice. F when checking is free
 * asks first (F again folds) or, as a setting, checks. Keys that cost nothing (check, fold facing a
 * bet, draw) act at once; sizing keys (A, P, H) only set the amount.
 */
import type { WireHandAction } from '@felt/protocol';
import type { LegalView } from './net/views';

export interface HotkeyPrefs {
  /** Shortcuts on at all. */
  readonly hotkeys: boolean;
  /** F when checking is free: ask first, or check. */
  readonly freeFold: 'ask' | 'check';
}

/** A key waiting for its second press. */
export type ArmedKey = 'f' | 'c' | 'b' | 'r';

export interface HotkeyContext {
  readonly legal: LegalView;
  readonly prefs: HotkeyPrefs;
  readonly armed: ArmedKey | null;
  /** The bet-raise action the amount box would send, or null (no raise allowed, or no valid amount). */
  readonly raiseAction: WireHandAction | null;
  /** The draw the picked cards make. */
  readonly drawAction: WireHandAction;
  /** Names an amount for a prompt. */
  readonly money: (amount: number) => string;
}

export type HotkeyResult =
  | { readonly kind: 'send'; readonly action: WireHandAction }
  | { readonly kind: 'arm'; readonly key: ArmedKey; readonly prompt: string }
  | { readonly kind: 'size'; readonly key: 'a' | 'p' | 'h' }
  /** Nothing to do; an armed key is disarmed. */
  | { readonly kind: 'none' };

const NONE: HotkeyResult = { kind: 'none' };

export function hotkey(key: string, shift: boolean, context: HotkeyContext): HotkeyResult {
  const { legal, prefs, armed, raiseAction, money } = context;
  if (!prefs.hotkeys) return NONE;
  const k = key.toLowerCase();
  if (legal.discard !== null) return k === 'd' ? { kind: 'send', action: context.drawAction } : NONE;
  /** Chips go in on Shift or on the second press of the same key. */
  const commit = (armKey: ArmedKey, action: WireHandAction, prompt: string): HotkeyResult =>
    shift || armed === armKey ? { kind: 'send', action } : { kind: 'arm', key: armKey, prompt };
  switch (k) {
    case 'f':
      if (!legal.fold) return NONE;
      if (!legal.check) return { kind: 'send', action: { type: 'fold' } };
      if (prefs.freeFold === 'check') return { kind: 'send', action: { type: 'check' } };
      return armed === 'f'
        ? { kind: 'send', action: { type: 'fold' } }
        : { kind: 'arm', key: 'f', prompt: 'Checking is free: press F again to fold, C to check' };
    case 'c':
      if (legal.check) return { kind: 'send', action: { type: 'check' } };
      if (legal.call === null) return NONE;
      return commit('c', { type: 'call' }, `Press C again (or Shift+C) to call ${money(legal.call)}`);
    case 'b':
      if (legal.bringIn === null) return NONE;
      return commit(
        'b',
        { type: 'bring-in' },
        `Press B again (or Shift+B) to bring in for ${money(legal.bringIn)}`,
      );
    case 'r':
      if (raiseAction === null || !('to' in raiseAction)) return NONE;
      return commit('r', raiseAction, `Press R again (or Shift+R) for ${money(raiseAction.to)}`);
    case 'a':
    case 'p':
    case 'h':
      return legal.raise === null ? NONE : { kind: 'size', key: k };
    default:
      return NONE;
  }
}
