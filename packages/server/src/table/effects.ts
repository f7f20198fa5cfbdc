/**
 * What a step of the table machine asks the world to do (./machine.ts), in order, and the helpers a
 * step uses to ask it. The actor (./actor.ts) runs them: every persist is awaited before anything
 * after it (durable, then announced).
 */
import type { FairLink, HandActionRecord, NewHand } from '../storage/types.js';
import type { MachineState } from './state.js';
import type { AccountId, HandId, TableMessage } from './types.js';
import { render, viewFor, type FullMessage, type Rendered } from './visibility.js';

/** A subscriber of the actor, named to the machine by a number. */
export type SubscriberId = number;

export type TimerName = 'next-hand' | 'decision' | 'blind' | 'run-twice';

export type Write =
  /** Seat → balance, the whole stack (ledger chips). */
  | { readonly kind: 'cash-out'; readonly account: AccountId }
  /** Controller chips: a stack handed in with its player, or out with him. */
  | { readonly kind: 'stack-in'; readonly account: AccountId; readonly stack: number }
  | { readonly kind: 'stack-out'; readonly account: AccountId; readonly stack: number }
  /**
   * The hand dealt, with its forced bets. Storage gives it its id: the actor steps `hand-stored` with
   * it (a step emits nothing after this write).
   */
  | { readonly kind: 'start-hand'; readonly hand: NewHand }
  /** An accepted action (and the settlement when it ended the hand). */
  | { readonly kind: 'record-action'; readonly record: HandActionRecord }
  /** The table's first link of its fair-dealing chain, stored before its commitment is published. */
  | { readonly kind: 'fair-link'; readonly link: FairLink }
  /** One of the account's artificial all-ins used (the room's shared counter). */
  | { readonly kind: 'all-in'; readonly account: AccountId };

export interface HandPositions {
  readonly button: number;
  readonly smallBlind: number | null;
  readonly bigBlind: number | null;
}

export interface HandFinisher {
  readonly account: AccountId;
  readonly seat: number;
  readonly startingStack: number;
  readonly finishingStack: number;
}

/** What the table tells its controller (`deps.controller`). */
export type ControllerNews =
  | {
      readonly type: 'hand-finished';
      readonly handId: HandId;
      readonly number: number;
      /** The seats of the hand's button and blinds (null in stud games, which have none). */
      readonly positions: HandPositions | null;
      /** Everyone dealt in: his stack when the hand started and when it ended (places rank by the first). */
      readonly players: readonly HandFinisher[];
    }
  /** A controller-chips player has no chips left after a hand (still seated: `unseat` him). */
  | { readonly type: 'busted'; readonly account: AccountId; readonly seat: number }
  /** A player left his seat with `stack` chips (controller chips: handed out). */
  | { readonly type: 'left'; readonly account: AccountId; readonly seat: number; readonly stack: number };

export type Effect =
  | { readonly type: 'persist'; readonly write: Write }
  /** A broadcast, already made for each viewer. */
  | { readonly type: 'broadcast'; readonly message: Rendered }
  /** To one subscriber. */
  | { readonly type: 'deliver'; readonly to: SubscriberId; readonly message: TableMessage }
  /** Start the timer (it fires once `ms` from now; a running one starts over), or stop it (`ms` null). */
  | { readonly type: 'timer'; readonly timer: TimerName; readonly ms: number | null }
  | { readonly type: 'tell'; readonly news: ControllerNews };

/** One step in progress: the state it changes, the effects it emits, the time it was given. */
export interface Run {
  readonly s: MachineState;
  readonly fx: Effect[];
  readonly now: number;
}

export function persist(run: Run, write: Write): void {
  run.fx.push({ type: 'persist', write });
}

/** A message to every subscriber: the stream advances and the message carries the new number. */
export function broadcast(run: Run, make: (seq: number) => FullMessage): void {
  const seq = ++run.s.stream;
  run.fx.push({ type: 'broadcast', message: render(run.s, make(seq)) });
}

export function broadcastSnapshot(run: Run): void {
  broadcast(run, (seq) => ({ type: 'table-snapshot', seq }));
}

/** A message to one subscriber (or, for legal actions, to the actor alone): the stream does not advance. */
export function deliver(run: Run, to: SubscriberId, viewer: AccountId | null, message: FullMessage): void {
  const out = viewFor(run.s, viewer, message);
  if (out !== null) run.fx.push({ type: 'deliver', to, message: out });
}

/** A message that does not advance the stream, to whoever may see it (legal actions: the actor). */
export function announceAside(run: Run, message: FullMessage): void {
  run.fx.push({ type: 'broadcast', message: render(run.s, message) });
}

export function timer(run: Run, name: TimerName, ms: number | null): void {
  run.fx.push({ type: 'timer', timer: name, ms });
}

export function tell(run: Run, news: ControllerNews): void {
  run.fx.push({ type: 'tell', news });
}
