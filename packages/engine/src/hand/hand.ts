/**
 * The hand state machine: one hand from forced bets to chips pushed.
 *
 * Design: a mutable `Hand` whose only mutating entry point is `apply(action)`, guarded by
 * `verify(action)` / `can(action)`. A refused action returns a typed error and changes nothing (every
 * check happens before the first write). Every accepted action appends immutable events to
 * `events` (the hand's history; `replayHand` rebuilds the same state from it) and returns the first
 * of them. `snapshot()` returns an immutable deep copy for views. Mutation inside keeps a simulated
 * hand cheap (no copying per action).
 */
import { potSizedBets } from '../pot-sizes.js';
import { formatCard, type Card } from '../cards.js';
import { deckCards, deckContains, type DeckKind } from '../deck.js';
import { showdownWinners, type ShowdownWinners } from '../eval/showdown.js';
import { fail, ok } from '../result.js';
import { randomBelow, type RandomSource } from '../random.js';
import { awardPot, buildPotParts, buildPots, oddChipOrder, splitEvenly, type PotPart } from './pots.js';
import { showingStrength } from './showing.js';
import { settingsOf, type HandSettings } from './settings.js';
import { bettingLimits, type BettingLimits } from './structures.js';
import {
  HandErrorCode,
  type DealRequest,
  type HandAction,
  type HandConfig,
  type HandEvent,
  type HandPhase,
  type HandResult,
  type HandSnapshot,
  type LegalActions,
  type MaybeCard,
  type PlayerSnapshot,
  type Pot,
} from './types.js';
import { bringInKey, VARIANTS, variantOf, type Variant } from './variants.js';

const err = (code: HandErrorCode, message: string) => fail(code, message);

/**
 * Per-player lists are cut from packed templates: quicker to make than `new Array(n).fill(x)`, and
 * packed (no holes) for the loops that read them on every action.
 */
const packedOf = <T>(value: T, size: number): T[] => {
  const out: T[] = [];
  for (let i = 0; i < size; i++) out.push(value);
  return out;
};
const ZEROS = packedOf(0, 16);
const MINUS_ONES = packedOf(-1, 16);
const FALSES = packedOf(false, 16);
function filled<T>(template: readonly T[], n: number): T[] {
  if (n <= template.length) return template.slice(0, n);
  const out = template.slice();
  while (out.length < n) out.push(template[0]!);
  return out;
}

/** The one success of `verify`: shared, it is immutable. */
const OK: HandResult<undefined> = Object.freeze(ok(undefined));

/** The largest number of cards a player may discard in one draw (32-card draw: 0–4, RULES.md §11). */
const maxDiscardOf = (variant: Variant, handSize: number): number =>
  variant.id === 'draw32' ? Math.min(4, handSize) : handSize;

/** Games with the 4th-street open-pair option (RULES.md §6). */
const OPEN_PAIR_GAMES: readonly string[] = ['stud', 'stud-hilo'];

export class Hand {
  readonly config: HandConfig;
  readonly variant: Variant;
  /** The hand's history: every event in order. Never mutated except by appending. */
  readonly events: HandEvent[] = [];

  private readonly n: number;
  private readonly random: RandomSource | null;
  // Deck: `stub` holds the undealt cards (top = end); `used` marks cards known dealt or burned.
  private readonly stub: Card[];
  private readonly used: Uint8Array = new Uint8Array(52);
  private readonly deckSize: number;
  /** Cards taken from the fresh deck (dealt or burned; recycled discards not counted). */
  private freshGone = 0;
  private discardPile: Card[] = [];
  private discardOwner: number[] = [];
  private discardStreet: number[] = [];
  private readonly served: boolean[];
  // Players.
  private readonly stacks: number[];
  private readonly bets: number[];
  private readonly committed: number[];
  /** Live chips put in (blinds, bets): what side pots are made of. */
  private readonly live: number[];
  /** Dead money (antes, dead blinds): it goes to the main pot. */
  private deadMoney = 0;
  private readonly folded: boolean[];
  private readonly allIn: boolean[];
  private readonly cards: MaybeCard[][];
  private readonly up: boolean[][];
  private readonly acted: boolean[];
  private readonly actedAt: number[];
  /** The bet each player left standing when he last acted (what a later raise is measured from). */
  private readonly facedAt: number[];
  private readonly noRaise: boolean[];
  private readonly shown: boolean[];
  private readonly mucked: boolean[];
  private readonly drawn: number[];
  /** Artificial all-in: in the hand, acting no more. */
  private readonly frozen: boolean[];
  private readonly board: MaybeCard[] = [];
  // Progress.
  private phaseValue: HandPhase = 'deal';
  private streetIndex = 0;
  private roundValue = -1;
  private actorValue: number | null = null;
  private readonly dealQueue: DealRequest[] = [];
  private dealtThisStreet = 0;
  private drawQueue: number[] = [];
  private splitQueue: number[] = [];
  private splitAccepted: boolean[];
  /** 32-card draw split offer: the pots on offer, and whether each is still open (nobody in it declined). */
  private splitPots: PotPart[] = [];
  private splitOpen: boolean[] = [];
  /** Pots every player of which accepted the split: divided equally at the end (RULES.md §11). */
  private agreedPots: PotPart[] = [];
  private communityStreet = false;
  private reachedRake = false;
  /**
   * Run it twice: the street the runs start at and the board cards both share (-1: one run), which
   * run is being dealt (1 or 2), and the second run's board.
   */
  private runFromStreet = -1;
  private runShared = 0;
  private runDealing: 1 | 2 = 1;
  private secondBoard: MaybeCard[] | null = null;
  // Betting round.
  private currentBet = 0;
  private lastRaise = 0;
  private raises = 0;
  private fullSeq = 0;
  /** The largest increment of any bet or raise this round, short all-ins included (PokerKit's reopening size). */
  private largestIncrement = 0;
  private unit = 0;
  private openPairChoice = false;
  private limits: BettingLimits | null = null;
  private bringInPending = false;
  private lastAggressor: number | null = null;
  private aggressorOnLastRound: number | null = null;
  /** Where hands turned face up with no betting left start (see `exposureOrder`). */
  private exposureFrom = 0;
  private collected = 0;
  private rakeValue = 0;
  private finishing: number[] | null = null;
  private pots: Pot[] = [];
  private readonly bigBlindPosition: number;
  /** The betting limits of small-bet and big-bet streets (every structure but spread limit, whose limits change by round). */
  private limitsCache: [BettingLimits | null, BettingLimits | null] = [null, null];

  private limitsFor(bigBet: boolean, round: number): BettingLimits {
    if (this.config.structure === 'spread-limit') return bettingLimits(this.opts, bigBet, round);
    const i = bigBet ? 1 : 0;
    return (this.limitsCache[i] ??= bettingLimits(this.opts, bigBet, round));
  }

  /** The configuration's fields, read once (see ./settings.ts): the hand reads its settings here. */
  private readonly opts: HandSettings;

  private constructor(config: HandConfig, opts: HandSettings, random: RandomSource | null) {
    this.config = config;
    this.opts = opts;
    this.variant = variantOf(config.variant);
    this.random = random;
    const n = config.stacks.length;
    this.n = n;
    this.stacks = [...config.stacks];
    this.bets = filled(ZEROS, n);
    this.committed = filled(ZEROS, n);
    this.live = filled(ZEROS, n);
    this.folded = filled(FALSES, n);
    this.allIn = filled(FALSES, n);
    this.cards = [];
    this.up = [];
    for (let p = 0; p < n; p++) {
      this.cards.push([]);
      this.up.push([]);
    }
    this.acted = filled(FALSES, n);
    this.actedAt = filled(MINUS_ONES, n);
    this.facedAt = filled(ZEROS, n);
    this.noRaise = filled(FALSES, n);
    this.shown = filled(FALSES, n);
    this.mucked = filled(FALSES, n);
    this.drawn = filled(ZEROS, n);
    this.frozen = filled(FALSES, n);
    this.splitAccepted = filled(FALSES, n);
    this.served = filled(FALSES, n);
    this.stub = freshDeck(this.variant.deck);
    this.deckSize = this.stub.length;
    this.bigBlindPosition = bigBlindOf(opts.blinds ?? [], n);
  }

  /**
   * Starts a hand: validates the configuration, posts antes, dead blinds and blinds, and waits for
   * the first deal. `random` shuffles the engine's own deck; without it every deal must give cards.
   */
  static create(config: HandConfig, random?: RandomSource): HandResult<Hand> {
    const settings = settingsOf(config);
    const problem = validateConfig(settings);
    if (problem !== null) return err(HandErrorCode.BAD_CONFIG, problem);
    const hand = new Hand(config, settings, random ?? null);
    hand.postForcedBets();
    hand.startStreet(0);
    return ok(hand);
  }

  // ---------------------------------------------------------------- queries

  get phase(): HandPhase {
    return this.phaseValue;
  }

  /** The player whose input is awaited (bet, draw, split phases), else null. */
  get actor(): number | null {
    return this.actorValue;
  }

  get playerCount(): number {
    return this.n;
  }

  get isDone(): boolean {
    return this.phaseValue === 'done';
  }

  /** The dealing the hand waits for, or null. */
  pendingDeal(): DealRequest | null {
    return this.phaseValue === 'deal' ? (this.dealQueue[0] ?? null) : null;
  }

  /** The cards of a player as dealt (null = unknown), in dealing order; a live view, do not keep. */
  cardsOf(player: number): readonly MaybeCard[] {
    return this.cards[player] ?? [];
  }

  /** Finishing stacks once the hand is over (starting stack − committed + won), else null. */
  finishingStacks(): readonly number[] | null {
    return this.finishing;
  }

  /** The players still in the showdown who have neither shown nor mucked. */
  showdownPending(): number[] {
    if (this.phaseValue !== 'showdown') return [];
    const out: number[] = [];
    for (const p of this.showdownOrder()) if (!this.shown[p] && !this.mucked[p]) out.push(p);
    return out;
  }

  /**
   * Whether player `p`, still to show or muck at the showdown, would win or share a pot (or its high or
   * low half) against the hands shown so far in it. False: every pot he plays for is already lost, so
   * mucking gives nothing up (a room's "muck losing hands" option).
   */
  canWinShowdown(p: number): boolean {
    if (this.phaseValue !== 'showdown' || this.folded[p] || this.shown[p] || this.mucked[p]) return false;
    const pots =
      this.agreedPots.length > 0 ? this.potParts().filter((pot) => !pot.agreed) : this.currentPots();
    for (const pot of pots) {
      if (!pot.eligible.includes(p)) continue;
      const rivals = pot.eligible.filter((q) => q !== p && this.shown[q]);
      if (rivals.length === 0) return true;
      for (const board of this.secondBoard ? [this.board, this.secondBoard] : [this.board]) {
        const result = this.decide([p, ...rivals], board);
        if (result.winners.includes(0) || result.lowWinners?.includes(0) === true) return true;
      }
    }
    return false;
  }

  /**
   * Whether the rest of the board may be run twice now (a `run-twice` action): see `verifyRunTwice`.
   * The room offers it to the players at this moment.
   */
  canRunTwice(): boolean {
    return this.verifyRunTwice().ok;
  }

  /** The order in which hands are shown: last aggressor of the last round first, else by the game's rule. */
  showdownOrder(): number[] {
    const contenders = this.inHand();
    let first: number;
    if (this.aggressorOnLastRound !== null && !this.folded[this.aggressorOnLastRound]) {
      first = this.aggressorOnLastRound;
    } else if (this.variant.showdownFirst === 'showing') {
      first = this.bestShowing(contenders);
    } else if (this.variant.showdownFirst === 'after-big-blind') {
      first = this.nextFrom(this.bigBlindPosition + 1, (p) => !this.folded[p]);
    } else first = this.nextFrom(0, (p) => !this.folded[p]);
    const order: number[] = [];
    for (let i = 0; i < this.n; i++) {
      const p = (first + i) % this.n;
      if (!this.folded[p]) order.push(p);
    }
    return order;
  }

  /**
   * The order in which hands are turned face up when every hand still in is shown with no betting
   * left: from the last bettor or raiser of the round just played, else from where its action started
   * by the game's rule, round the table. The rules leave this order free (every hand is shown);
   * it is PokerKit's, so that PHH histories replay there.
   */
  exposureOrder(): number[] {
    const order: number[] = [];
    for (let i = 0; i < this.n; i++) {
      const p = (this.exposureFrom + i) % this.n;
      if (!this.folded[p]) order.push(p);
    }
    return order;
  }

  /**
   * All in with no betting left and no draw to come, before the rest is dealt: the next hand to turn
   * face up (in `exposureOrder`), or null when none is left to show. Tables and drivers apply it
   * until null, then deal.
   */
  nextExposure(): HandAction | null {
    if (this.phaseValue !== 'deal') return null;
    for (const p of this.exposureOrder()) {
      const show: HandAction = { type: 'show', player: p };
      if (this.can(show)) return show;
    }
    return null;
  }

  /** The legal actions of the player to act, or null when no player is to act. */
  legalActions(): LegalActions | null {
    const p = this.actorValue;
    if (p === null) return null;
    if (this.phaseValue === 'draw') {
      return legal(
        p,
        false,
        false,
        null,
        null,
        null,
        null,
        maxDiscardOf(this.variant, this.cards[p]!.length),
        false,
      );
    }
    if (this.phaseValue === 'split') return legal(p, false, false, null, null, null, null, null, true);
    if (this.phaseValue !== 'bet') return null;
    const raise = this.raiseRange(p);
    const raiseTos = raise && this.openPairChoice && this.raises === 0 ? this.openPairTos(p) : null;
    if (this.bringInPending) {
      const amount = Math.min(this.opts.bringIn ?? 0, this.stacks[p]!);
      return legal(p, false, false, null, amount, raise, raiseTos, null, false);
    }
    const toCall = this.currentBet - this.bets[p]!;
    return legal(
      p,
      true,
      toCall <= 0,
      toCall > 0 ? Math.min(toCall, this.stacks[p]!) : null,
      null,
      raise,
      raiseTos,
      null,
      false,
    );
  }

  /** The pots as they stand now (current bets included). */
  currentPots(): Pot[] {
    if (this.phaseValue === 'done') return this.pots;
    if (this.agreedPots.length > 0)
      return this.potParts().map(({ amount, eligible }) => ({ amount, eligible }));
    return buildPots(this.live, this.folded, this.deadMoney);
  }

  /** The pots with 32-card draw's agreed ones kept apart (RULES.md §11). */
  private potParts(): PotPart[] {
    return buildPotParts(this.live, this.folded, this.deadMoney, this.agreedPots);
  }

  /** An immutable copy of the whole state. */
  snapshot(): HandSnapshot {
    const players: PlayerSnapshot[] = [];
    for (let p = 0; p < this.n; p++) {
      players.push(
        Object.freeze({
          stack: this.stacks[p]!,
          bet: this.bets[p]!,
          committed: this.committed[p]!,
          folded: this.folded[p]!,
          allIn: this.allIn[p]!,
          cards: Object.freeze([...this.cards[p]!]),
          up: Object.freeze([...this.up[p]!]),
          shown: this.shown[p]!,
          mucked: this.mucked[p]!,
        }),
      );
    }
    return Object.freeze({
      variant: this.config.variant,
      structure: this.config.structure,
      phase: this.phaseValue,
      actor: this.actorValue,
      pendingDeal: this.pendingDeal(),
      street: this.streetIndex,
      round: this.roundValue,
      board: Object.freeze([...this.board]),
      runs: this.runFromStreet < 0 ? 1 : 2,
      secondBoard: this.secondBoard ? Object.freeze([...this.secondBoard]) : null,
      players: Object.freeze(players),
      currentBet: this.currentBet,
      collected: this.collected,
      pots: Object.freeze(this.currentPots().map((pot) => Object.freeze({ ...pot }))),
      rake: this.rakeValue,
      finishingStacks: this.finishing ? Object.freeze([...this.finishing]) : null,
      events: Object.freeze([...this.events]),
    });
  }

  // ---------------------------------------------------------------- verify / can / apply

  /** Checks an action against the rules without changing anything. */
  verify(action: HandAction): HandResult<undefined> {
    if (this.phaseValue === 'done') return err(HandErrorCode.HAND_OVER, 'the hand is over');
    switch (action.type) {
      case 'deal':
        return this.verifyDeal(action.cards);
      case 'fold':
      case 'check-call':
      case 'bring-in':
      case 'bet-raise':
        return this.verifyBet(action);
      case 'timeout':
        if (this.phaseValue !== 'bet') return err(HandErrorCode.WRONG_PHASE, 'timeouts apply to betting');
        if (action.player !== this.actorValue) {
          return err(HandErrorCode.NOT_YOUR_TURN, `player ${action.player} is not to act`);
        }
        return OK;
      case 'discard':
        return this.verifyDiscard(action.player, action.cards);
      case 'show':
      case 'muck':
        return this.verifyShowdown(action);
      case 'split':
        if (this.phaseValue !== 'split') return err(HandErrorCode.WRONG_PHASE, 'no split is offered now');
        if (action.player !== this.actorValue)
          return err(HandErrorCode.NOT_YOUR_TURN, `player ${action.player} is not offered the split`);
        return OK;
      case 'run-twice':
        return this.verifyRunTwice();
    }
  }

  can(action: HandAction): boolean {
    return this.verify(action).ok;
  }

  /** Applies an action: the first event it caused, or a typed error (and no change). */
  apply(action: HandAction): HandResult<HandEvent> {
    const verdict = this.verify(action);
    if (!verdict.ok) return verdict;
    const start = this.events.length;
    switch (action.type) {
      case 'deal':
        this.doDeal(action.cards);
        break;
      case 'fold':
      case 'check-call':
      case 'bring-in':
      case 'bet-raise':
        this.doBet(action);
        break;
      case 'discard':
        this.doDiscard(action.player, action.cards, action.timedOut ?? false);
        break;
      case 'show':
        this.doShow(action.player, action.cards);
        break;
      case 'muck':
        this.mucked[action.player] = true;
        this.emit({ type: 'muck', player: action.player });
        this.afterShowdownStep();
        break;
      case 'split':
        this.doSplit(action.player, action.accept);
        break;
      case 'timeout':
        this.doTimeout(action.player);
        break;
      case 'run-twice':
        this.runFromStreet = this.streetIndex;
        this.runShared = this.board.length;
        this.emit({ type: 'run-twice' });
        break;
    }
    return ok(this.events[start]!);
  }

  // ---------------------------------------------------------------- forced bets

  private postForcedBets(): void {
    const config = this.opts;
    const antes = config.antes ?? 0;
    // Uniform antes are matched like bets; a big-blind ante (one player for the table) is dead money.
    const uniform = typeof antes === 'number' || antes.every((x) => x === antes[0]);
    const trimmed = config.anteTrimming ?? uniform;
    for (let p = 0; p < this.n; p++) {
      const ante = typeof antes === 'number' ? antes : (antes[p] ?? 0);
      if (ante > 0) this.post(p, 'ante', ante, false, trimmed);
    }
    const dead = config.deadBlinds ?? [];
    for (let p = 0; p < this.n; p++) {
      const amount = dead[p] ?? 0;
      if (amount > 0) this.post(p, 'dead-blind', amount, false);
    }
    if (this.variant.forced === 'blinds') {
      const blinds = config.blinds ?? [];
      for (let p = 0; p < this.n; p++) {
        const amount = blinds[p] ?? 0;
        if (amount > 0) this.post(p, 'blind', amount, true);
      }
    }
  }

  /** Posts a forced bet: `live` counts toward the bet; `matched` (trimmed antes) counts for side pots. */
  private post(
    p: number,
    kind: 'ante' | 'blind' | 'dead-blind',
    amount: number,
    live: boolean,
    matched = false,
  ): void {
    const paid = Math.min(amount, this.stacks[p]!);
    this.stacks[p]! -= paid;
    this.committed[p]! += paid;
    if (live) {
      this.bets[p]! += paid;
      this.live[p]! += paid;
      if (this.bets[p]! > this.currentBet) this.currentBet = this.bets[p]!;
    } else {
      this.collected += paid;
      if (matched) this.live[p]! += paid;
      else this.deadMoney += paid;
    }
    if (this.stacks[p] === 0) this.allIn[p] = true;
    this.emit({ type: 'post', player: p, kind, amount: paid, allIn: this.allIn[p]! });
  }

  // ---------------------------------------------------------------- streets and dealing

  private startStreet(s: number): void {
    this.streetIndex = s;
    this.dealtThisStreet = 0;
    this.communityStreet = false;
    const spec = this.variant.streets[s]!;
    if (s >= this.variant.rakeStreet) this.reachedRake = true;
    this.dealQueue.length = 0;
    if (spec.hole.length > 0) {
      const active = this.inHand();
      const needed = active.length * spec.hole.length + (spec.burn ? 1 : 0);
      if (spec.communityIfShort && this.deckSize - this.freshGone < needed) {
        this.communityStreet = true;
        this.dealQueue.push({ kind: 'board', count: 1 });
      } else {
        for (const p of active)
          this.dealQueue.push({ kind: 'hole', player: p, count: spec.hole.length, up: spec.hole });
      }
    }
    if (spec.board > 0) this.dealQueue.push({ kind: 'board', count: spec.board });
    if (spec.draw) {
      this.drawStage = 'discarding';
      this.drawQueue = this.inHand();
      this.served.fill(false);
      this.pendingDraws.length = 0;
    }
    this.continueStreet();
  }

  /** Moves on after a deal or draw: more dealing, the draw, the split offer, betting, or the next street. */
  private continueStreet(): void {
    if (this.dealQueue.length > 0) {
      this.phaseValue = 'deal';
      this.actorValue = null;
      return;
    }
    if (this.drawStage === 'discarding') {
      if (this.drawQueue.length > 0) {
        this.phaseValue = 'draw';
        this.actorValue = this.drawQueue[0]!;
        return;
      }
      this.drawStage = 'dealing';
      for (const request of this.pendingDraws) this.dealQueue.push(request);
      this.pendingDraws.length = 0;
      if (this.dealQueue.length > 0) {
        this.phaseValue = 'deal';
        this.actorValue = null;
        return;
      }
    }
    const drew = this.drawStage !== 'none';
    this.drawStage = 'none';
    if (this.variant.splitOffer && drew && !this.splitOffered) {
      this.splitOffered = true;
      const order = this.roundOrder();
      if (order.length >= 2) {
        this.splitQueue = order;
        this.splitPots = buildPotParts(this.live, this.folded, this.deadMoney);
        this.splitOpen = this.splitPots.map(() => true);
        this.phaseValue = 'split';
        this.actorValue = order[0]!;
        return;
      }
    }
    this.startBetting();
  }

  private drawStage: 'none' | 'discarding' | 'dealing' = 'none';
  private splitOffered = false;
  private bettingRan = false;
  private readonly pendingDraws: DealRequest[] = [];

  private verifyDeal(cards: readonly MaybeCard[] | undefined): HandResult<undefined> {
    const request = this.pendingDeal();
    if (request === null) return err(HandErrorCode.WRONG_PHASE, 'no dealing is due');
    if (cards === undefined) {
      if (!this.random) return err(HandErrorCode.NO_DECK, 'this hand has no deck: give the cards');
      return OK;
    }
    if (cards.length !== request.count) {
      return err(HandErrorCode.BAD_CARDS, `${request.count} cards are due, got ${cards.length}`);
    }
    const seen = new Set<Card>();
    for (const card of cards) {
      if (card === null) continue;
      if (!Number.isInteger(card) || !deckContains(this.variant.deck, card)) {
        return err(HandErrorCode.BAD_CARDS, `card ${String(card)} is not in the deck of ${this.variant.id}`);
      }
      const recycled =
        this.used[card] === 2 &&
        request.kind === 'draw' &&
        this.mayRecycle(card, request.player, request.count);
      if ((this.used[card] !== 0 && !recycled) || seen.has(card)) {
        return err(HandErrorCode.BAD_CARDS, `${formatCard(card)} was already dealt`);
      }
      seen.add(card);
    }
    return OK;
  }

  private doDeal(given: readonly MaybeCard[] | undefined): void {
    const request = this.dealQueue.shift()!;
    const spec = this.variant.streets[this.streetIndex]!;
    let queued = request.count;
    for (const r of this.dealQueue) queued += r.count;
    // Burn before the street's first card, when the deck can spare one (stud's last street may not).
    const burn =
      spec.burn &&
      this.dealtThisStreet === 0 &&
      request.kind !== 'draw' &&
      this.deckSize - this.freshGone > queued;
    if (burn) this.freshGone++;
    let cards: MaybeCard[];
    if (given === undefined) {
      if (burn) this.used[this.takeFromStub(-1)] = 1;
      cards = [];
      for (let i = 0; i < request.count; i++) {
        const card = this.takeFromStub(request.kind === 'draw' ? request.player : -1);
        cards.push(card);
      }
    } else {
      cards = [...given];
      for (const card of cards) if (card !== null) this.removeFromStub(card);
    }
    for (const card of cards) {
      if (card === null || this.used[card] !== 2) this.freshGone++;
      if (card !== null) this.used[card] = 1;
    }
    this.dealtThisStreet++;
    switch (request.kind) {
      case 'hole':
        for (let i = 0; i < cards.length; i++) {
          this.cards[request.player]!.push(cards[i]!);
          this.up[request.player]!.push(request.up[i] ?? false);
        }
        this.emit({ type: 'deal-hole', player: request.player, cards, up: request.up });
        break;
      case 'board':
        if (this.runDealing === 2) {
          this.secondBoard!.push(...cards);
          this.emit({ type: 'deal-board', cards, run: 2 });
          break;
        }
        this.board.push(...cards);
        this.emit({ type: 'deal-board', cards });
        break;
      case 'draw':
        for (const card of cards) {
          this.cards[request.player]!.push(card);
          this.up[request.player]!.push(false);
        }
        this.served[request.player] = true;
        this.emit({ type: 'deal-draw', player: request.player, cards });
        break;
    }
    this.continueStreet();
  }

  /**
   * Takes the top card of the stub. When it is empty the discards are shuffled into it (RULES.md §8):
   * those of earlier draws and of players already served in this one, never `player`'s own; only if
   * those are too few, the discards of players still waiting (never his own either).
   */
  private takeFromStub(player: number): Card {
    if (this.stub.length === 0) {
      const street = this.streetIndex;
      const pick = (lenient: boolean): number => {
        const keep: Card[] = [];
        const keepOwner: number[] = [];
        const keepStreet: number[] = [];
        for (let i = 0; i < this.discardPile.length; i++) {
          const owner = this.discardOwner[i]!;
          const earlier = this.discardStreet[i]! < street;
          if (owner !== player && (earlier || this.served[owner] || lenient))
            this.stub.push(this.discardPile[i]!);
          else {
            keep.push(this.discardPile[i]!);
            keepOwner.push(owner);
            keepStreet.push(this.discardStreet[i]!);
          }
        }
        this.discardPile = keep;
        this.discardOwner = keepOwner;
        this.discardStreet = keepStreet;
        return this.stub.length;
      };
      if (pick(false) === 0) pick(true);
    }
    // Drawing a uniformly random card of the stub each time is a Fisher–Yates shuffle done lazily:
    // only the cards the hand uses are drawn.
    if (this.random && this.stub.length > 1) {
      const j = randomBelow(this.random, this.stub.length);
      const last = this.stub.length - 1;
      const picked = this.stub[j]!;
      this.stub[j] = this.stub[last]!;
      this.stub[last] = picked;
    }
    const card = this.stub.pop();
    if (card === undefined) throw new Error('the deck ran out'); // not reachable with the registry's games
    return card;
  }

  /**
   * Whether a discarded card may be dealt again to `player` (replays): only once the fresh deck
   * cannot cover the draw, and never his own discard of this draw.
   */
  private mayRecycle(card: Card, player: number, count: number): boolean {
    if (this.deckSize - this.freshGone >= count) return false;
    const i = this.discardPile.indexOf(card);
    return i >= 0 && !(this.discardOwner[i] === player && this.discardStreet[i] === this.streetIndex);
  }

  private removeFromStub(card: Card): void {
    const i = this.stub.indexOf(card);
    if (i >= 0) {
      this.stub[i] = this.stub[this.stub.length - 1]!;
      this.stub.pop();
    }
    const j = this.discardPile.indexOf(card);
    if (j >= 0) {
      this.discardPile.splice(j, 1);
      this.discardOwner.splice(j, 1);
      this.discardStreet.splice(j, 1);
    }
  }

  // ---------------------------------------------------------------- draws

  private verifyDiscard(player: number, cards: readonly MaybeCard[]): HandResult<undefined> {
    if (this.phaseValue !== 'draw') return err(HandErrorCode.WRONG_PHASE, 'no draw now');
    if (player !== this.actorValue)
      return err(HandErrorCode.NOT_YOUR_TURN, `player ${player} is not to draw`);
    const hand = this.cards[player]!;
    if (cards.length > maxDiscardOf(this.variant, hand.length)) {
      return err(
        HandErrorCode.BAD_CARDS,
        `at most ${maxDiscardOf(this.variant, hand.length)} cards may be discarded`,
      );
    }
    const remaining = [...hand];
    for (const card of cards) {
      let i = remaining.indexOf(card);
      if (i < 0 && card !== null) i = remaining.indexOf(null); // a known card replacing an unknown one
      if (i < 0)
        return err(HandErrorCode.BAD_CARDS, `${card === null ? '??' : formatCard(card)} is not in the hand`);
      remaining.splice(i, 1);
    }
    return OK;
  }

  private doDiscard(player: number, cards: readonly MaybeCard[], timedOut: boolean): void {
    const hand = this.cards[player]!;
    const up = this.up[player]!;
    for (const card of cards) {
      let i = hand.indexOf(card);
      if (i < 0) i = hand.indexOf(null);
      removeAt(hand, i);
      removeAt(up, i);
      if (card !== null) {
        this.used[card] = 2;
        this.discardPile.push(card);
        this.discardOwner.push(player);
        this.discardStreet.push(this.streetIndex);
      }
    }
    this.drawn[player] = cards.length;
    this.noRaise[player] = timedOut && cards.length === 0;
    this.drawQueue.shift();
    if (cards.length > 0) this.pendingDraws.push({ kind: 'draw', player, count: cards.length });
    this.emit({ type: 'discard', player, cards: [...cards], timedOut });
    this.phaseValue = 'deal';
    this.actorValue = null;
    this.continueStreet();
  }

  // ---------------------------------------------------------------- run it twice

  /**
   * Run it twice is allowed once, in a flop game (blinds, board cards), with at least two players in,
   * no betting left and no draw to come, when the hand waits for the first board card of a street and
   * every street left deals board cards only; and only if the deck holds the rest of the board with its
   * burns twice over (8-handed 5-card Omaha all in before the flop does not).
   */
  private verifyRunTwice(): HandResult<undefined> {
    if (this.runFromStreet >= 0) return err(HandErrorCode.ILLEGAL_ACTION, 'the board is run twice already');
    const request = this.pendingDeal();
    if (request?.kind !== 'board' || this.dealtThisStreet !== 0 || this.variant.forced !== 'blinds')
      return err(HandErrorCode.WRONG_PHASE, 'run it twice is agreed before a street of board cards');
    if (this.inHandCount() < 2 || !this.bettingIsOver() || this.drawsRemain())
      return err(HandErrorCode.ILLEGAL_ACTION, 'run it twice needs all in with no betting left');
    const streets = this.variant.streets;
    let needed = 0;
    for (let s = this.streetIndex; s < streets.length; s++) {
      const spec = streets[s]!;
      if (spec.hole.length > 0 || spec.draw)
        return err(HandErrorCode.ILLEGAL_ACTION, 'only board cards may be run twice');
      needed += spec.board + (spec.burn ? 1 : 0);
    }
    if (this.deckSize - this.freshGone < 2 * needed)
      return err(HandErrorCode.NO_DECK, 'the deck cannot deal the rest of the board twice');
    return OK;
  }

  // ---------------------------------------------------------------- split (32-card draw)

  private doSplit(player: number, accept: boolean): void {
    this.emit({ type: 'split', player, accept });
    this.splitQueue.shift();
    const pots = this.splitPots;
    if (accept) this.splitAccepted[player] = true;
    for (let i = 0; i < pots.length && !accept; i++) {
      if (pots[i]!.eligible.includes(player)) this.splitOpen[i] = false;
    }
    // A decline closes the pots the decliner is in: nobody only in closed pots is offered the split.
    const inOpenPot = (p: number): boolean =>
      pots.some((pot, i) => this.splitOpen[i] && pot.eligible.includes(p));
    while (this.splitQueue.length > 0 && !inOpenPot(this.splitQueue[0]!)) this.splitQueue.shift();
    if (this.splitQueue.length > 0) {
      this.actorValue = this.splitQueue[0]!;
      return;
    }
    // The pots still open: every one of their players accepted (RULES.md §11).
    const agreed = pots.filter((_, i) => this.splitOpen[i]).map((pot) => ({ ...pot, agreed: true }));
    this.splitPots = [];
    this.splitOpen = [];
    if (agreed.length === pots.length) {
      // Every pot agreed: each is divided equally among its players.
      this.returnUncalled();
      this.collectBets();
      this.finish('agreed');
      return;
    }
    // The agreed pots are set aside, divided at the end; the others are played out.
    this.agreedPots = agreed;
    this.phaseValue = 'deal';
    this.actorValue = null;
    this.startBetting();
  }

  // ---------------------------------------------------------------- betting

  /** Players still in the hand (not folded), in position order. */
  private inHand(): number[] {
    const out: number[] = [];
    for (let p = 0; p < this.n; p++) if (!this.folded[p]) out.push(p);
    return out;
  }

  /** How many players are still in the hand (`inHand().length`, without the list). */
  private inHandCount(): number {
    let count = 0;
    for (let p = 0; p < this.n; p++) if (!this.folded[p]) count++;
    return count;
  }

  private canAct(p: number): boolean {
    return !this.folded[p] && !this.allIn[p] && !this.frozen[p];
  }

  /** RULES.md §1 artificial all-in (fixed and spread limit, chips in the pot), else check or fold. */
  private doTimeout(p: number): void {
    const limit = this.config.structure === 'fixed-limit' || this.config.structure === 'spread-limit';
    if (limit && this.committed[p]! > 0) {
      this.frozen[p] = true;
      this.emit({ type: 'timeout', player: p, result: 'artificial-all-in' });
      this.acted[p] = true;
      this.advance(p);
      return;
    }
    const check = !this.bringInPending && this.currentBet <= this.bets[p]!;
    if (this.bringInPending) {
      // the bring-in is forced: post it
      this.emit({ type: 'timeout', player: p, result: 'check' });
      this.doBet({ type: 'bring-in', player: p });
      return;
    }
    this.emit({ type: 'timeout', player: p, result: check ? 'check' : 'fold' });
    this.doBet({ type: check ? 'check-call' : 'fold', player: p });
  }

  /** The first position from `start` on (cyclically) that satisfies `test`; `start` itself if none. */
  private nextFrom(start: number, test: (p: number) => boolean): number {
    for (let i = 0; i < this.n; i++) {
      const p = (((start + i) % this.n) + this.n) % this.n;
      if (test(p)) return p;
    }
    return ((start % this.n) + this.n) % this.n;
  }

  /** The order players act in this round (for the split offer): from the round's opener on. */
  private roundOrder(): number[] {
    const first = this.opener(this.roundStart());
    const order: number[] = [];
    for (let i = 0; i < this.n; i++) {
      const p = (first + i) % this.n;
      if (!this.folded[p]) order.push(p);
    }
    return order;
  }

  /**
   * The seat the current round's action starts from by the game's rule, whether or not that player
   * can act (RULES.md §3, §6, §8, §11): the bring-in, the seat after the big blind, the dealer's left
   * or the best hand showing.
   */
  private roundStart(): number {
    const v = this.variant;
    if (this.streetIndex === 0) {
      if (v.forced === 'bring-in') return this.bringInPlayer();
      return this.bigBlindPosition >= 0 ? this.bigBlindPosition + 1 : 0;
    }
    switch (v.laterOpener) {
      case 'button':
        return 0;
      case 'after-big-blind':
        return this.bigBlindPosition + 1;
      case 'showing':
        return this.bestShowing(this.inHand());
    }
  }

  /** Who opens the current round: the bring-in, else the first player who can act from its start. */
  private opener(start: number): number {
    if (this.streetIndex === 0 && this.variant.forced === 'bring-in') return start;
    return this.nextFrom(start, (p) => this.canAct(p));
  }

  /** The bring-in: lowest upcard in limit stud, highest in pot/no limit and the other games (RULES.md §6–§10, §12). */
  private bringInPlayer(): number {
    const rule = this.variant.bringInRule;
    const limit = this.config.structure === 'fixed-limit' || this.config.structure === 'spread-limit';
    const lowest = rule === 'stud' && limit;
    let best = -1;
    let bestKey = 0;
    for (let p = 0; p < this.n; p++) {
      if (this.folded[p]) continue;
      const cards = this.cards[p]!;
      const ups = this.up[p]!;
      let card: MaybeCard = null;
      for (let i = cards.length - 1; i >= 0; i--) {
        if (ups[i]) {
          card = cards[i]!;
          break;
        }
      }
      if (card === null) continue;
      const key = bringInKey(rule, card);
      if (best < 0 || (lowest ? key < bestKey : key > bestKey)) {
        best = p;
        bestKey = key;
      }
    }
    return best < 0 ? this.nextFrom(0, (p) => this.canAct(p)) : best;
  }

  /** The player with the best hand showing (up cards only); ties: nearest the dealer's left. */
  private bestShowing(players: readonly number[]): number {
    let best = players[0] ?? 0;
    let bestValue = -Infinity;
    const order = this.variant.showing;
    for (const p of players) {
      const value =
        order === 'high' || order === 'low'
          ? showingValue(this.cards[p]!, this.up[p]!, order === 'low')
          : showingStrength(order, this.cards[p]!, this.up[p]!);
      if (value > bestValue) {
        best = p;
        bestValue = value;
      }
    }
    return best;
  }

  private startBetting(): void {
    const spec = this.variant.streets[this.streetIndex]!;
    this.roundValue++;
    const round = this.roundValue;
    let inHandCount = 0;
    let actorCount = 0;
    let lastActor = -1;
    let maxBet = 0;
    for (let p = 0; p < this.n; p++) {
      if (this.folded[p]) continue;
      inHandCount++;
      if (this.bets[p]! > maxBet) maxBet = this.bets[p]!;
      if (this.canAct(p)) {
        actorCount++;
        lastActor = p;
      }
    }
    if (inHandCount <= 1) {
      this.endStreet();
      return;
    }
    const structure = this.config.structure;
    this.limits = this.limitsFor(spec.bigBet, round);
    this.unit = this.limits.unit;
    this.openPairChoice = false;
    if (
      structure === 'fixed-limit' &&
      (this.opts.openPairBigBet ?? true) &&
      this.streetIndex === 1 &&
      OPEN_PAIR_GAMES.includes(this.variant.id)
    ) {
      for (let p = 0; p < this.n; p++)
        if (!this.folded[p] && hasOpenPair(this.cards[p]!, this.up[p]!)) this.openPairChoice = true;
    }
    this.lastRaise = this.limits.fullBet;
    this.raises = this.currentBet > 0 ? 1 : 0;
    this.fullSeq = 0;
    this.largestIncrement = 0;
    this.lastAggressor = null;
    for (let p = 0; p < this.n; p++) {
      this.acted[p] = false;
      this.actedAt[p] = -1;
    }
    const bringIn =
      this.variant.forced === 'bring-in' && this.streetIndex === 0 && (this.opts.bringIn ?? 0) > 0;
    const start = this.roundStart();
    this.exposureFrom = start % this.n;
    if (this.communityStreet) {
      this.endStreet();
      return;
    }
    if (actorCount === 0 || (actorCount === 1 && this.bets[lastActor]! >= maxBet)) {
      this.endStreet();
      return;
    }
    const first = this.opener(start);
    this.bringInPending = bringIn && this.canAct(first);
    this.phaseValue = 'bet';
    this.bettingRan = true;
    this.actorValue = first;
    this.emit({ type: 'round', round, player: first });
    if (!this.canAct(first)) this.advance(first);
  }

  /**
   * The structure's bet/raise-to range this moment, ignoring the stack of the player (null = no more
   * raises: fixed-limit cap, spread-limit round cap). Pot limit counts the pot, every bet on the table
   * and the call of player `p` (RULES.md §2).
   */
  private nominalRange(p: number): { min: number; max: number } | null {
    const limits = this.limits;
    if (!limits) return null;
    const structure = this.config.structure;
    const opening = this.raises === 0;
    if (structure === 'fixed-limit') {
      const capped =
        this.raises >= 1 + (this.opts.maxRaises ?? 3) &&
        !(this.opts.capHeadsUp === false && this.inHandCount() === 2);
      if (capped) return null;
      if (this.openPairChoice && opening) {
        const min = Math.max(limits.unit, this.currentBet + 1);
        return { min, max: Math.max(min, limits.bigUnit) };
      }
      const to = opening ? Math.max(this.unit, this.currentBet + 1) : this.currentBet + this.unit;
      return { min: to, max: to };
    }
    if (structure === 'spread-limit') {
      const cap = 3 * limits.unit;
      if (this.currentBet >= cap) return null;
      const max = Math.min(
        opening ? Math.max(limits.unit, this.currentBet + 1) : this.currentBet + limits.unit,
        cap,
      );
      const min = opening
        ? Math.max(limits.fullBet, this.currentBet + 1)
        : this.currentBet + Math.min(this.lastRaise, limits.unit);
      return { min: Math.min(min, max), max };
    }
    const min = opening ? Math.max(limits.fullBet, this.currentBet + 1) : this.currentBet + this.lastRaise;
    if (structure === 'no-limit') return { min, max: Number.MAX_SAFE_INTEGER };
    let pot = this.collected;
    for (let q = 0; q < this.n; q++) pot += this.bets[q]!;
    const sized = potSizedBets(pot, this.currentBet, this.currentBet - this.bets[p]!);
    return { min, max: Math.max(min, structure === 'pot-limit' ? sized.pot : sized.halfPot) };
  }

  /** The complete/bet/raise-to range of player p, or null when he may not raise. */
  private raiseRange(p: number): { min: number; max: number } | null {
    if (!this.limits || this.noRaise[p]) return null;
    if (this.acted[p] && this.actedAt[p]! >= this.fullSeq && !this.reopenedBySum(p)) return null;
    const allInTo = this.bets[p]! + this.stacks[p]!;
    if (allInTo <= this.currentBet) return null;
    // A raise nobody can call even in part would only come back: some other player must be able to
    // put in more than the current bet.
    let othersCanCall = false;
    for (let q = 0; q < this.n && !othersCanCall; q++)
      if (q !== p && this.canAct(q) && this.bets[q]! + this.stacks[q]! > this.currentBet)
        othersCanCall = true;
    if (!othersCanCall) return null;
    // `nominalRange` makes a new record each call: it is narrowed to the stack in place.
    const range = this.nominalRange(p);
    if (range === null) return null;
    if (allInTo < range.min) range.min = allInTo;
    range.max = Math.min(range.max, allInTo);
    return range;
  }

  /**
   * A player who acted faces no full raise since (a short all-in does not reopen the betting to him),
   * unless the raises since his action add up to a full one (WSOP rule 96 (c), TDA: two short all-ins,
   * 300 then 400 over a 500 raise, reopen it). A full raise is the last full bet or raise; with
   * `shortAllInReopens` (PokerKit) it is the largest increment of the round, short ones included, so
   * that the first all-in of a round, however short, counts as full.
   */
  private reopenedBySum(p: number): boolean {
    const since = this.currentBet - this.facedAt[p]!;
    const full = this.opts.shortAllInReopens === true ? this.largestIncrement : this.lastRaise;
    return since > 0 && since >= full;
  }

  /** Open pair on 4th street (fixed-limit stud, house rule): the opening bet is the small or the big bet. */
  private openPairTos(p: number): number[] {
    const limits = this.limits!;
    const allInTo = this.bets[p]! + this.stacks[p]!;
    const tos = [limits.unit, limits.bigUnit]
      .filter((to) => to > this.currentBet)
      .map((to) => Math.min(to, allInTo));
    return [...new Set(tos)];
  }

  private verifyBet(action: HandAction & { player: number }): HandResult<undefined> {
    if (this.phaseValue !== 'bet')
      return err(HandErrorCode.WRONG_PHASE, `no betting now (${this.phaseValue})`);
    const p = action.player;
    if (p !== this.actorValue) return err(HandErrorCode.NOT_YOUR_TURN, `player ${p} is not to act`);
    if (this.bringInPending) {
      if (action.type === 'fold' || action.type === 'check-call') {
        return err(HandErrorCode.ILLEGAL_ACTION, 'the bring-in must be posted or completed');
      }
    } else if (action.type === 'bring-in') {
      return err(HandErrorCode.ILLEGAL_ACTION, 'no bring-in is due');
    }
    if (action.type === 'bet-raise') {
      const range = this.raiseRange(p);
      if (range === null) return err(HandErrorCode.ILLEGAL_ACTION, 'no bet or raise is allowed');
      const to = action.to;
      if (!Number.isInteger(to)) return err(HandErrorCode.BAD_AMOUNT, `bad amount ${String(to)}`);
      if (this.openPairChoice && this.raises === 0 && this.config.structure === 'fixed-limit') {
        if (!this.openPairTos(p).includes(to))
          return err(HandErrorCode.BAD_AMOUNT, `the bet must be one of ${this.openPairTos(p).join(', ')}`);
        return OK;
      }
      if (to < range.min || to > range.max) {
        return err(HandErrorCode.BAD_AMOUNT, `bet/raise to ${to} outside ${range.min}..${range.max}`);
      }
    }
    return OK;
  }

  private doBet(action: HandAction & { player: number }): void {
    const p = action.player;
    switch (action.type) {
      case 'fold':
        this.folded[p] = true;
        this.emit({ type: 'fold', player: p });
        break;
      case 'check-call': {
        const toCall = Math.min(this.currentBet - this.bets[p]!, this.stacks[p]!);
        if (toCall <= 0) this.emit({ type: 'check', player: p });
        else {
          this.move(p, toCall);
          this.emit({ type: 'call', player: p, amount: toCall, allIn: this.allIn[p]! });
        }
        break;
      }
      case 'bring-in': {
        const amount = Math.min(this.opts.bringIn ?? 0, this.stacks[p]!);
        this.move(p, amount);
        this.currentBet = Math.max(this.currentBet, this.bets[p]!);
        this.bringInPending = false;
        this.emit({ type: 'bring-in', player: p, amount, allIn: this.allIn[p]! });
        break;
      }
      case 'bet-raise': {
        const to = action.to;
        const nominal = this.nominalRange(p);
        const amount = to - this.bets[p]!;
        const previous = this.currentBet;
        const allInShort = nominal === null || to < nominal.min;
        const full = !allInShort;
        if (to - previous > this.largestIncrement) this.largestIncrement = to - previous;
        this.move(p, amount);
        this.currentBet = to;
        this.bringInPending = false;
        if (full) {
          if (this.openPairChoice && this.raises === 0) this.unit = to;
          this.lastRaise = this.raises === 0 ? Math.max(to - previous, this.limits!.fullBet) : to - previous;
          this.raises++;
          this.fullSeq++;
        } else if (this.opts.shortAllInReopens === true) {
          // PokerKit: a short all-in is a bet or raise too: it counts toward the cap, and the next
          // raise is a full one above it.
          this.raises++;
        }
        this.lastAggressor = p;
        this.exposureFrom = p;
        this.emit({ type: 'bet-raise', player: p, to, amount, allIn: this.allIn[p]!, full });
        break;
      }
      default:
        break;
    }
    this.acted[p] = true;
    this.actedAt[p] = this.fullSeq;
    this.facedAt[p] = this.currentBet;
    this.advance(p);
  }

  private move(p: number, amount: number): void {
    this.stacks[p]! -= amount;
    this.bets[p]! += amount;
    this.committed[p]! += amount;
    this.live[p]! += amount;
    if (this.stacks[p] === 0) this.allIn[p] = true;
  }

  /** After player `from` acted: the next player to act, or the end of the round (or of the hand). */
  private advance(from: number): void {
    let remaining = 0;
    let actors = 0;
    for (let q = 0; q < this.n; q++) {
      if (this.folded[q]) continue;
      remaining++;
      if (!this.allIn[q] && !this.frozen[q]) actors++;
    }
    if (remaining <= 1) {
      this.returnUncalled();
      this.collectBets();
      this.finish('all');
      return;
    }
    for (let i = 1; i <= this.n; i++) {
      const q = (from + i) % this.n;
      if (!this.canAct(q)) continue;
      // A lone player with chips who matched the bet has nobody to bet against: no action.
      if (actors === 1 && this.bets[q]! >= this.currentBet) continue;
      if (!this.acted[q] || this.bets[q]! < this.currentBet) {
        this.actorValue = q;
        return;
      }
    }
    this.endStreet();
  }

  private collectBets(): void {
    for (let p = 0; p < this.n; p++) {
      this.collected += this.bets[p]!;
      this.bets[p] = 0;
    }
    this.currentBet = 0;
  }

  /**
   * Returns the part of the largest bet of this street nobody matched (RULES.md §1). Only live bets
   * count: antes and dead blinds are never returned.
   */
  private returnUncalled(): void {
    let top = -1;
    let first = 0;
    let second = 0;
    for (let p = 0; p < this.n; p++) {
      const b = this.bets[p]!;
      if (b > first) {
        second = first;
        first = b;
        top = p;
      } else if (b > second) second = b;
    }
    if (top >= 0 && first > second && !this.folded[top]) {
      const amount = first - second;
      this.bets[top]! -= amount;
      this.committed[top]! -= amount;
      this.live[top]! -= amount;
      this.stacks[top]! += amount;
      this.allIn[top] = false;
      this.emit({ type: 'return', player: top, amount });
    }
  }

  private endStreet(): void {
    if (this.bettingRan) this.aggressorOnLastRound = this.lastAggressor;
    this.bettingRan = false;
    this.returnUncalled();
    this.collectBets();
    this.limits = null;
    this.bringInPending = false;
    for (let p = 0; p < this.n; p++) this.noRaise[p] = false;
    this.lastAggressor = null;
    const next = this.streetIndex + 1;
    if (next < this.variant.streets.length) {
      this.actorValue = null;
      this.phaseValue = 'deal';
      this.startStreet(next);
      return;
    }
    if (this.runFromStreet >= 0 && this.runDealing === 1) {
      // The first run is out: the second deals the same streets again from the next cards of the deck.
      this.runDealing = 2;
      this.secondBoard = this.board.slice(0, this.runShared);
      this.actorValue = null;
      this.phaseValue = 'deal';
      this.startStreet(this.runFromStreet);
      return;
    }
    this.startShowdown();
  }

  // ---------------------------------------------------------------- showdown and pots

  private startShowdown(): void {
    this.actorValue = null;
    this.phaseValue = 'showdown';
    if (this.opts.autoShowdown) {
      for (const p of this.showdownOrder()) {
        if (this.shown[p] || this.mucked[p]) continue;
        if (this.cards[p]!.includes(null)) {
          this.mucked[p] = true;
          this.emit({ type: 'muck', player: p });
        } else {
          this.shown[p] = true;
          this.emit({ type: 'show', player: p, cards: [...this.cards[p]!] });
        }
      }
    }
    this.afterShowdownStep();
  }

  private verifyShowdown(action: HandAction & { player: number }): HandResult<undefined> {
    const p = action.player;
    const bettingOver = this.phaseValue === 'showdown' || (this.bettingIsOver() && !this.drawsRemain());
    if (!bettingOver) return err(HandErrorCode.WRONG_PHASE, 'hands are shown at the showdown');
    if (p < 0 || p >= this.n || this.folded[p])
      return err(HandErrorCode.NOT_YOUR_TURN, `player ${p} is not in the showdown`);
    if (this.shown[p] || this.mucked[p])
      return err(HandErrorCode.ILLEGAL_ACTION, `player ${p} already showed or mucked`);
    if (action.type === 'show') {
      const hand = this.cards[p]!;
      if (action.cards === undefined) {
        if (hand.includes(null)) return err(HandErrorCode.BAD_CARDS, 'the hand has unknown cards: give them');
        return OK;
      }
      if (action.cards.length !== hand.length)
        return err(HandErrorCode.BAD_CARDS, `the hand has ${hand.length} cards`);
      const unknownFill: Card[] = [];
      const remaining = [...hand];
      for (const card of action.cards) {
        const i = remaining.indexOf(card);
        if (i >= 0) remaining.splice(i, 1);
        else unknownFill.push(card);
      }
      if (remaining.some((c) => c !== null) || unknownFill.length !== remaining.length) {
        return err(HandErrorCode.BAD_CARDS, 'the shown cards are not the hand dealt');
      }
      for (const card of unknownFill) {
        if (!deckContains(this.variant.deck, card) || this.used[card] !== 0) {
          return err(HandErrorCode.BAD_CARDS, `${formatCard(card)} cannot be in this hand`);
        }
      }
      if (new Set(unknownFill).size !== unknownFill.length)
        return err(HandErrorCode.BAD_CARDS, 'a card appears twice');
      return OK;
    }
    // Muck: refused when every other player of one of his pots has mucked (somebody must win it).
    const pots =
      this.agreedPots.length > 0 ? this.potParts().filter((pot) => !pot.agreed) : this.currentPots();
    for (const pot of pots) {
      if (!pot.eligible.includes(p)) continue;
      if (pot.eligible.every((q) => q === p || this.mucked[q])) {
        return err(HandErrorCode.ILLEGAL_ACTION, 'the last player in a pot cannot muck: he wins it');
      }
    }
    return OK;
  }

  /** No more betting can happen in this hand (at most one player can still bet). */
  private bettingIsOver(): boolean {
    if (this.phaseValue === 'bet' || this.phaseValue === 'split') return false;
    if (this.phaseValue === 'draw') return false;
    let actors = 0;
    for (let p = 0; p < this.n; p++) if (this.canAct(p)) actors++;
    return actors <= 1 && this.currentBet === 0;
  }

  /** Whether a draw is still to come (cards shown before it would change). */
  private drawsRemain(): boolean {
    if (this.drawStage !== 'none') return true;
    const streets = this.variant.streets;
    for (let s = this.streetIndex + 1; s < streets.length; s++) if (streets[s]!.draw) return true;
    return false;
  }

  private doShow(p: number, given: readonly Card[] | undefined): void {
    if (given !== undefined) {
      const hand = this.cards[p]!;
      const remaining = [...given];
      for (const card of hand) {
        const i = card === null ? -1 : remaining.indexOf(card);
        if (i >= 0) remaining.splice(i, 1);
      }
      for (let i = 0; i < hand.length; i++) {
        if (hand[i] === null) {
          const card = remaining.shift()!;
          hand[i] = card;
          this.used[card] = 1;
          this.removeFromStub(card);
        }
      }
    }
    this.shown[p] = true;
    this.emit({ type: 'show', player: p, cards: [...this.cards[p]!] });
    this.afterShowdownStep();
  }

  private afterShowdownStep(): void {
    if (this.phaseValue !== 'showdown') return;
    const pending = this.showdownPending();
    let shownCount = 0;
    for (let p = 0; p < this.n; p++) if (this.shown[p]) shownCount++;
    if (pending.length === 0 || (pending.length === 1 && shownCount === 0)) this.finish('showdown');
  }

  /** Ends the hand: rake, pots awarded, finishing stacks. */
  private finish(how: 'all' | 'showdown' | 'agreed'): void {
    const parts = this.agreedPots.length > 0 ? this.potParts() : null;
    const pots: Pot[] = parts ?? buildPots(this.live, this.folded, this.deadMoney);
    const count = pots.length;
    const policy = this.opts.rake;
    let rake = 0;
    if (policy) {
      let total = 0;
      for (const pot of pots) total += pot.amount;
      const takes = this.rakeTakes(policy, pots, total);
      for (let i = 0; i < count; i++) {
        const take = takes[i]!;
        if (take === 0) continue;
        rake += take;
        const pot = pots[i]!;
        pots[i] = { amount: pot.amount - take, eligible: pot.eligible };
      }
    }
    this.rakeValue = rake;
    if (rake > 0) this.emit({ type: 'rake', amount: rake });
    this.pots = pots;
    for (let index = 0; index < count; index++) {
      const pot = pots[index]!;
      if (pot.amount === 0) continue;
      if (how === 'agreed' || parts?.[index]?.agreed === true) {
        for (const s of splitEvenly(pot.amount, oddChipOrder(pot.eligible))) {
          this.award(index, s.player, s.amount, 'agreed');
        }
        continue;
      }
      let candidates: readonly number[] = pot.eligible;
      let mucks = 0;
      for (const p of candidates) if (this.mucked[p]) mucks++;
      if (mucks > 0 && mucks < candidates.length) candidates = candidates.filter((p) => !this.mucked[p]);
      if (candidates.length === 0) candidates = this.inHand();
      if (candidates.length === 1 || how === 'all') {
        this.award(index, candidates[0]!, pot.amount, 'all');
        continue;
      }
      if (this.secondBoard !== null) {
        // Each run wins half the pot, the odd chip to the first, split by its own board.
        const second = Math.floor(pot.amount / 2);
        this.awardShowdown(index, pot.amount - second, candidates, this.board, 1);
        this.awardShowdown(index, second, candidates, this.secondBoard, 2);
        continue;
      }
      this.awardShowdown(index, pot.amount, candidates, this.board, undefined);
    }
    this.finishing = [...this.stacks];
    this.phaseValue = 'done';
    this.actorValue = null;
    this.dealQueue.length = 0;
    this.emit({ type: 'end', stacks: [...this.stacks] });
  }

  /** The rake of each pot: the policy on each pot, or on the total shared out in proportion (remainder from the main pot). */
  private rakeTakes(policy: NonNullable<HandConfig['rake']>, pots: readonly Pot[], total: number): number[] {
    const triggered = this.reachedRake;
    const clamp = (asked: number, most: number): number => Math.max(0, Math.min(most, Math.floor(asked)));
    const amounts = pots.map((pot) => pot.amount);
    if (this.opts.rakeEachPot) {
      return amounts.map((amount) => clamp(policy({ pot: amount, playersDealt: this.n, triggered }), amount));
    }
    const rake = clamp(policy({ pot: total, playersDealt: this.n, triggered }), total);
    let left = rake;
    const takes = amounts.map((amount) => {
      const take = total > 0 ? Math.floor((rake * amount) / total) : 0;
      left -= take;
      return take;
    });
    for (let i = 0; left > 0 && i < takes.length; i++) {
      const extra = Math.min(left, amounts[i]! - takes[i]!);
      takes[i]! += extra;
      left -= extra;
    }
    return takes;
  }

  /** Pot `pot`'s `amount` to the best of `candidates` on `board`, hi/lo halves and odd chips by the rules. */
  private awardShowdown(
    pot: number,
    amount: number,
    candidates: readonly number[],
    board: readonly MaybeCard[],
    run: 1 | 2 | undefined,
  ): void {
    const result = this.decide(candidates, board);
    const high: number[] = [];
    for (const i of result.winners) high.push(candidates[i]!);
    let low: number[] | null = null;
    if (result.lowWinners !== null) {
      low = [];
      for (const i of result.lowWinners) low.push(candidates[i]!);
    }
    for (const s of awardPot(amount, high.length > 0 ? high : candidates, low)) {
      this.award(pot, s.player, s.amount, s.share, run);
    }
  }

  private award(
    pot: number,
    player: number,
    amount: number,
    share: 'all' | 'high' | 'low' | 'agreed',
    run?: 1 | 2,
  ): void {
    if (amount <= 0) return;
    this.stacks[player]! += amount;
    this.emit(
      run === undefined
        ? { type: 'award', pot, player, amount, share }
        : { type: 'award', pot, player, amount, share, run },
    );
  }

  /** Who wins among the shown candidates (indexes into `candidates`), on `board` (default the first run's). */
  private decide(candidates: readonly number[], board: readonly MaybeCard[] = this.board): ShowdownWinners {
    const rules = this.variant.showdown;
    const holes: (readonly Card[])[] = [];
    for (const p of candidates) holes.push(known(this.cards[p]!));
    return showdownWinners({ rules, board: known(board), holes });
  }

  private emit(event: HandEvent): void {
    this.events.push(event);
  }
}

/** The known cards of a list: the list itself when it has no unknown card (the usual case). */
function known(cards: readonly MaybeCard[]): readonly Card[] {
  if (!cards.includes(null)) return cards as readonly Card[];
  return cards.filter((c): c is Card => c !== null);
}

/**
 * The big blind's position (-1 without blinds): the FIRST largest blind in position order, so that a
 * live big blind posted out of position by a new or returning player (RULES.md §1) does not move it;
 * straddles are larger and still act last. With equal small and big blinds (3 or more players) the
 * second of them, position 1, is the big blind; heads-up, position 0 is (see ./types.ts).
 */
export function bigBlindOf(blinds: readonly number[], players: number): number {
  let big = -1;
  let bigAmount = 0;
  for (let p = 0; p < players; p++) {
    const b = blinds[p] ?? 0;
    if (b > bigAmount) {
      big = p;
      bigAmount = b;
    }
  }
  if (big === 0 && players > 2 && (blinds[1] ?? 0) === bigAmount) return 1;
  return big;
}

/** A `LegalActions` record, built in one go (one object shape: the driver calls this on every action). */
function legal(
  player: number,
  fold: boolean,
  check: boolean,
  call: number | null,
  bringIn: number | null,
  raise: { readonly min: number; readonly max: number } | null,
  raiseTos: readonly number[] | null,
  discard: number | null,
  split: boolean,
): LegalActions {
  return { player, fold, check, call, bringIn, raise, raiseTos, discard, split };
}

/** Removes entry `i` of a list, as `splice(i, 1)` does, without making the list of removed entries. */
function removeAt(list: unknown[], at: number): void {
  const i = at < 0 ? Math.max(0, list.length + at) : at;
  if (i >= list.length) return;
  for (let k = i + 1; k < list.length; k++) list[k - 1] = list[k]!;
  list.length--;
}

/** Whether the up cards show a pair. */
function hasOpenPair(cards: readonly MaybeCard[], up: readonly boolean[]): boolean {
  let mask = 0;
  for (let i = 0; i < cards.length; i++) {
    const card = cards[i];
    if (!up[i] || card === null || card === undefined) continue;
    const bit = 1 << (card >> 2);
    if (mask & bit) return true;
    mask |= bit;
  }
  return false;
}

/**
 * The value of the up cards for the order of action in stud games: quads, trips, two pair, pair, high
 * card, then ranks (higher is better). `low` (razz): the lowest hand is best, ace low, pairs bad.
 */
export function showingValue(cards: readonly MaybeCard[], up: readonly boolean[], low: boolean): number {
  // No allocation (this runs for every player at every later stud round): counts in a scratch list,
  // then the rank groups read off largest first, equal sizes the higher rank first.
  const counts = SHOWING_COUNTS;
  counts.fill(0);
  let most = 0;
  for (let i = 0; i < cards.length; i++) {
    const card = cards[i];
    if (!up[i] || card === null || card === undefined) continue;
    let rank = card >> 2;
    if (low) rank = rank === 12 ? 0 : rank + 1;
    const count = ++counts[rank]!;
    if (count > most) most = count;
  }
  let top = 0;
  let second = 0;
  let taken = 0;
  let digits = 0;
  for (let size = most; size > 0; size--) {
    for (let r = 12; r >= 0; r--) {
      if (counts[r] !== size) continue;
      if (taken === 0) top = size;
      else if (taken === 1) second = size;
      if (taken < 4) digits = digits * 14 + r + 1;
      taken++;
    }
  }
  for (let i = taken; i < 4; i++) digits *= 14;
  const category = top === 4 ? 4 : top === 3 ? 3 : top === 2 && second === 2 ? 2 : top === 2 ? 1 : 0;
  const value = category * 14 ** 4 + digits;
  return low ? -value : value;
}

/** Scratch rank counts of `showingValue`. */
const SHOWING_COUNTS: number[] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

const DECK_SIZE = { standard52: 52, short36: 36, piquet32: 32 } as const;

const DECKS: Record<DeckKind, readonly Card[]> = {
  standard52: deckCards('standard52'),
  short36: deckCards('short36'),
  piquet32: deckCards('piquet32'),
};

/** A new copy of the deck in its fixed order; the hand draws from it at random. */
const freshDeck = (kind: DeckKind): Card[] => DECKS[kind].slice();

/** Cards each player is dealt over a hand of each variant (draws replace, so they do not count). */
const CARDS_PER_PLAYER = new Map<string, number>(
  Object.values(VARIANTS).map((v) => [v.id, v.streets.reduce((sum, s) => sum + s.hole.length, 0)]),
);

const isWhole = (x: unknown): boolean => typeof x === 'number' && Number.isInteger(x) && x >= 0;

/** Whether every entry of a list is a non-negative integer (plain loops: this runs once a hand). */
function allWhole(list: readonly number[]): boolean {
  for (let i = 0; i < list.length; i++) if (!isWhole(list[i])) return false;
  return true;
}

function validateConfig(config: HandSettings): string | null {
  if (!Object.hasOwn(VARIANTS, config.variant)) return `unknown variant ${config.variant}`;
  const variant = variantOf(config.variant);
  const n = config.stacks.length;
  if (n < 2) return 'a hand needs at least 2 players';
  if (n > variant.seats) return `${variant.name} seats at most ${variant.seats}`;
  const deck = DECK_SIZE[variant.deck];
  const perPlayer = CARDS_PER_PLAYER.get(variant.id) ?? 0;
  if (variant.forced === 'blinds' && n * perPlayer > deck) return 'not enough cards for so many players';
  for (let p = 0; p < n; p++) {
    const stack = config.stacks[p];
    if (!isWhole(stack) || stack === 0) return 'stacks must be positive integers';
  }
  const { antes } = config;
  if (
    (config.blinds !== undefined && !allWhole(config.blinds)) ||
    (config.deadBlinds !== undefined && !allWhole(config.deadBlinds)) ||
    (antes !== undefined && !(typeof antes === 'number' ? isWhole(antes) : allWhole(antes)))
  )
    return 'forced bets must be non-negative integers';
  // Each amount read by name (a loop over the names would make every read a slow keyed one).
  const bad = (value: number | undefined): boolean => value !== undefined && !isWhole(value);
  const amountAt: number = bad(config.bringIn)
    ? 0
    : bad(config.smallBet)
      ? 1
      : bad(config.bigBet)
        ? 2
        : bad(config.minBet)
          ? 3
          : bad(config.maxRaises)
            ? 4
            : -1;
  if (amountAt >= 0) return `${CONFIG_AMOUNTS[amountAt]!} must be a non-negative integer`;
  if (config.blinds && config.blinds.length > n) return 'more blinds than players';
  if (config.structure === 'fixed-limit' && !((config.smallBet ?? 0) > 0 && (config.bigBet ?? 0) > 0)) {
    return 'fixed limit needs smallBet and bigBet';
  }
  if (config.structure === 'spread-limit') {
    if (!(
      config.spreadLimits?.every((x) => isWhole(x) && x > 0) ??
      ((config.smallBet ?? 0) > 0 && (config.bigBet ?? 0) > 0)
    )) {
      return 'spread limit needs spreadLimits or smallBet and bigBet';
    }
  }
  return null;
}

const CONFIG_AMOUNTS = ['bringIn', 'smallBet', 'bigBet', 'minBet', 'maxRaises'] as const;
