import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import type { Card } from '../cards.js';
import { fairFields } from '../fair/fields.js';
import { fairDeal, FAIR_VERSION, NO_PREVIOUS_COMMITMENT, type Contribution } from '../fair/scheme.js';
import type { HandAction, HandEvent, HandSnapshot, LegalActions } from '../hand/types.js';
import { variantOf } from '../hand/variants.js';
import { randomBelow, seededRandom, type RandomSource } from '../random.js';
import { fail, ok, type Result } from '../result.js';
import { phhToConfig } from './config.js';
import { engineHandFactory, type HandFactory, type PlayableHand } from './engine.js';
import { PhhErrorCode, type PhhAction, type PhhExtraValue, type PhhHand } from './types.js';
import { parseVariantCode } from './variants.js';

export interface SimulateOptions {
  readonly variant: string;
  readonly players: number;
  readonly hands: number;
  readonly seed: number;
  /** Allow the house-only options (open-pair big bet on 4th street, no fixed-limit cap heads-up). Default: the rules PHH engines share. */
  readonly house?: boolean;
  /** The hand state machine to drive; default the engine's own. */
  readonly createHand?: HandFactory;
}

const chance = (random: RandomSource, percent: number): boolean => randomBelow(random, 100) < percent;
const between = (random: RandomSource, low: number, high: number): number =>
  low + randomBelow(random, high - low + 1);

/** The forced bets and limits of a simulated hand: small stakes so that all-ins come often. */
function tableFor(code: string, players: number, random: RandomSource): PhhHand | null {
  const variant = parseVariantCode(code);
  if (variant === null) return null;
  const rounds = variantOf(variant.game).streets.length;
  const ante = chance(random, 50) ? 0 : 1;
  const stacks = Array.from({ length: players }, () => between(random, 3, 120));
  const base = {
    variant: code,
    scale: 0,
    anteTrimmingStatus: false,
    antes: stacks.map(() => (variant.bringIn ? Math.max(ante, 1) : ante)),
    startingStacks: stacks,
    actions: [],
    extra: {},
  };
  const forced = variant.bringIn
    ? { bringIn: 1 }
    : { blindsOrStraddles: stacks.map((_, position) => (position === 0 ? 1 : position === 1 ? 2 : 0)) };
  switch (variant.structure) {
    case 'fixed':
      return { ...base, ...forced, smallBet: 2, bigBet: 4 };
    case 'spread':
      return {
        ...base,
        ...forced,
        minBet: 2,
        spreadLimits: Array.from({ length: rounds }, (_, round) => (round < rounds / 2 ? 4 : 8)),
      };
    default:
      return { ...base, ...forced, minBet: 2 };
  }
}

/** Chooses a random legal betting action, all kinds included. */
function chooseBet(legal: LegalActions, random: RandomSource): HandAction {
  const player = legal.player;
  if (legal.bringIn !== null && chance(random, 60)) return { type: 'bring-in', player };
  const roll = randomBelow(random, 100);
  if (legal.fold && legal.call !== null && roll < 18) return { type: 'fold', player };
  if (legal.raise !== null && roll >= 62) {
    const choices = legal.raiseTos;
    if (choices !== null && choices.length > 0) {
      return { type: 'bet-raise', player, to: choices[randomBelow(random, choices.length)]! };
    }
    const { min, max } = legal.raise;
    const pick = randomBelow(random, 10);
    const to = pick < 2 ? max : pick < 6 ? min : between(random, min, max);
    return { type: 'bet-raise', player, to };
  }
  if (legal.check || legal.call !== null) return { type: 'check-call', player };
  if (legal.bringIn !== null) return { type: 'bring-in', player };
  return { type: 'fold', player };
}

/** The PHH action of an engine event the caller caused, or null. */
function phhActionOf(event: HandEvent): PhhAction | null {
  switch (event.type) {
    case 'deal-hole':
    case 'deal-draw':
      return { kind: 'deal-hole', player: event.player, cards: event.cards };
    case 'deal-board':
      return { kind: 'deal-board', cards: event.cards };
    case 'fold':
      return { kind: 'fold', player: event.player };
    case 'check':
    case 'call':
      return { kind: 'check-call', player: event.player };
    case 'bring-in':
      return { kind: 'bring-in', player: event.player };
    case 'bet-raise':
      return { kind: 'bet-raise', player: event.player, amount: event.to };
    case 'discard':
      return { kind: 'discard', player: event.player, cards: event.cards };
    default:
      return null;
  }
}

class Simulation {
  readonly actions: PhhAction[] = [];
  /** Cards each player has revealed: up cards and cards shown. */
  private readonly revealed: Set<Card>[];
  private seen = 0;
  /** Every hand still in was turned up before the runout. */
  private exposed = false;

  constructor(
    private readonly hand: PlayableHand,
    private readonly random: RandomSource,
    players: number,
  ) {
    this.revealed = Array.from({ length: players }, () => new Set<Card>());
  }

  private record(): void {
    const events = this.hand.events;
    for (const event of events.slice(this.seen)) {
      if (event.type === 'deal-hole') {
        event.cards.forEach((card, i) => {
          if (card !== null && event.up[i] === true) this.revealed[event.player]!.add(card);
        });
      }
      const action = phhActionOf(event);
      if (action) this.actions.push(action);
    }
    this.seen = events.length;
  }

  private apply(action: HandAction): void {
    const result = this.hand.apply(action);
    if (!result.ok) throw new Error(`simulation refused ${JSON.stringify(action)}: ${result.error.message}`);
    this.record();
  }

  private hidden(state: HandSnapshot, position: number): boolean {
    const cards = state.players[position]!.cards;
    return cards.some((card) => card !== null && !this.revealed[position]!.has(card));
  }

  private showInFile(state: HandSnapshot, position: number): void {
    const cards = state.players[position]!.cards.filter((card): card is Card => card !== null);
    for (const card of cards) this.revealed[position]!.add(card);
    this.actions.push({ kind: 'show-muck', player: position, cards });
  }

  /**
   * All-in runout: every hand still in is shown once before more is dealt, as PHH writes it (and
   * PokerKit replays it); cards dealt later are shown when the hand ends (`showRestInFull`).
   */
  private showBeforeRunout(): void {
    for (let show = this.hand.nextExposure(); show !== null; show = this.hand.nextExposure()) {
      if (show.type !== 'show') return;
      this.showInFile(this.hand.snapshot(), show.player);
      this.apply(show);
      this.exposed = true;
    }
  }

  /** After a runout: each hand turned up shown again in full if it was dealt cards face down since. */
  private showRestInFull(): void {
    if (!this.exposed) return;
    for (const position of this.hand.exposureOrder()) {
      const now = this.hand.snapshot();
      if (this.hidden(now, position)) this.showInFile(now, position);
    }
  }

  private showdown(): void {
    if (this.exposed) {
      this.showRestInFull();
      return;
    }
    let first = true;
    for (const position of this.hand.showdownOrder()) {
      const now = this.hand.snapshot();
      if (now.phase !== 'showdown') return;
      const seat = now.players[position]!;
      if (seat.folded || seat.mucked) continue;
      if (seat.shown) {
        if (this.hidden(now, position)) this.showInFile(now, position);
        continue;
      }
      if (!this.hidden(now, position)) {
        this.apply({ type: 'show', player: position });
      } else if (first || chance(this.random, 75) || !this.hand.can({ type: 'muck', player: position })) {
        this.showInFile(now, position);
        this.apply({ type: 'show', player: position });
      } else {
        this.actions.push({ kind: 'show-muck', player: position, cards: [] });
        this.apply({ type: 'muck', player: position });
      }
      first = false;
    }
  }

  run(): void {
    this.record();
    for (let guard = 0; guard < 10_000; guard++) {
      const state = this.hand.snapshot();
      switch (state.phase) {
        case 'done':
          this.showRestInFull();
          return;
        case 'deal':
          if (state.round >= 0) this.showBeforeRunout();
          this.apply({ type: 'deal' });
          break;
        case 'bet': {
          const legal = this.hand.legalActions();
          if (legal === null) throw new Error('no legal actions while betting');
          this.apply(chooseBet(legal, this.random));
          break;
        }
        case 'draw': {
          const legal = this.hand.legalActions();
          const player = state.actor;
          if (legal === null || player === null) throw new Error('no legal actions while drawing');
          const cards = [...state.players[player]!.cards];
          const count = randomBelow(this.random, (legal.discard ?? 0) + 1);
          const discards = [];
          for (let i = 0; i < count; i++)
            discards.push(cards.splice(randomBelow(this.random, cards.length), 1)[0]!);
          this.apply({ type: 'discard', player, cards: discards });
          break;
        }
        case 'showdown':
          this.showdown();
          break;
        case 'split':
          if (state.actor === null) throw new Error('split offer without a player');
          this.apply({ type: 'split', player: state.actor, accept: false });
          break;
      }
    }
    throw new Error('simulation did not finish');
  }
}

/**
 * The scheme's inputs of a simulated hand, which the seed stands in for: the secret and each seat's
 * contribution are SHA-256 of a text naming them (docs/fairness.md §10), every seat (p1 = seat 1)
 * contributing.
 */
function simulatedInputs(
  table: string,
  hand: number,
  players: number,
): { readonly secret: Uint8Array; readonly contributions: Contribution[] } {
  const bytes = (what: string): Uint8Array => sha256(utf8ToBytes(`${table} hand ${hand} ${what}`));
  const contributions = Array.from({ length: players }, (_, p) => ({
    seat: p + 1,
    bytes: bytes(`contribution ${p + 1}`),
  }));
  return { secret: bytes('secret'), contributions };
}

/**
 * Plays hands with random legal actions and records them as PHH with their finishing stacks.
 * Deterministic: the same options give the same hands. The cards are dealt by the fair-dealing
 * scheme, and each hand carries its `_fair_` fields with the secret revealed, so the file verifies.
 */
export function simulatePhh(options: SimulateOptions): Result<PhhHand[], PhhErrorCode | 'BAD_CONFIG'> {
  const variant = parseVariantCode(options.variant);
  if (variant === null)
    return fail(PhhErrorCode.UNKNOWN_VARIANT, `unknown variant ${JSON.stringify(options.variant)}`);
  const seats = variantOf(variant.game).seats;
  if (!Number.isInteger(options.players) || options.players < 2 || options.players > seats) {
    return fail('BAD_CONFIG', `${options.variant} is played by 2 to ${seats} players`);
  }
  const random = seededRandom(options.seed);
  const fairTable = `felt-simulate/${options.variant}/${options.players}/${options.seed}`;
  let previous = NO_PREVIOUS_COMMITMENT;
  const hands: PhhHand[] = [];
  for (let n = 0; n < options.hands; n++) {
    const table = tableFor(options.variant, options.players, random)!;
    const built = phhToConfig(table, { rules: options.house === true ? 'house' : 'phh' });
    if (!built.ok) return built;
    const { secret, contributions } = simulatedInputs(fairTable, n + 1, options.players);
    const fair = fairDeal({ table: fairTable, hand: n + 1, previous, secret }, contributions);
    if (!fair.ok) return fail('BAD_CONFIG', fair.error.message);
    const started = (options.createHand ?? engineHandFactory)(built.value.config, fair.value.random());
    if (!started.ok) return fail('BAD_CONFIG', started.error.message);
    const simulation = new Simulation(started.value, random, options.players);
    simulation.run();
    const finishing = started.value.finishingStacks();
    const extra: Record<string, PhhExtraValue> = fairFields({
      version: FAIR_VERSION,
      table: fairTable,
      hand: n + 1,
      previous,
      commitment: fair.value.commitment,
      seats: contributions.map((c) => c.seat),
      contributionHashes: fair.value.contributionHashes,
      contributions: contributions.map((c) => c.bytes),
      secret,
    });
    hands.push({ ...table, actions: simulation.actions, finishingStacks: finishing ?? [], extra });
    previous = fair.value.commitment;
  }
  return ok(hands);
}
