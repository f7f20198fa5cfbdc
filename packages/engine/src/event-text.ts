/**
 * The hand log's wording: one line for a hand event as a table shows it (the live log of every client;
 * the replayer's steps), with names and amounts given by the caller, who knows the seats and the money.
 */
import { UNKNOWN_CARD_TEXT } from './cards.js';
import type { HandEvent, MaybeCard } from './hand/types.js';

/**
 * A hand event as a table shows it: positions become seat numbers (`player` → `seat`) and cards their
 * texts ("As"; "??" for one hidden from the viewer). The protocol's `EventView` has this shape.
 */
export type SeatEvent = SeatedEvent<Exclude<HandEvent, { readonly type: 'end' }>> | { readonly type: 'end' };

type SeatedEvent<E> = E extends unknown
  ? {
      readonly [K in keyof E as K extends 'player' ? 'seat' : K]: E[K] extends readonly MaybeCard[]
        ? readonly string[]
        : E[K];
    }
  : never;

export interface EventWords {
  /** The name shown for a seat. */
  readonly name: (seat: number) => string;
  /** An amount of chips as the table shows money. */
  readonly money: (amount: number) => string;
}

/**
 * What a line needs of the hand before the event: `currentBet`, the street's highest bet (blinds and a
 * bring-in included; 0 when nobody has bet), which makes a bet-raise a bet or a raise. Only a
 * bet-raise's line depends on it.
 */
export interface EventContext {
  readonly currentBet: number;
}

const cardsText = (cards: readonly string[]): string => cards.join(' ');

const POST_NAMES = { ante: 'the ante', 'dead-blind': 'a dead blind', blind: 'a blind' } as const;

/** One line of the hand's log, or null for an event that says nothing a player needs to read. */
export function eventLine(event: SeatEvent, words: EventWords, before: EventContext): string | null {
  const { name, money } = words;
  switch (event.type) {
    case 'post':
      return `${name(event.seat)} posts ${POST_NAMES[event.kind]} of ${money(event.amount)}`;
    case 'deal-hole': {
      const up = event.cards.filter((card, i) => card !== UNKNOWN_CARD_TEXT && event.up[i] === true);
      return up.length === 0 ? null : `${name(event.seat)} is dealt ${cardsText(up)} face up`;
    }
    case 'deal-board':
      return `${event.run === 2 ? 'Second board' : 'Board'}: ${cardsText(event.cards)}`;
    case 'deal-draw':
      return event.cards.every((card) => card === UNKNOWN_CARD_TEXT)
        ? null
        : `${name(event.seat)} draws ${cardsText(event.cards)}`;
    case 'round':
      return null;
    case 'fold':
      return `${name(event.seat)} folds`;
    case 'check':
      return `${name(event.seat)} checks`;
    case 'call':
      return `${name(event.seat)} calls ${money(event.amount)}${allIn(event.allIn)}`;
    case 'bring-in':
      return `${name(event.seat)} brings in for ${money(event.amount)}`;
    case 'bet-raise':
      return `${name(event.seat)} ${before.currentBet === 0 ? 'bets' : 'raises to'} ${money(event.to)}${allIn(event.allIn)}`;
    case 'discard':
      return event.cards.length === 0
        ? `${name(event.seat)} stands pat`
        : `${name(event.seat)} discards ${event.cards.length}`;
    case 'return':
      return `${money(event.amount)} returned to ${name(event.seat)}`;
    case 'show':
      return `${name(event.seat)} shows ${cardsText(event.cards)}`;
    case 'muck':
      return `${name(event.seat)} mucks`;
    case 'split':
      return `${name(event.seat)} ${event.accept ? 'accepts' : 'declines'} the split`;
    case 'run-twice':
      return 'Everybody agreed: the board is run twice';
    case 'timeout':
      return `${name(event.seat)} timed out (${event.result})`;
    case 'rake':
      return event.amount > 0 ? `Rake ${money(event.amount)}` : null;
    case 'award':
      return `${name(event.seat)} wins ${money(event.amount)}${potName(event.pot)}${SHARE_NAMES[event.share]}${event.run === undefined ? '' : ` on the ${event.run === 1 ? 'first' : 'second'} board`}`;
    case 'end':
      return 'Hand over';
  }
}

const allIn = (allIn: boolean): string => (allIn ? ' (all in)' : '');
const potName = (pot: number): string => (pot === 0 ? ' from the main pot' : ` from side pot ${pot}`);
const SHARE_NAMES = { all: '', high: ' (high)', low: ' (low)', agreed: ' (agreed split)' } as const;
