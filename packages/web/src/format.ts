/**
 * Money is integer cents everywhere (the protocol's amounts); only the display divides by 100.
 * Tournament chips (a tournament table's `chips`) are whole units: shown as they are, with no sign.
 */
export type Currency = 'play' | 'real';
/** What a table's amounts count (the protocol's `TableCurrency`). */
export type TableCurrency = Currency | 'chips';

/** `1234` → `12.34`; `1200` → `12`; negative amounts keep their sign. */
export function formatAmount(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  const whole = Math.floor(abs / 100);
  const frac = abs % 100;
  const wholeText = whole.toLocaleString('en-US');
  return frac === 0 ? `${sign}${wholeText}` : `${sign}${wholeText}.${String(frac).padStart(2, '0')}`;
}

/** What a table plays for, in words. */
export const CURRENCY_LABELS: Readonly<Record<TableCurrency, string>> = {
  play: 'play money',
  real: 'real money',
  chips: 'tournament chips',
};

/** Tournament chips: `152333` → `152,333`, no decimals and no currency sign. */
export function formatChips(chips: number): string {
  return Math.trunc(chips).toLocaleString('en-US');
}

/**
 * Both kinds of money travel in hundredths (the room's stakes text shows 100/200 as "1/2"): real money
 * as `$12.34`, play money as `12.34` chips; tournament chips as whole units (`1,500`).
 */
export function formatMoney(amount: number, currency: TableCurrency): string {
  if (currency === 'chips') return formatChips(amount);
  return currency === 'real' ? `$${formatAmount(amount)}` : formatAmount(amount);
}

/** An amount for an input box: `12.50`, `12`; tournament chips `1500`. */
export function amountText(amount: number, currency: TableCurrency): string {
  return formatMoney(amount, currency === 'real' ? 'play' : currency).replace(/,/g, '');
}

/** Parses what a player typed into hundredths (`12.5` → 1250), or whole tournament chips (`1,500`), or null. */
export function parseMoney(text: string, currency: TableCurrency): number | null {
  if (currency !== 'chips') return parseAmount(text);
  const trimmed = text.trim().replace(/,/g, '');
  if (!/^\d+$/.test(trimmed)) return null;
  const chips = Number(trimmed);
  return Number.isSafeInteger(chips) ? chips : null;
}

/** Parses what a player typed (`12`, `12.5`, `12.50`) into cents, or null. */
export function parseAmount(text: string): number | null {
  const trimmed = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) return null;
  const [whole = '0', frac = ''] = trimmed.split('.');
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

export const STRUCTURE_LABELS: Readonly<Record<string, string>> = {
  'fixed-limit': 'Fixed limit',
  'spread-limit': 'Spread limit',
  'pot-limit': 'Pot limit',
  'half-pot-limit': '½ pot limit',
  'no-limit': 'No limit',
};

export const STRUCTURE_SHORT: Readonly<Record<string, string>> = {
  'fixed-limit': 'FL',
  'spread-limit': 'SL',
  'pot-limit': 'PL',
  'half-pot-limit': '½PL',
  'no-limit': 'NL',
};

export const GAME_NAMES: Readonly<Record<string, string>> = {
  holdem: "Texas Hold'em",
  omaha: 'Omaha',
  omaha5: '5-card Omaha',
  'omaha-hilo': 'Omaha Hi/Lo',
  'omaha5-hilo': '5-card Omaha Hi/Lo',
  shortdeck: "Short-deck Hold'em",
  stud: '7-card Stud',
  'stud-hilo': '7-card Stud Hi/Lo',
  razz: 'Razz',
  soko: 'Sökö',
  americana: 'Americana',
  telesina: 'Telesina',
  draw5: '5-card Draw',
  'triple-draw-27': '2-7 Triple Draw',
  'single-draw-27': '2-7 Single Draw',
  badugi: 'Badugi',
  draw32: '32-card Draw',
};

export type GameFamily = 'flop' | 'stud' | 'draw';

/** Which way a game is dealt: community cards, up and down cards, or a draw. */
export function gameFamily(game: string): GameFamily {
  if (['stud', 'stud-hilo', 'razz', 'soko', 'americana', 'telesina'].includes(game)) return 'stud';
  if (['draw5', 'triple-draw-27', 'single-draw-27', 'badugi', 'draw32'].includes(game)) return 'draw';
  return 'flop';
}

/** Stud games have antes and a bring-in: no blinds, and no dealer button deciding who acts. */
export function hasBlinds(game: string): boolean {
  return gameFamily(game) !== 'stud';
}

export function gameName(game: string): string {
  return GAME_NAMES[game] ?? game;
}
