/**
 * Chips accounting and the options to buy chips: the tournament's chips are exactly those sold
 * (starting stacks of entries and re-entries, rebuys, add-ons); who may rebuy, add on or re-enter,
 * when, at what cost and for how many chips. Tournament chips are not money: the cost and fee of each
 * purchase are what the controller takes through the ledger (cost to the prize pool, fee to the house).
 */
import { fail, ok, type Result } from '@felt/engine';
import type { LevelWindow, TournamentDefinition } from './structure.js';

export interface ChipsSold {
  /** Entries, re-entries included. */
  readonly entries: number;
  readonly rebuys: number;
  readonly addOns: number;
}

/** The chips in the tournament: everything sold, nothing else. */
export function chipsSold(
  def: Pick<TournamentDefinition, 'startingChips' | 'rebuy' | 'addOn'>,
  sold: ChipsSold,
): number {
  return (
    sold.entries * def.startingChips +
    sold.rebuys * (def.rebuy?.chips ?? 0) +
    sold.addOns * (def.addOn?.chips ?? 0)
  );
}

/** The prize pool in cents: the cost of everything sold (fees go to the house). */
export function prizePool(
  def: Pick<TournamentDefinition, 'buyIn' | 'rebuy' | 'addOn'>,
  sold: ChipsSold,
): number {
  return (
    sold.entries * def.buyIn + sold.rebuys * (def.rebuy?.cost ?? 0) + sold.addOns * (def.addOn?.cost ?? 0)
  );
}

/** What a purchase takes and gives: `cost` cents to the pool, `fee` cents to the house, `chips` to the stack. */
export interface Offer {
  readonly cost: number;
  readonly fee: number;
  readonly chips: number;
}

export type PurchaseErrorCode =
  'NOT_OFFERED' | 'OUT_OF_WINDOW' | 'LIMIT_REACHED' | 'STACK_TOO_BIG' | 'STILL_PLAYING' | 'NOT_PLAYING';

/** What the controller knows of a player when he asks to buy. */
export interface BuyerState {
  /** Tournament chips in front of him (0 = out, or about to be). */
  readonly stack: number;
  /** Whether he still has a seat in the tournament (false once eliminated). */
  readonly playing: boolean;
  readonly rebuys: number;
  readonly addOns: number;
  /** Re-entries made (the first entry not counted). */
  readonly reEntries: number;
}

const inWindow = (window: LevelWindow, level: number): boolean =>
  level >= window.fromLevel && level <= window.untilLevel;

/** A rebuy: offered, in its levels, under the per-player limit, to a player still in whose stack is at most the rebuy's limit. */
export function rebuyOffer(
  def: TournamentDefinition,
  buyer: BuyerState,
  level: number,
): Result<Offer, PurchaseErrorCode> {
  const rebuy = def.rebuy;
  if (rebuy === undefined) return fail('NOT_OFFERED', 'this tournament has no rebuys');
  if (!inWindow(rebuy.window, level))
    return fail(
      'OUT_OF_WINDOW',
      `rebuys: levels ${rebuy.window.fromLevel + 1}–${rebuy.window.untilLevel + 1}`,
    );
  if (buyer.rebuys >= rebuy.maxPerPlayer)
    return fail('LIMIT_REACHED', `at most ${rebuy.maxPerPlayer} rebuys`);
  if (!buyer.playing) return fail('NOT_PLAYING', 'a rebuy is for a player still in');
  if (buyer.stack > rebuy.maxStack)
    return fail('STACK_TOO_BIG', `a rebuy needs a stack of at most ${rebuy.maxStack}`);
  return ok({ cost: rebuy.cost, fee: rebuy.fee, chips: rebuy.chips });
}

/** An add-on: offered, in its levels (usually the break after the rebuys), under the per-player limit, to a player still in. */
export function addOnOffer(
  def: TournamentDefinition,
  buyer: BuyerState,
  level: number,
): Result<Offer, PurchaseErrorCode> {
  const addOn = def.addOn;
  if (addOn === undefined) return fail('NOT_OFFERED', 'this tournament has no add-on');
  if (!inWindow(addOn.window, level))
    return fail(
      'OUT_OF_WINDOW',
      `add-ons: levels ${addOn.window.fromLevel + 1}–${addOn.window.untilLevel + 1}`,
    );
  if (buyer.addOns >= addOn.maxPerPlayer)
    return fail('LIMIT_REACHED', `at most ${addOn.maxPerPlayer} add-ons`);
  if (!buyer.playing) return fail('NOT_PLAYING', 'an add-on is for a player still in');
  return ok({ cost: addOn.cost, fee: addOn.fee, chips: addOn.chips });
}

/** A re-entry: offered, in its levels, under the per-player limit, to a player who is out; a new entry at the buy-in and fee. */
export function reEntryOffer(
  def: TournamentDefinition,
  buyer: BuyerState,
  level: number,
): Result<Offer, PurchaseErrorCode> {
  const reEntry = def.reEntry;
  if (reEntry === undefined) return fail('NOT_OFFERED', 'this tournament has no re-entry');
  if (!inWindow(reEntry.window, level))
    return fail(
      'OUT_OF_WINDOW',
      `re-entry: levels ${reEntry.window.fromLevel + 1}–${reEntry.window.untilLevel + 1}`,
    );
  if (buyer.reEntries >= reEntry.maxPerPlayer)
    return fail('LIMIT_REACHED', `at most ${reEntry.maxPerPlayer} re-entries`);
  if (buyer.playing) return fail('STILL_PLAYING', 'a re-entry is for a player who is out');
  return ok({ cost: def.buyIn, fee: def.fee, chips: def.startingChips });
}
