/**
 * Tournaments as the client shows them: which tournament a table belongs to, a level's stakes and the
 * clock in words, places, and the server's refusals in plain words. Pure functions; no rule is decided
 * here (every figure is the server's).
 */
import type { TournamentClockView, TournamentDetail, TournamentLevelWindow } from '@felt/protocol';
import { formatChips } from './format';

/**
 * The tournament a table belongs to, or null for a cash table: a tournament table's id is its run's id
 * (which holds `@` and ends with the run's ISO time, `…Z`), `-` and its number, and `-` and a
 * generation when the table was opened again (docs/protocol.md, "Tournaments").
 */
export function tournamentOfTable(tableId: string): string | null {
  if (!tableId.includes('@')) return null;
  const id = tableId.replace(/(-\d+){1,2}$/, '');
  return id === tableId ? null : id;
}

/** A tournament table's number within its tournament ("2" for `…Z-2` and `…Z-2-3`), or null for a cash table. */
export function tableNumber(tableId: string): string | null {
  const tournament = tournamentOfTable(tableId);
  return tournament === null ? null : (/^-(\d+)/.exec(tableId.slice(tournament.length))?.[1] ?? null);
}

/** The screen of a tournament's page (table ids have no spaces, so no table takes it). */
export const TOURNAMENT_LOBBY_SCREEN = 'tournament lobby';
const PAGE_PREFIX = 'tournament ';
export const tournamentScreen = (tournamentId: string): string => `${PAGE_PREFIX}${tournamentId}`;
/** The tournament a screen shows the page of, or null. */
export function tournamentOfScreen(screen: string): string | null {
  return screen.startsWith(PAGE_PREFIX) && screen !== TOURNAMENT_LOBBY_SCREEN
    ? screen.slice(PAGE_PREFIX.length)
    : null;
}

export { formatChips };

interface LevelFields {
  readonly blinds?: { readonly small: number; readonly big: number };
  readonly ante?: number;
  readonly bigBlindAnte?: boolean;
  readonly bringIn?: number;
  readonly limits?: { readonly small: number; readonly big: number };
}

function isPair(value: unknown): value is { small: number; big: number } {
  if (typeof value !== 'object' || value === null) return false;
  const pair = value as Record<string, unknown>;
  return typeof pair['small'] === 'number' && typeof pair['big'] === 'number';
}

/** The fields of a level the server sent (`TournamentDetail.levels` is as defined), those that read. */
function levelFields(level: unknown): LevelFields {
  if (typeof level !== 'object' || level === null) return {};
  const raw = level as Record<string, unknown>;
  return {
    ...(isPair(raw['blinds']) ? { blinds: raw['blinds'] } : {}),
    ...(typeof raw['ante'] === 'number' && raw['ante'] > 0 ? { ante: raw['ante'] } : {}),
    ...(raw['bigBlindAnte'] === true ? { bigBlindAnte: true } : {}),
    ...(typeof raw['bringIn'] === 'number' ? { bringIn: raw['bringIn'] } : {}),
    ...(isPair(raw['limits']) ? { limits: raw['limits'] } : {}),
  };
}

/** A level's stakes in words: "Blinds 10/20 · ante 5 (big blind ante)", "Bring-in 5 · ante 1 · limits 10/20". */
export function levelStakes(level: unknown): string {
  const { blinds, ante, bigBlindAnte, bringIn, limits } = levelFields(level);
  const parts: string[] = [];
  if (blinds !== undefined) parts.push(`Blinds ${formatChips(blinds.small)}/${formatChips(blinds.big)}`);
  if (bringIn !== undefined) parts.push(`Bring-in ${formatChips(bringIn)}`);
  if (ante !== undefined)
    parts.push(`ante ${formatChips(ante)}${bigBlindAnte === true ? ' (big blind ante)' : ''}`);
  if (limits !== undefined) parts.push(`limits ${formatChips(limits.small)}/${formatChips(limits.big)}`);
  const text = parts.join(' · ');
  return text === '' ? '—' : text[0]!.toUpperCase() + text.slice(1);
}

/** "1st", "2nd", "3rd", "11th", "22nd". */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix =
    tens >= 11 && tens <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return `${String(n)}${suffix}`;
}

/** "3:05", "0:09", "1:02:00". */
export function clockText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${String(h)}:${String(m).padStart(2, '0')}:${s}` : `${String(m)}:${s}`;
}

/**
 * What is left of the clock in words, `elapsed` ms after the server's answer: "4:59 to the next level",
 * "2 hands to the break", "On a break: 3:00 left", "Break after the hands in play"; while a deal is open
 * the time does not run: "Clock stopped for the deal: 4:59 to the next level".
 */
export function clockLeft(clock: TournamentClockView, elapsed: number): string {
  if (clock.paused) return `Clock stopped for the deal: ${clockLeft({ ...clock, paused: false }, 0)}`;
  if (clock.phase === 'break-due') return 'Break after the hands in play';
  if (clock.phase === 'break') return `On a break: ${clockText((clock.remainingMs ?? 0) - elapsed)} left`;
  const to = clock.breakNext ? 'the break' : 'the next level';
  if (clock.remainingHands !== null)
    return `${String(clock.remainingHands)} hand${clock.remainingHands === 1 ? '' : 's'} to ${to}`;
  return `${clockText((clock.remainingMs ?? 0) - elapsed)} to ${to}`;
}

/** The figures of the table's bar: players left, their average stack, and his rank (null when out or watching). */
export function standingOf(
  detail: TournamentDetail,
  account: number | null,
): { left: number; average: number; rank: number | null } {
  const still = detail.players.filter((p) => p.rank !== null);
  const chips = still.reduce((sum, p) => sum + p.chips, 0);
  const rank = detail.players.find((p) => p.account === account)?.rank ?? null;
  return {
    left: detail.playersLeft,
    average: still.length === 0 ? 0 : Math.round(chips / still.length),
    rank,
  };
}

/** A purchase sold to him now: the op that buys it, its price (cents to the pool and to the house) and chips. */
export interface PurchaseOffer {
  readonly op: 'tournament-rebuy' | 'tournament-addon' | 'tournament-reenter';
  readonly label: string;
  readonly cost: number;
  readonly fee: number;
  readonly chips: number;
}

/**
 * The rebuy, add-on and re-entry sold to `account` at the level being played, as the page reads (in
 * their window, under their limit; a rebuy up to its stack, a re-entry once out). The server decides.
 */
export function offersOf(detail: TournamentDetail, account: number | null): PurchaseOffer[] {
  const me = detail.players.find((p) => p.account === account);
  const level = detail.level;
  if (detail.state !== 'running' || level === null || me === undefined) return [];
  const open = (w: TournamentLevelWindow) => level >= w.fromLevel && level <= w.untilLevel;
  const still = me.rank !== null;
  const { rebuy, addOn, reEntry } = detail;
  const offers: PurchaseOffer[] = [];
  if (rebuy && still && open(rebuy.window) && me.rebuys < rebuy.maxPerPlayer && me.chips <= rebuy.maxStack)
    offers.push({
      op: 'tournament-rebuy',
      label: 'Rebuy',
      cost: rebuy.cost,
      fee: rebuy.fee,
      chips: rebuy.chips,
    });
  if (addOn && still && open(addOn.window) && me.addOns < addOn.maxPerPlayer)
    offers.push({
      op: 'tournament-addon',
      label: 'Add-on',
      cost: addOn.cost,
      fee: addOn.fee,
      chips: addOn.chips,
    });
  if (reEntry && !still && open(reEntry.window) && me.reEntries < reEntry.maxPerPlayer)
    offers.push({
      op: 'tournament-reenter',
      label: 'Re-enter',
      cost: detail.buyIn,
      fee: detail.fee,
      chips: detail.startingChips,
    });
  return offers;
}

/** The server's refusals of registering and unregistering, in plain words (its code stays beside them). */
const REFUSALS: Readonly<Record<string, string>> = {
  NO_SUCH_TOURNAMENT: 'There is no such tournament any more.',
  REGISTRATION_CLOSED: 'Registration is closed: the tournament is full, over, or past late registration.',
  ALREADY_REGISTERED: 'You are already registered for this tournament.',
  NOT_REGISTERED: 'You are not registered for this tournament.',
  TOURNAMENT_STARTED: 'The tournament has started: you can no longer unregister.',
  INSUFFICIENT_FUNDS: 'Your balance does not cover the buy-in and fee.',
  PAYMENT_REFUSED: 'The room refused the payment.',
  STAFF_ACCOUNT: 'A staff account cannot play for real money.',
  NOT_OFFERED: 'The tournament does not sell that.',
  OUT_OF_WINDOW: 'That is not sold at this level (or prizes are being paid).',
  LIMIT_REACHED: 'You have bought as many of those as one player may.',
  STACK_TOO_BIG: 'Your stack is too big for a rebuy.',
  STILL_PLAYING: 'You are still in: a re-entry is for a player who is out.',
  NOT_PLAYING: 'You are not playing in this tournament now.',
  NOT_FINAL_TABLE: 'A deal is made at the final table.',
  DEAL_OPEN: 'A deal is being proposed: nothing else until it is off.',
  NO_DEAL_OPEN: 'No deal is proposed any more.',
  DEAL_PENDING: 'The deal is worked out when the hand in play ends.',
};

export function refusalText(code: string, message: string): string {
  return `${REFUSALS[code] ?? message} (${code})`;
}
