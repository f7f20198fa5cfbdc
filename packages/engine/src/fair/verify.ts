/**
 * Verification of hands dealt by the scheme (docs/fairness.md §7): the commitment from the secret, the
 * chain, the contributions against their hashes, and every card dealt against the deck they derive.
 * The cards are checked by replaying the hand on the engine fed by the scheme's stream, so that the
 * dealing order is the one the hand state machine deals in, burns and draw reshuffles included.
 */
import { formatCard, type Card } from '../cards.js';
import { Hand } from '../hand/hand.js';
import {
  HandErrorCode,
  type HandAction,
  type HandConfig,
  type HandResult,
  type MaybeCard,
} from '../hand/types.js';
import type { PlayableHand } from '../phh/engine.js';
import { replayPhh } from '../phh/replay.js';
import type { PhhHand } from '../phh/types.js';
import { fail, ok } from '../result.js';
import { readFairFields, type FairRecord } from './fields.js';
import { contributionHash, fairDeal, FAIR_VERSION, NO_PREVIOUS_COMMITMENT, type FairDeal } from './scheme.js';
import { toHex } from './hex.js';

export type FairVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const equal = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

const cardsText = (cards: readonly MaybeCard[]): string =>
  cards.map((card) => (card === null ? '??' : formatCard(card))).join('');

interface MismatchReport {
  mismatch: string | null;
}

/**
 * The engine's hand, dealing from the scheme's stream: a deal that names cards is dealt from the deck
 * instead and refused when the deck gives other cards (the report says which). A refused deal ends the
 * verification, so what it changed is never read.
 */
class DeckCheckingHand implements PlayableHand {
  constructor(
    private readonly inner: Hand,
    private readonly report: MismatchReport,
  ) {}

  get phase() {
    return this.inner.phase;
  }
  get actor() {
    return this.inner.actor;
  }
  get events() {
    return this.inner.events;
  }
  apply(action: HandAction): HandResult<unknown> {
    if (action.type !== 'deal' || action.cards === undefined) return this.inner.apply(action);
    const given = action.cards;
    const from = this.inner.events.length;
    const dealt = this.inner.apply({ type: 'deal' });
    if (!dealt.ok) return dealt;
    const event = this.inner.events.slice(from).find((e) => e.type.startsWith('deal-'));
    const cards: readonly Card[] =
      event !== undefined && 'cards' in event ? (event.cards as readonly Card[]) : [];
    const differs =
      given.length !== cards.length || given.some((card, i) => card !== null && card !== cards[i]);
    if (!differs) return dealt;
    this.report.mismatch = `the file deals ${cardsText(given)}, the committed deck ${cardsText(cards)}`;
    return fail(HandErrorCode.BAD_CARDS, this.report.mismatch);
  }
  pendingDeal() {
    return this.inner.pendingDeal();
  }
  finishingStacks() {
    return this.inner.finishingStacks();
  }
  showdownOrder() {
    return this.inner.showdownOrder();
  }
  exposureOrder() {
    return this.inner.exposureOrder();
  }
  nextExposure() {
    return this.inner.nextExposure();
  }
  legalActions() {
    return this.inner.legalActions();
  }
  snapshot() {
    return this.inner.snapshot();
  }
  can(action: HandAction) {
    return this.inner.can(action);
  }
}

/** Replays the hand dealing from the deck; a reason when a card or an action does not match. */
function checkCards(hand: PhhHand, deal: FairDeal): string | null {
  let refusal = '';
  // The betting rules do not change the deal: a file written under either set replays under it.
  for (const rules of ['phh', 'house'] as const) {
    const report: MismatchReport = { mismatch: null };
    const createHand = (config: HandConfig): HandResult<PlayableHand> => {
      const started = Hand.create(config, deal.random());
      return started.ok ? ok(new DeckCheckingHand(started.value, report)) : started;
    };
    const outcome = replayPhh(hand, { rules, createHand });
    if (outcome.ok) return null;
    if (report.mismatch !== null) return `card: actions[${outcome.error.action ?? 0}]: ${report.mismatch}`;
    refusal ||= `actions: the hand does not replay: ${outcome.error.message}`;
  }
  return refusal;
}

/** Checks one hand on its own; `prior` is the hand before it in the same file, for the chain. */
export function verifyFairHand(hand: PhhHand, prior: FairRecord | null = null): FairVerdict {
  const record = readFairFields(hand.extra);
  if (typeof record === 'string') return { ok: false, reason: `fields: ${record}` };
  return verifyRecord(hand, record, prior);
}

function verifyRecord(hand: PhhHand, record: FairRecord, prior: FairRecord | null): FairVerdict {
  const no = (reason: string): FairVerdict => ({ ok: false, reason });
  if (record.version !== FAIR_VERSION)
    return no(`version: version ${record.version} is not known (this verifier knows ${FAIR_VERSION})`);
  if (record.secret === null) return no('secret: the secret is not revealed');
  if (record.hand === 1 && !equal(record.previous, NO_PREVIOUS_COMMITMENT))
    return no('chain: the first hand of a table must name no previous commitment (zeros)');
  if (prior !== null && prior.table === record.table) {
    if (record.hand <= prior.hand)
      return no(`chain: hand ${record.hand} comes after hand ${prior.hand} of the same table`);
    if (record.hand === prior.hand + 1 && !equal(record.previous, prior.commitment))
      return no(`chain: the previous commitment is not hand ${prior.hand}'s`);
  }
  const { table, hand: number, previous, secret } = record;
  const contributions = record.contributions ?? [];
  if (record.seats.length !== record.contributionHashes.length)
    return no(`contribution: ${record.seats.length} seats for ${record.contributionHashes.length} hashes`);
  if (contributions.length !== record.seats.length)
    return no(`contribution: ${record.seats.length} listed, ${contributions.length} revealed`);
  const inputs = record.seats.map((seat, i) => ({ seat, bytes: contributions[i]! }));
  const deal = fairDeal({ table, hand: number, previous, secret }, inputs);
  if (!deal.ok) return no(`fields: ${deal.error.message}`);
  if (!equal(deal.value.commitment, record.commitment))
    return no(
      `commitment: the secret gives ${toHex(deal.value.commitment)}, the hand says ${toHex(record.commitment)}`,
    );
  for (const [i, input] of inputs.entries()) {
    if (!equal(contributionHash(record.commitment, input), record.contributionHashes[i]!))
      return no(`contribution: seat ${input.seat}'s contribution does not match its listed hash`);
  }
  const cards = checkCards(hand, deal.value);
  return cards === null ? { ok: true } : no(cards);
}

/**
 * Checks the hands of a file in order, each also against the one before it (the chain). A hand that
 * could not be read is given as the reason why; it fails, and breaks the chain for the next.
 */
export function verifyFairHands(hands: readonly (PhhHand | string)[]): FairVerdict[] {
  let prior: FairRecord | null = null;
  return hands.map((hand) => {
    if (typeof hand === 'string') {
      prior = null;
      return { ok: false, reason: `phh: ${hand}` };
    }
    const record = readFairFields(hand.extra);
    if (typeof record === 'string') {
      prior = null;
      return { ok: false, reason: `fields: ${record}` };
    }
    const verdict = verifyRecord(hand, record, prior);
    prior = record;
    return verdict;
  });
}
