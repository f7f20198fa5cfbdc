/**
 * The bet-size buttons of a big-bet table, as the player sets them in his settings: fractions of the
 * pot (`1/3`, `0.5`, `75%`, `pot`) and multiples of the bet he faces (`2.5x`, `3x`: a raise to that many
 * times the bet; preflop, the big blind). Only suggestions: the amount box is clamped to the engine's
 * minimum and maximum, and the server checks the amount.
 */
import { potFractionBet } from '@felt/engine/browser';

export type BetSize =
  { readonly kind: 'pot'; readonly fraction: number } | { readonly kind: 'times'; readonly multiple: number };

export const DEFAULT_BET_SIZES = '1/3, 1/2, 3/4, pot, 2.5x, 3x';

/** At most this many buttons: the action bar must fit a phone. */
const MAX_SIZES = 8;

function parseSize(token: string): BetSize | null {
  const text = token.trim().toLowerCase();
  if (text === 'pot') return { kind: 'pot', fraction: 1 };
  const times = /^(\d+(?:\.\d+)?)\s*[x×]$/.exec(text);
  if (times !== null) {
    const multiple = Number(times[1]);
    return multiple > 1 && multiple <= 100 ? { kind: 'times', multiple } : null;
  }
  const ratio = /^(\d+)\s*\/\s*(\d+)$/.exec(text);
  const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(text);
  const decimal = /^(\d*\.\d+|\d+)$/.exec(text);
  const fraction =
    ratio !== null
      ? Number(ratio[1]) / Number(ratio[2])
      : percent !== null
        ? Number(percent[1]) / 100
        : decimal !== null
          ? Number(decimal[1])
          : NaN;
  return fraction > 0 && fraction <= 10 ? { kind: 'pot', fraction } : null;
}

/** The sizes of a comma-separated list, or null when any entry is not one (the settings keep the last good list). */
export function parseBetSizes(text: string): BetSize[] | null {
  const tokens = text.split(',').filter((token) => token.trim() !== '');
  if (tokens.length === 0 || tokens.length > MAX_SIZES) return null;
  const sizes = tokens.map(parseSize);
  return sizes.every((size) => size !== null) ? sizes : null;
}

const FRACTION_NAMES: Readonly<Record<string, string>> = {
  '0.25': '¼',
  '0.333': '⅓',
  '0.5': '½',
  '0.667': '⅔',
  '0.75': '¾',
};

export function betSizeLabel(size: BetSize): string {
  if (size.kind === 'times') return `${size.multiple}×`;
  if (size.fraction === 1) return 'Pot';
  const name = FRACTION_NAMES[size.fraction.toFixed(3).replace(/0+$/, '')];
  return `${name ?? `${Math.round(size.fraction * 100)}%`} Pot`;
}

/**
 * The street total the button suggests; null when it does not apply (a multiple with no bet to
 * multiply). `pot`: every chip put in this hand; `currentBet`: the street's highest bet; `call`: what he
 * adds to call.
 */
export function betSizeTo(
  size: BetSize,
  hand: { readonly pot: number; readonly currentBet: number; readonly call: number },
): number | null {
  if (size.kind === 'pot') return potFractionBet(hand.pot, hand.currentBet, hand.call, size.fraction);
  return hand.currentBet === 0 ? null : Math.round(hand.currentBet * size.multiple);
}
