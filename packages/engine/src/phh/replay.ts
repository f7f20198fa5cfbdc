import type { Card } from '../cards.js';
import type { HandAction, HandConfig, HandEvent, HandSnapshot, MaybeCard } from '../hand/types.js';
import { formatPhhAction } from './actions.js';
import { phhToConfig, type PhhRules } from './config.js';
import { engineHandFactory, type HandFactory, type PlayableHand } from './engine.js';
import { readRuns } from './runs.js';
import type { PhhAction, PhhHand } from './types.js';

export interface ReplayError {
  readonly code: string;
  /** The 0-based index in `actions` of the first action refused; absent when the hand could not start. */
  readonly action?: number;
  readonly message: string;
}

export type ReplayOutcome =
  | {
      readonly ok: true;
      readonly finishingStacks: readonly number[];
      readonly config: HandConfig;
      readonly events: readonly HandEvent[];
    }
  | { readonly ok: false; readonly error: ReplayError };

export interface ReplayOptions extends PhhRules {
  /** The hand state machine to drive; default the engine's own. */
  readonly createHand?: HandFactory;
}

type ShowMuck = Extract<PhhAction, { kind: 'show-muck' }>;

const isKnown = (card: MaybeCard): card is Card => card !== null;

/** The engine action of a PHH player action (not deals, not show/muck). */
function engineAction(action: PhhAction): HandAction | null {
  switch (action.kind) {
    case 'fold':
      return { type: 'fold', player: action.player };
    case 'check-call':
      return { type: 'check-call', player: action.player };
    case 'bring-in':
      return { type: 'bring-in', player: action.player };
    case 'bet-raise':
      return { type: 'bet-raise', player: action.player, to: action.amount };
    case 'discard':
      return { type: 'discard', player: action.player, cards: action.cards };
    case 'show-muck':
      return action.cards.length > 0 && action.cards.every(isKnown)
        ? { type: 'show', player: action.player, cards: action.cards }
        : action.cards.length > 0 && action.cards.some(isKnown)
          ? { type: 'show', player: action.player }
          : { type: 'muck', player: action.player };
    default:
      return null;
  }
}

class Replayer {
  /** Show/muck actions read before the hand reached its showdown, in file order, one per player. */
  private readonly shows = new Map<number, { readonly action: ShowMuck; readonly index: number }>();
  /** Indexes of deal actions already applied ahead of their place in the file. */
  private readonly dealtAhead = new Set<number>();

  constructor(
    private readonly hand: PlayableHand,
    private readonly actions: readonly PhhAction[],
    private readonly scale: number,
    /** `_runs`: 2 = the board is run twice, agreed before the first board card the hand allows it at. */
    private readonly runs: 1 | 2,
  ) {}

  private refuse(index: number, code: string, message: string): ReplayError {
    const action = this.actions[index];
    const text = action === undefined ? '' : `${formatPhhAction(action, this.scale)}: `;
    return { code, action: index, message: `${text}${message}` };
  }

  private apply(index: number, action: HandAction): ReplayError | null {
    const result = this.hand.apply(action);
    return result.ok ? null : this.refuse(index, result.error.code, result.error.message);
  }

  /** Answers what the file cannot say: declines 32-card draw's split offer. */
  private settle(): ReplayError | null {
    for (;;) {
      const actor = this.hand.actor;
      if (this.hand.phase !== 'split' || actor === null) return null;
      const refused = this.apply(this.actions.length, { type: 'split', player: actor, accept: false });
      if (refused) return refused;
    }
  }

  /** Applies the show/muck actions read so far once the hand waits for them. */
  private flushShows(): ReplayError | null {
    if (this.hand.snapshot().phase !== 'showdown') return null;
    for (const [player, { action, index }] of this.shows) {
      const state = this.hand.snapshot();
      if (state.phase !== 'showdown') break;
      const seat = state.players[player];
      this.shows.delete(player);
      if (seat === undefined || seat.folded || seat.shown || seat.mucked) continue;
      const refused = this.apply(index, engineAction(action)!);
      if (refused) return refused;
    }
    return null;
  }

  /** A later `d dh pN` that answers the engine's pending draw for `player`, dealt now. */
  private dealAhead(from: number, state: HandSnapshot): ReplayError | null | 'none' {
    const pending = state.pendingDeal;
    if (pending === null || pending.kind === 'board') return 'none';
    for (let j = from + 1; j < this.actions.length; j++) {
      const later = this.actions[j]!;
      if (later.kind === 'deal-board') return 'none';
      if (later.kind === 'deal-hole' && later.player === pending.player && !this.dealtAhead.has(j)) {
        this.dealtAhead.add(j);
        return this.apply(j, { type: 'deal', cards: later.cards });
      }
    }
    return 'none';
  }

  private step(index: number, action: PhhAction): ReplayError | null {
    if (action.kind === 'none' || this.dealtAhead.has(index)) return null;
    if (action.kind === 'show-muck') {
      // Each remaining player shows or mucks once: as soon as the hand allows it (all-in runouts show
      // before the last cards), else when the showdown comes; a later line of his is ignored.
      const seat = this.hand.snapshot().players[action.player];
      // Already decided, or the hand ended when the others mucked: nothing left to show.
      if (seat === undefined || seat.shown || seat.mucked || this.hand.phase === 'done') return null;
      const result = this.hand.apply(engineAction(action)!);
      if (result.ok) {
        this.shows.delete(action.player);
        return null;
      }
      if (result.error.code !== 'WRONG_PHASE')
        return this.refuse(index, result.error.code, result.error.message);
      this.shows.set(action.player, { action, index });
      return null;
    }
    for (;;) {
      const settled = this.settle() ?? this.flushShows();
      if (settled) return settled;
      const state = this.hand.snapshot();
      if (action.kind === 'deal-hole' || action.kind === 'deal-board') {
        const pending = state.pendingDeal;
        if (state.phase !== 'deal' || pending === null) {
          return this.refuse(
            index,
            'WRONG_PHASE',
            `no cards are to be dealt now (the hand waits for ${state.phase})`,
          );
        }
        if (action.kind === 'deal-board' ? pending.kind !== 'board' : pending.kind === 'board') {
          return this.refuse(index, 'WRONG_PHASE', `the hand waits for ${describeDeal(state)}`);
        }
        if (action.kind === 'deal-board' && this.runs === 2 && this.hand.can(RUN_TWICE)) {
          const refused = this.apply(index, RUN_TWICE);
          if (refused) return refused;
        }
        if (action.kind === 'deal-hole' && pending.kind !== 'board' && pending.player !== action.player) {
          const ahead = this.dealAhead(index, state);
          if (ahead === 'none')
            return this.refuse(index, 'WRONG_PHASE', `the hand waits for ${describeDeal(state)}`);
          if (ahead) return ahead;
          continue;
        }
        return this.apply(index, { type: 'deal', cards: action.cards });
      }
      if (state.phase === 'deal') {
        // The file deals a player's draw later than the engine asks for it (all discards first).
        const ahead = this.dealAhead(index, state);
        if (ahead === 'none')
          return this.refuse(index, 'WRONG_PHASE', `the hand waits for ${describeDeal(state)}`);
        if (ahead) return ahead;
        continue;
      }
      return this.apply(index, engineAction(action)!);
    }
  }

  run(): ReplayError | null {
    for (const [index, action] of this.actions.entries()) {
      const refused = this.step(index, action);
      if (refused) return refused;
    }
    const end = this.actions.length;
    const settled = this.settle() ?? this.flushShows();
    if (settled) return settled;
    // Players the file leaves unshown at the showdown show what they were dealt.
    for (;;) {
      const state = this.hand.snapshot();
      if (state.phase !== 'showdown') break;
      const player = state.players.findIndex((seat) => !seat.folded && !seat.shown && !seat.mucked);
      if (player < 0) break;
      const shown = this.apply(end, { type: 'show', player });
      if (shown && this.apply(end, { type: 'muck', player })) return shown;
      const again = this.settle();
      if (again) return again;
    }
    return null;
  }
}

const RUN_TWICE: HandAction = { type: 'run-twice' };

function describeDeal(state: HandSnapshot): string {
  const pending = state.pendingDeal;
  if (pending === null) return state.phase;
  if (pending.kind === 'board') return `${pending.count} board card(s)`;
  return `${pending.count} card(s) to p${pending.player + 1}`;
}

/** Replays a PHH hand on the hand state machine: its finishing stacks, or the first action refused. */
export function replayPhh(hand: PhhHand, options: ReplayOptions): ReplayOutcome {
  const built = phhToConfig(hand, options);
  if (!built.ok) return { ok: false, error: built.error };
  const runs = readRuns(hand.extra);
  if (typeof runs === 'string') return { ok: false, error: { code: 'BAD_PHH', message: runs } };
  const started = (options.createHand ?? engineHandFactory)(built.value.config);
  if (!started.ok) return { ok: false, error: started.error };
  const engine = started.value;
  const refused = new Replayer(engine, hand.actions, hand.scale, runs).run();
  if (refused) return { ok: false, error: refused };
  const finishingStacks = engine.finishingStacks();
  if (engine.phase !== 'done' || finishingStacks === null) {
    const state = engine.snapshot();
    return {
      ok: false,
      error: {
        code: 'INCOMPLETE_HAND',
        action: hand.actions.length,
        message: `the actions end before the hand does (it waits for ${describeDeal(state)})`,
      },
    };
  }
  return { ok: true, finishingStacks, config: built.value.config, events: engine.events };
}
